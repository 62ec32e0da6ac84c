"""The one owner of each table message: it draws the game's newest public state.

A burst of moves becomes one edit (it waits `delay`, then reads the newest
record just before sending); edits are paced under Discord's limits; an edit
still pending when a newer state exists (Discord is throttling us) is given up
and the newest state is sent instead, never a stale one. It posts a table again
only if an open game's table message was deleted, and never a second lobby.
The version it drew is stored, so a table left stale by a restart is redrawn
when someone next looks at it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from storage import GameRecord

from ..service import GameService
from ..turns import computers_due
from .pacing import Pacing
from .people import NOBODY
from .tasks import ChannelTasks

log = logging.getLogger(__name__)
PATIENCE = 1.0  # seconds an edit may take before a newer state replaces it


class TableDrawer:
    def __init__(self, client: discord.Client, service: GameService, pacing: Pacing,
                 looks: Callable[[GameRecord], Awaitable[tuple[discord.Embed, discord.ui.View | None]]],
                 delay: float = 1.0):
        self.client = client
        self.service = service
        self.pacing = pacing
        self.looks = looks  # what the table looks like for a record: its embed and buttons
        self.delay = delay
        self._latest: dict[int, GameRecord] = {}  # per game: the newest record to draw
        self._tasks = ChannelTasks()  # keyed by game: a new /augsburg new never takes over an old draw

    async def close(self) -> None:
        await self._tasks.close()

    def want(self, record: GameRecord) -> None:
        """Draw this game's table soon (with whatever is newest by then)."""
        known = self._latest.get(record.id)
        if known is None or (record.version, not record.open) >= (known.version, not known.open):
            self._latest[record.id] = record
        self._tasks.start(record.id, lambda: self._work(record.id))

    def stale(self, record: GameRecord) -> bool:
        return record.state is not None and record.messages.drawn != record.version

    async def _work(self, game_id: int) -> None:
        try:
            while True:
                await asyncio.sleep(self.delay)
                await self.pacing.turn(self._latest[game_id].channel_id)
                record = self._newest(game_id)
                if record.open and computers_due(record.state, record.table):
                    del self._latest[game_id]  # a computer moves in a moment: its move draws the table
                    return
                drawn = await self._draw(record)
                latest = self._latest[game_id]
                if drawn and (latest.version, latest.status) == (record.version, record.status):
                    del self._latest[game_id]
                    return
        except discord.Forbidden as refused:  # the channel's settings: players still play from their panels
            record = self._latest.pop(game_id, None)
            log.warning("may not draw the table of game %s in channel %s: %s", game_id,
                        record and record.channel_id, refused.text)
        except Exception:
            self._latest.pop(game_id, None)
            log.exception("could not draw the table of game %s", game_id)

    def _newest(self, game_id: int) -> GameRecord:
        """The newest record, with the newest message ids (the cache has them while the game is open)."""
        record = self._latest[game_id]
        cached = self.service.cached(record.channel_id)
        if cached is not None and cached.id == game_id and cached.version >= record.version:
            self._latest[game_id] = record = cached
        return record

    async def _draw(self, record: GameRecord) -> bool:
        """One edit; False if it was given up for a newer state."""
        if record.messages.table is None:
            return True  # the interaction that opens the table posts it
        embed, view = await self.looks(record)
        channel = self.client.get_partial_messageable(record.channel_id)
        attempt = asyncio.ensure_future(channel.get_partial_message(record.messages.table).edit(embed=embed,
                                                                                                view=view))
        while True:
            done, _ = await asyncio.wait({attempt}, timeout=PATIENCE)
            if done:
                break
            if self._latest[record.id].version != record.version:  # throttled: send the newest instead
                attempt.cancel()
                return False
        try:
            attempt.result()
        except discord.NotFound:
            if not record.open:
                return True  # an ended game's deleted table stays deleted
            await self.pacing.turn(record.channel_id)
            message = await channel.send(embed=embed, view=view, allowed_mentions=NOBODY)
            _, record = await self.service.set_messages(record, table=message.id)
        if record.state is not None:
            await self.service.set_messages(record, drawn=record.version)
        return True
