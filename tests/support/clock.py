"""A clock a test moves forward by hand (bot.app.scheduler.Clock): a "day" passes in no time.

Waiting creates no task (the harness's settle() would wait for it): moving the clock
sets the sleeper's own wake event, which tells the scheduler to look again.
"""

from __future__ import annotations

import asyncio


class ManualClock:
    def __init__(self, start: float = 1_800_000_000.0):
        self.t = start
        self._sleepers: set[asyncio.Event] = set()

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds
        for wake in list(self._sleepers):
            wake.set()

    async def wait(self, until: float, wake: asyncio.Event) -> None:
        self._sleepers.add(wake)
        try:
            if self.t < until:
                await wake.wait()
        finally:
            self._sleepers.discard(wake)
