"""Worker processes that end with the bot (the pictures' and the computers' thought).

A `ProcessPoolExecutor`'s worker waits for work on a pipe whose writing end it holds itself, and the
forkserver it comes from lives as long as any of its children. So a bot killed outright (SIGKILL, the
out-of-memory killer, a crash) left its workers and their forkserver running for good: some 100 MB at each
such restart. Each worker here watches the process that started it and exits once that one is gone.

Each worker also keeps the C allocator's memory flat as the bot does (allocator.py): Pillow's large blocks,
drawn and freed thousands of times, get mappings of their own, and free pages are handed back. (The steady
growth the pictures' worker showed under load was its text cache filling: picture/glyphs.py bounds it.)
"""

from __future__ import annotations

import os
import select
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from .allocator import give_back_forever, pin_large_blocks

POLL_SECONDS = 1.0  # where a process cannot be waited for directly (no pidfd: not Linux), how often to look


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """`workers` processes from a forkserver (a clean child, not a fork of a process with threads), each
    of which exits when this process ends, however it ends."""
    return ProcessPoolExecutor(workers, mp_context=get_context("forkserver"), initializer=start_worker,
                               initargs=(os.getpid(),))


def start_worker(parent: int) -> None:
    """In each worker, before any work: pin the allocator's large-block threshold, hand free pages back every
    GIVE_BACK_SECONDS, and watch `parent`, each on a thread of its own."""
    pin_large_blocks()
    threading.Thread(target=give_back_forever, name="giving memory back", daemon=True).start()
    threading.Thread(target=_exit_with, args=(parent,), name="watching the bot", daemon=True).start()


def _exit_with(parent: int) -> None:
    try:
        handle = os.pidfd_open(parent)  # refers to that very process: a reused pid cannot fool it
    except (AttributeError, OSError):  # not Linux, or already gone (then the loop below ends at once)
        while _alive(parent):
            time.sleep(POLL_SECONDS)
    else:
        select.select([handle], [], [])  # readable once the process has ended
    os._exit(0)  # nothing of the bot's to tidy here: its work died with it


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # gone (or another user's process: its pid was reused)
        return False
    return True
