"""People first: the bot's own background work waits for a moment when the event loop is not behind.

One event loop answers everyone, and it takes its ready work in turn, first come first served. An
interaction has a person waiting and Discord's 3 seconds; a computer's turn, a live panel's redraw, an
older panel told it has moved and a table's edit have neither (they come a moment after a move anyway).
Under load the two kinds queue together, and a click waits behind a burst of computers' turns (issue 44:
at 5,000 live games the background is a third of the bot's work). So each of those, before it starts,
waits until one pass of the loop over what is ready takes less than BEHIND of the loop thread's CPU. While
it is behind, one task looks again every LOOK for all that wait (hundreds may), and lets BATCH of them go,
in order, at each look that finds the loop keeping up. None waits longer than LONGEST: under a load the
bot cannot keep up with, the background still goes on, late, and nothing starves.

The loop is asked nothing private: what a pass takes is what `sleep(0)` takes to come back. What the waits
cost the background is counted in WAITED, which the loop monitor writes (bot/app/monitor.py) and the
operator's metrics are told (bot/app/extension.py).
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Callable

BEHIND = 0.005  # seconds of CPU a pass of the loop may take for the loop to count as keeping up
LOOK = 0.010  # seconds between looks while it is behind
BATCH = 4  # waiting work let go at each look that finds the loop keeping up
# Seconds background work waits at most. At 5,000 live games a quarter second was too short to help (most
# work waited that long, and the clicks' p99 stayed where it was); 2 s let them through (issue 44's notes).
LONGEST = 2.0


class Waits:
    """The background work that had to wait: how many, how long in all and at most, and how many waited until
    LONGEST (the loop never caught up for them)."""

    __slots__ = ("count", "seconds", "longest", "at_limit", "told")

    def __init__(self) -> None:
        self.count, self.seconds, self.longest, self.at_limit = 0, 0.0, 0.0, 0
        self.told: Callable[[float], None] | None = None  # told each wait (the operator's metrics)

    def waited(self, seconds: float) -> None:
        self.count += 1
        self.seconds += seconds
        self.longest = max(self.longest, seconds)
        if self.told is not None:
            self.told(seconds)

    def written(self) -> list[float]:
        """[count, seconds in all, the longest in ms, how many waited until the limit]"""
        return [self.count, round(self.seconds, 3), round(self.longest * 1000, 1), self.at_limit]


WAITED = Waits()  # the process's (its one event loop's)


async def _keeps_up() -> bool:
    # The loop thread's CPU, not the clock's time: a machine busy elsewhere stretches a pass without putting
    # any work in front of a click (and a test run on a busy machine would wait for nothing).
    started = time.thread_time()
    await asyncio.sleep(0)  # back after everything that was ready, and what became ready meanwhile
    return time.thread_time() - started < BEHIND


class _Gate:
    """The work waiting on one event loop, and the task that looks at the loop for it."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.waiting: collections.deque[tuple[float, asyncio.Future[None]]] = collections.deque()  # (until, go)
        self.looking: asyncio.Task[None] | None = None

    async def wait(self, longest: float) -> None:
        go: asyncio.Future[None] = self.loop.create_future()
        self.waiting.append((self.loop.time() + longest, go))
        if self.looking is None or self.looking.done():
            self.looking = self.loop.create_task(self._look(), name="people first")
        await go  # (cancelled: the look skips it)

    async def _look(self) -> None:
        quiet = False
        while self.waiting:
            if not quiet:
                await asyncio.sleep(LOOK)
            quiet, now, let_go = await _keeps_up(), self.loop.time(), 0
            while self.waiting:
                until, go = self.waiting[0]
                late = until <= now  # it has waited as long as it may
                if not late and not (quiet and let_go < BATCH):
                    break
                self.waiting.popleft()
                if go.done():  # (cancelled)
                    continue
                go.set_result(None)
                WAITED.at_limit += late
                let_go += not late


_gate: _Gate | None = None  # the running loop's (the bot has one; each test its own)


async def after_people(longest: float | None = None) -> None:
    """Return once the event loop keeps up with what it is asked and the work that waited before this has
    gone (or after `longest` seconds; None: LONGEST)."""
    global _gate
    loop = asyncio.get_running_loop()
    if _gate is None or _gate.loop is not loop:
        _gate = _Gate(loop)
    if not _gate.waiting and await _keeps_up():
        return
    started = loop.time()
    await _gate.wait(LONGEST if longest is None else longest)
    WAITED.waited(loop.time() - started)
