"""One scheduler task per bot process: it sleeps until the earliest deadline in the database, then fires
everything due (RoboDanny's durable timers). Deadlines are rows written with the moves that create them,
so a restart, even kill -9, re-arms them: one due while the bot was down fires once after start-up.

Time is injected (`Clock`, service/clock.py), so tests move time forward instead of sleeping.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from storage import Deadline
from storage.contract import DeadlineStore

from ..service.clock import RETRY_SECONDS, Clock
from ..service.where import working_in

log = logging.getLogger(__name__)
class Scheduler:
    def __init__(self, deadlines: DeadlineStore, clock: Clock, fire: Callable[[Deadline], Awaitable[None]]):
        self.deadlines = deadlines
        self.clock = clock
        self.fire = fire
        self._wake = asyncio.Event()
        self._running = asyncio.Lock()  # the loop and a test's run_due never fire the same deadline twice
        self._task: asyncio.Task[None] | None = None
        self._until = 0.0  # what the loop sleeps until (0: it is not asleep)
        self.late: Callable[[float], None] | None = None  # told how late each deadline fires (the metrics)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="deadline scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    def wake(self, earliest: float | None = None) -> None:
        """Deadlines changed: look again, unless the earliest new one comes after what it sleeps until."""
        if earliest is None or earliest < self._until:
            self._wake.set()

    async def run_due(self) -> int:
        """Fire every deadline due now, earliest first; returns how many were fired."""
        async with self._running:
            due = await self.deadlines.deadlines(due_before=self.clock.now())
            for deadline in due:
                working_in(game=deadline.game_id)  # for the log lines of its firing
                if self.late is not None:
                    self.late(max(0.0, self.clock.now() - deadline.due_at))
                try:
                    await self.fire(deadline)
                except Exception:
                    log.exception("deadline %s of game %s failed; trying again later", deadline.kind, deadline.game_id)
                    await self.deadlines.postpone_deadline(deadline, self.clock.now() + RETRY_SECONDS)
            return len(due)

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.run_due()
                earliest = await self.deadlines.deadlines(limit=1)
            except Exception:  # the database is busy or gone for a moment: never let the clock stop
                log.exception("the deadline scheduler could not read its deadlines")
                earliest = [Deadline(0, "", "", self.clock.now() + RETRY_SECONDS, {})]
            self._until = earliest[0].due_at if earliest else float("inf")
            try:
                await self.clock.wait(self._until, self._wake)
            finally:
                self._until = 0.0
