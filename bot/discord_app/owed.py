"""Work the bot owes, done first at every start: as soon as the process holds its database, before and apart
from the Discord login (issue 41).

A start may follow a crash at any moment of a move's life, and the next crash may come seconds later. What
the bot owes is in the database: a `computer` marker for each move the bot makes itself (a computer's, a
stand-in's, a person's only option or decision settled ahead: turns.computers_due), whatever its due time,
and any `timeout` or `away` deadline that came due while it was down. These need nothing but the database,
so they are found and done at once: under Discord's faults a start may never get as far as its scheduler.

The moves' public side (table, pings, standings) needs Discord. It was promised in each move's own write
(an `announce` row), so nothing is lost while Discord is not there yet: once the extension is loaded it
announces every promise (Upkeep.announce_owed) and, from then on, each move as it is made (`announce_with`).

The bot's one computer runner lives here, so that the game side needs no Discord: the cog drives it too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from storage import Deadline, GameNotPlayable, GameQuarantined

from ..service import GameService, Outcome
from .computers import ComputerRunner

log = logging.getLogger(__name__)
OWED_TASK = "owed work"
Announce = Callable[[Outcome], Awaitable[None]]


class OwedWork:
    def __init__(self, service: GameService, computer_delay: float):
        self.service = service
        self.computers = ComputerRunner(service, self._moved, computer_delay)
        self._announce: Announce | None = None  # the public side, once Discord is there
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Find and do what is owed, in the background (the Discord login goes on meanwhile)."""
        self._task = asyncio.get_running_loop().create_task(self._find(), name=OWED_TASK)

    def announce_with(self, announce: Announce | None) -> None:
        """How moves are announced from now on (None: they are not; their promises stay in the database)."""
        self._announce = announce

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self.computers.close()

    async def _find(self) -> None:
        try:
            found = await self.service.deadlines.deadlines()
        except Exception:  # the database is busy or gone for a moment: the scheduler finds them later
            log.exception("could not read the deadlines at start-up")
            return
        now = self.service.clock.now()
        owed = [d for d in found if d.kind == "computer" or (d.kind in ("timeout", "away") and d.due_at <= now)]
        if owed:
            log.info("owed at start-up: %d deadlines (moves the bot makes itself, or came due)", len(owed))
        for deadline in owed:
            try:
                await self._do(deadline)
            except (GameQuarantined, GameNotPlayable):
                pass  # the scheduler says so, or waits for the edition
            except Exception:
                log.exception("the %s owed in game %s failed; the scheduler tries it again", deadline.kind,
                              deadline.game_id)

    async def _do(self, deadline: Deadline) -> None:
        if deadline.kind == "computer":
            if await self.service.decisions.computer_due(deadline):  # else a stale marker, dropped
                self.computers.schedule(deadline.channel_id, at_once=True)
            return
        if deadline.kind == "timeout":
            outcome = await self.service.decisions.expire(deadline)
        else:  # a time away is over: the seat is its person's again, nobody newly due to ping
            outcome = await self.service.away.away_over(deadline)
            if outcome is not None and outcome.ok:
                outcome = Outcome(True, record=outcome.record, previous_to_act=list(outcome.due.acting))
        if outcome is None or not outcome.ok or outcome.record is None:
            return  # stale; or refused, and the scheduler tries it again
        await self._moved(outcome)
        if outcome.due.any_computer:
            self.computers.schedule(outcome.record.channel_id)

    async def _moved(self, outcome: Outcome) -> None:
        if self._announce is None:
            return  # promised in the move's write: announced once Discord is there
        try:
            await self._announce(outcome)
        except Exception:  # the move stands; its promise stays, and the scheduler keeps it
            log.exception("could not announce a move in game %s", outcome.record and outcome.record.id)

