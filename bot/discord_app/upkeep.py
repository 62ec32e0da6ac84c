"""What happens without anyone clicking: deadlines fire (a computer decides for a player out of time, a
reminder, a computer or an announcement a restart interrupted), and deleted channels end their games."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

import discord

from storage import Deadline, GameNotPlayable, GameQuarantined, GameRecord

from ..service import GameService
from ..service.clock import RETRY_SECONDS
from .computers import ComputerRunner
from .daily import places, send_daily
from .handlers import Front
from .heads_up import heads_up
from .people_first import after_people
from .presenter import Presenter

log = logging.getLogger(__name__)
WAIT_FOR_EDITION = 3600.0  # a game waiting for its edition's file has its deadlines tried again this much later


class Timers(Protocol):
    """The deadline scheduler the cog runs while it is loaded (bot/app/scheduler.py's Scheduler)."""

    def start(self) -> None: ...

    async def stop(self) -> None: ...

    def wake(self, earliest: float | None = None) -> None: ...

    async def run_due(self) -> int: ...


TimersFor = Callable[[Callable[[Deadline], Awaitable[None]]], Timers]

class Upkeep:
    def __init__(self, bot: discord.Client, service: GameService, presenter: Presenter, computers: ComputerRunner,
                 handlers: Front):
        self.bot = bot
        self.service = service
        self.presenter = presenter
        self.computers = computers
        self.handlers = handlers
        self._background: set[asyncio.Task[None]] = set()
        self._checked_channels = False

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)

    async def fire(self, deadline: Deadline) -> None:
        """A deadline is due: the computer decides for a player out of time, a reminder or a ping put off goes
        out (a heads-up too), a time away ends, a person's daily word goes out, or a computer whose move a restart
        interrupted is set going again. A reminder or timeout outside its person's hours waits (the service)."""
        try:
            await self._fire(deadline)
        except GameQuarantined as lost:  # said in the background: Discord's side never holds up the scheduler
            self._spawn(self.presenter.explain_quarantined(lost.channel_id, lost.game_id))
        except GameNotPlayable as waiting:  # nothing of it changes until its edition is back
            log.warning("game %s cannot be played here: %s", waiting.game_id, waiting.reason)
            await self.service.games.postpone(deadline, self.service.clock.now() + WAIT_FOR_EDITION)

    async def _fire(self, deadline: Deadline) -> None:
        if deadline.kind == "announce":
            # Dropped once announced; if this round fails, tried again then. A round under way keeps it: at a
            # busy time thousands of tables wait minutes for their drawing's turn, and asking again every
            # minute meanwhile was a write and a read of the deadlines each, tens a second (issue 44).
            await self._later(deadline, self.presenter.backlog(deadline.game_id))
            self.presenter.recover(await self._announced(deadline))
            return
        if deadline.kind == "computer":  # a move owed for half a minute: made at once
            if await self.service.decisions.computer_due(deadline):
                # Its move replaces the marker; if the runner fails, the marker fires again then. A crash
                # meanwhile hides nothing: every start makes the moves of all markers, whenever due (owed.py).
                self.computers.schedule(deadline.channel_id, at_once=True)
                await self._later(deadline)
            return
        if deadline.kind == "ping":  # a ping put off while its player was watching, who has not decided since
            record = await self.service.pings.due(deadline)
            if record is not None:
                await self._later(deadline)  # until it is sent: a failure sends it again then
                self._spawn(self._ping_late(deadline, record))
            return
        if deadline.kind == "daily":  # a person's daily word (issue 43): it moves itself to the next day
            games = await self.service.mine.daily(deadline)  # claimed: moved on to the next day
            if games:
                self._spawn(send_daily(self.presenter, deadline.player, games, places(self.bot)))
            return
        if deadline.kind == "heads_up":  # a heads-up put off until its person's hours began
            record = await self.service.pings.heads_up_due(deadline)
            if record is not None:
                self._spawn(heads_up(self.presenter, record, set(self.service.games.due(record).people)))
            return
        if deadline.kind == "away":  # a time away is over: the seat is its person's again
            outcome = await self.service.away.away_over(deadline)
            if outcome is not None and outcome.ok:
                self._spawn(self.handlers.seats_changed(outcome))
            return
        if deadline.kind == "timeout":
            outcome = await self.service.decisions.expire(deadline)
            if outcome is not None and not outcome.ok:
                raise RuntimeError(f"the clock's move was refused: {outcome.notice}")  # tried again later
            if outcome is not None:
                self._spawn(self.handlers.moved(outcome))  # Discord's side never holds up the scheduler
            return
        record = await self.service.decisions.remind(deadline)
        if record is not None and deadline.payload.get("timeout", float("inf")) <= self.service.clock.now():
            await self.service.decisions.reminded(deadline)  # the time has run out already: too late to remind
        elif record is not None:
            await self._later(deadline)  # until it is sent: a failure sends it again then, never twice at once
            self._spawn(self._remind(deadline, record))

    async def _remind(self, deadline: Deadline, record: GameRecord) -> None:
        await self.presenter.remind(deadline, record)
        await self.service.decisions.reminded(_postponed(deadline))

    async def _ping_late(self, deadline: Deadline, record: GameRecord) -> None:
        await after_people()  # late already, by minutes: the clicks waiting to be answered go first
        if self.service.games.cached_version(record.channel_id) not in (None, (record.id, record.version)):
            return  # a move meanwhile: the row, put off a minute, fires again and tells whether it is still owed
        await self.presenter.ping_now(record, {deadline.player})  # which drops the row

    def announce_owed(self) -> None:
        """Discord is there (after a start, or the extension's reload): announce every change whose
        announcement was promised and not made, however long before its promise falls due."""
        self._spawn(self._announce_owed())

    async def _announce_owed(self) -> None:
        try:
            promised = [d for d in await self.service.deadlines.deadlines() if d.kind == "announce"]
        except Exception:  # the database is busy or gone for a moment: the scheduler keeps each promise
            log.exception("could not read the announcements owed")
            return
        for deadline in promised:
            try:
                self.presenter.recover(await self._announced(deadline))
            except (GameQuarantined, GameNotPlayable):
                pass  # the scheduler says so, or waits for the edition
            except Exception:
                log.exception("could not announce game %s; the scheduler tries again", deadline.game_id)

    async def _announced(self, deadline: Deadline) -> GameRecord:
        """The game an announcement is owed for: the open one in memory, if it is that one, for a move of it may
        be being written (on SQLite a read of the game meanwhile sees half the write: a log short of its
        snapshot, taken for damage); else as stored."""
        record = self.service.games.cached(deadline.channel_id)
        if record is not None and record.id == deadline.game_id:
            return record
        return await self.service.games.game(deadline.game_id)

    async def _later(self, deadline: Deadline, wait: float = 0.0) -> None:
        """Fire it again in a minute, or `wait` seconds from now if later."""
        await self.service.games.postpone(deadline, max(_postponed(deadline).due_at, self.service.clock.now() + wait))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # --- deleted channels

    def after_ready(self) -> None:
        if not self._checked_channels:  # once per process: later READYs are reconnections
            self._checked_channels = True
            self._spawn(self._find_deleted_channels())

    async def channel_gone(self, channel_id: int) -> None:
        try:
            await self.service.seats.channel_gone(channel_id)
        except Exception:
            log.exception("could not end the game of deleted channel %s", channel_id)

    async def _find_deleted_channels(self) -> None:
        """Channels deleted while the bot was away: their games end too. A channel the bot's servers do not
        list is asked about once (an archived thread is not listed, yet lives)."""
        for _game, guild_id, channel_id in await self.service.games.open_channels():
            guild = self.bot.get_guild(guild_id)
            if guild is None or guild.unavailable or guild.get_channel_or_thread(channel_id) is not None:
                continue
            try:
                await self.presenter.pacing.turn(channel_id)
                await self.bot.fetch_channel(channel_id)
            except discord.NotFound:
                await self.channel_gone(channel_id)
            except discord.HTTPException:
                pass  # no access, or Discord is busy: the game stays as it is


def _postponed(deadline: Deadline) -> Deadline:
    return dataclasses.replace(deadline, due_at=deadline.due_at + RETRY_SECONDS)
