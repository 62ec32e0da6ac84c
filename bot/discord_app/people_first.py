"""People first: the bot's own background work waits for a moment when the event loop is not behind.

One event loop answers everyone, and it takes its ready work in turn, first come first served. An
interaction has a person waiting and Discord's 3 seconds; a computer's turn, a live panel's redraw and a
table's edit have neither (they come a moment after a move anyway). Under load the two kinds queue
together, and a click waits behind a burst of computers' turns (issue 44: at 5,000 live games the
background is a third of the bot's work). So each of those, before it starts, waits until one pass of
the loop over what is ready takes less than BEHIND, looking again every LOOK. It waits LONGEST at most:
under a load the bot cannot keep up with, the background still goes on, late, and nothing starves.

The loop is asked nothing private: how long a pass takes is how long `sleep(0)` takes to come back.
"""

from __future__ import annotations

import asyncio
import time

BEHIND = 0.005  # seconds a pass of the loop may take for the loop to count as keeping up
LOOK = 0.010  # seconds between looks while it is behind
LONGEST = 2.0  # seconds background work waits at most


async def after_people(longest: float | None = None) -> None:
    """Return once the event loop keeps up with what it is asked (or after `longest`, default LONGEST)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + (LONGEST if longest is None else longest)
    while True:
        started = time.perf_counter()
        await asyncio.sleep(0)  # back after everything that was ready, and what became ready meanwhile
        if time.perf_counter() - started < BEHIND or loop.time() >= until:
            return
        await asyncio.sleep(LOOK)
