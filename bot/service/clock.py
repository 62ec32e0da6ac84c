"""Time, injected: the service, the scheduler and the computers read the clock through `Clock`, so tests move
time forward instead of sleeping."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

RETRY_SECONDS = 60.0  # a deadline whose firing failed (Discord down) is tried again this much later


class Clock(Protocol):
    def now(self) -> float: ...

    async def wait(self, until: float, wake: asyncio.Event) -> None:
        """Return at `until`, or as soon as `wake` is set."""


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def wait(self, until: float, wake: asyncio.Event) -> None:
        try:
            async with asyncio.timeout(max(0.0, until - self.now())):  # no extra task, unlike wait_for
                await wake.wait()
        except TimeoutError:
            pass
