"""The public side of a table: the table message, the "your move" pings, announcements.

Table edits are coalesced per channel (a burst of moves becomes one edit, for
Discord's rate limits). Pings notify exactly the players who must act now:
an edited message notifies nobody, so each turn gets a new one.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from engine import spectator_view, to_act
from storage import GameQuarantined, GameRecord

from ..service import GameService, Outcome
from ..wording import ENGLISH, notices, phases
from ..wording import table as words
from .embeds import lobby_embed, table_embed
from .people import NOBODY, mention, notify, people
from .tasks import ChannelTasks
from .widgets import lobby_view, table_view

log = logging.getLogger(__name__)


class Presenter:
    def __init__(self, client: discord.Client, service: GameService, table_delay: float = 1.0):
        self.client = client
        self.service = service
        self.table_delay = table_delay
        self.w = ENGLISH  # the table's language
        self._redraws = ChannelTasks()

    async def close(self) -> None:
        await self._redraws.close()

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def show_move(self, outcome: Outcome) -> None:
        """After a move: redraw the table (at once at the end), ping whoever is due, announce the end."""
        record = outcome.record
        if record.status == "finished":
            await self.draw_table(record)  # the last picture of the table, without buttons
        else:
            self.refresh(record.channel_id)
        await self.ping(record, outcome.previous_to_act, outcome.events)

    def refresh(self, channel_id: int) -> None:
        """Redraw the table soon; a burst of moves becomes one edit."""
        self._redraws.start(channel_id, lambda: self._redraw_later(channel_id))

    async def _redraw_later(self, channel_id: int) -> None:
        await asyncio.sleep(self.table_delay)
        self._redraws.release(channel_id)  # a move from now on is drawn by a redraw of its own
        record = self.service.cached(channel_id)
        try:
            if record is not None:
                await self.draw_table(record)
        except Exception:
            log.exception("could not redraw the table in channel %s", channel_id)

    async def draw_table(self, record: GameRecord, footer: str = "") -> GameRecord:
        """Edit the table message; post a new one if it was deleted."""
        w = self.w
        if record.status == "lobby":
            embed, view = lobby_embed(w, record), lobby_view(w, record.id)
        elif record.state is None:
            return record
        else:
            embed = table_embed(w, record, spectator_view(record.state))
            view = table_view(w, record.id) if record.status == "active" else None
        if footer:
            embed.set_footer(text=footer)
        channel = self.channel(record.channel_id)
        if record.messages.table:
            try:
                await channel.get_partial_message(record.messages.table).edit(embed=embed, view=view)
                return record
            except discord.NotFound:
                pass
        message = await channel.send(embed=embed, view=view, allowed_mentions=NOBODY)
        _, record = await self.service.set_messages(record, table=message.id)
        return record

    async def ping(self, record: GameRecord, before: list[str], events=()) -> None:
        """Mention the humans who must act now and did not before; announce the end of the game."""
        channel = self.channel(record.channel_id)
        over = next((e for e in events if e.type == "game_over"), None)
        if over is not None:
            winners = [p for p in over.winners if not record.table.is_computer(p)]
            standings = words.standings(self.w, over, people(self.w, record.table))
            await channel.send(standings, allowed_mentions=notify(winners))
            return
        fresh = [p for p in to_act(record.state) if p not in before and not record.table.is_computer(p)]
        if not fresh:
            return
        status = phases.status(self.w, spectator_view(record.state), people(self.w, record.table))
        text = notices.your_move(self.w, " ".join(mention(p) for p in fresh), status)
        message = await channel.send(text[:2000], view=table_view(self.w, record.id), allowed_mentions=notify(fresh))
        before, _ = await self.service.set_messages(record, ping=message.id)
        old = before.ping  # read under the lock: a ping posted meanwhile by another move is not lost
        if old:
            try:
                await channel.get_partial_message(old).delete()
            except discord.HTTPException:
                pass

    async def cancelled(self, record: GameRecord, by: discord.abc.User) -> None:
        await self.channel(record.channel_id).send(notices.cancelled_by(self.w, by.mention), allowed_mentions=NOBODY)
        await self.draw_table(record, footer=notices.cancelled_footer(self.w))

    async def explain_quarantined(self, lost: GameQuarantined) -> None:
        await self.channel(lost.channel_id).send(notices.quarantined(self.w, lost.game_id), allowed_mentions=NOBODY)
