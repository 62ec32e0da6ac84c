"""The C allocator's one setting that keeps the bot's memory flat (glibc only; elsewhere nothing is done).

glibc serves a request of 128 KiB or more with a mapping of its own, returned to the system when freed, but
the first time such a block is freed it raises that threshold to the block's size (up to 32 MiB): from then
on large blocks (a table picture's pixels and PNG, an HTTP body) come from the heap, and the heap, with
small objects living between them, keeps their holes as free memory it never gives back. Under the bot
benchmark's load that free memory grew by some 20 MB a minute, to about 100 MB. Setting the threshold
pins it at glibc's own default, so large blocks are always returned when freed.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import time

M_MMAP_THRESHOLD = -3  # mallopt's parameter numbers (malloc.h)
THRESHOLD = 128 * 1024  # glibc's default: pinned, no longer raised by the blocks freed
ENVIRONMENT = "MALLOC_MMAP_THRESHOLD_"  # glibc's own variable: an operator's choice there is kept


def pin_large_blocks() -> bool:
    """Pin the threshold above which blocks get mappings of their own; False where glibc is not there
    (or the operator set it in the environment, where glibc read it already)."""
    if ENVIRONMENT in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD))


GIVING_BACK_TASK = "giving memory back"
GIVE_BACK_SECONDS = 60.0  # how often free memory in the heap is handed back (a pass takes a few ms)
given_back_ms: list[float] = []  # how long the latest passes took (the monitor reports them)


def give_back() -> bool:
    """Hand the whole free pages inside the allocator's heaps back to the system (glibc's malloc_trim):
    the small blocks freed between live ones, which the pinned threshold does not cover. Whether any were."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return bool(trim(0))


def give_back_forever() -> None:
    """Every GIVE_BACK_SECONDS, `give_back`: on a thread of a worker process, which has no event loop."""
    while True:
        time.sleep(GIVE_BACK_SECONDS)
        give_back()


async def keep_giving_back(every: float = GIVE_BACK_SECONDS) -> None:
    """Every `every` seconds, `give_back` (on the event loop: it takes milliseconds, and a thread would hold
    the allocator's locks against the loop just the same)."""
    while True:
        await asyncio.sleep(every)
        started = time.perf_counter()
        give_back()
        given_back_ms[:] = [*given_back_ms[-9:], round((time.perf_counter() - started) * 1000, 2)]
