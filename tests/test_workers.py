"""Worker processes end with the bot (bot/service/workers.py): a bot killed outright (SIGKILL, a crash) leaves
neither its workers (the pictures', the computers') nor their forkserver running, as a plain process pool's
did: some 100 MB for good at every such restart. The event loop talks to them over a pipe each: answers,
exceptions, a worker that dies and a pool shut down with work under way."""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from conftest import ROOT

from bot.service.workers import WorkerPool

BOT = """
import asyncio, os, time
from bot.service.workers import WorkerPool
pool = WorkerPool(1)
print(asyncio.run(pool.run(os.getpid)), flush=True)  # a worker started, as the first picture starts one
time.sleep(600)
"""

# Where no process can be waited for directly (no pidfd: macOS), the worker looks every POLL_SECONDS.
POLLING = """
import os, subprocess, sys, time
from bot.service import workers
del os.pidfd_open
workers.POLL_SECONDS = 0.1
parent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
workers.start_worker(parent.pid)
time.sleep(0.5)
parent.kill(), parent.wait()
time.sleep(30)  # the watcher ends this process long before
sys.exit(3)
"""


def running(pid: int) -> bool:
    """Alive and not a zombie waiting for its parent."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def gone_within(seconds: float, *pids: int) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(running(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


def test_a_bot_killed_outright_leaves_no_worker_and_no_forkserver():
    bot = subprocess.Popen([sys.executable, "-c", BOT], stdout=subprocess.PIPE, text=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        forkserver = parent_of(worker)
        assert running(worker) and running(forkserver) and forkserver != bot.pid
        time.sleep(1)
        assert running(worker), "a worker of a living bot keeps serving it"
    finally:
        bot.kill()
        bot.wait()
    assert gone_within(20, worker, forkserver), "the worker or its forkserver outlived the bot"


def test_without_a_pidfd_the_worker_looks_for_the_bot_and_ends_with_it():
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-c", POLLING], env={**os.environ, "PYTHONPATH": str(ROOT)},
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert time.monotonic() - started < 20


def second_block_mapped_mb() -> float:
    """In a worker: a picture's pixels drawn and freed, then the next one's. Is the second block a mapping of
    its own (given back when freed), or a piece of the heap that stays as a hole?"""
    from bot.app.process_memory import malloc_mb

    first = bytearray(1 << 21)
    del first
    before = malloc_mb()
    second = bytearray(1 << 21)
    after = malloc_mb()
    assert before is not None and after is not None and len(second) == 1 << 21
    return round(after["mapped"] - before["mapped"], 1)


def test_a_worker_keeps_its_memory_flat_as_the_bot_does():
    """Pillow's large blocks in the pictures' worker get mappings of their own, returned when freed, as in
    the bot (tests/test_allocator.py), rather than holes left in the heap."""
    pool = WorkerPool(1)
    try:
        assert asyncio.run(asyncio.wait_for(pool.run(second_block_mapped_mb), 60)) >= 2.0
    finally:
        pool.shutdown()


def slow_square(x: int, seconds: float = 0.0) -> tuple[int, int]:
    time.sleep(seconds)
    return os.getpid(), x * x


def pattern(size: int) -> bytes:
    return bytes(i % 251 for i in range(size))


def refuse(x: int) -> int:
    raise ValueError(f"no {x}")


def unpicklable_answer() -> object:
    return lambda: None


async def test_the_pool_answers_each_call_in_its_workers_and_passes_their_exceptions_on():
    pool = WorkerPool(2)
    try:
        answers = await asyncio.wait_for(asyncio.gather(*(pool.run(slow_square, x, 0.05) for x in range(8))), 60)
        assert [square for _, square in answers] == [x * x for x in range(8)]  # each its own answer, in order
        assert len({pid for pid, _ in answers}) == 2 and os.getpid() not in {pid for pid, _ in answers}
        with pytest.raises(ValueError, match="no 3"):
            await pool.run(refuse, 3)
        with pytest.raises(RuntimeError, match="could not be sent back"):
            await pool.run(unpicklable_answer)
        with pytest.raises((pickle.PicklingError, AttributeError)):  # work that cannot be pickled fails alone
            await pool.run(lambda: 1)
        assert (await pool.run(slow_square, 5))[1] == 25, "the pool still serves after each of those"
        # An answer far larger than a pipe holds arrives in pieces, read as they come, whole and in order:
        big = await asyncio.wait_for(asyncio.gather(pool.run(pattern, 3_000_001), pool.run(pattern, 70_000)), 60)
        assert big == [pattern(3_000_001), pattern(70_000)]
    finally:
        pool.shutdown()


async def test_a_worker_that_dies_breaks_the_pool_and_its_waiting_work_fails_rather_than_hangs():
    pool = WorkerPool(1)
    try:
        pid, _ = await asyncio.wait_for(pool.run(slow_square, 1), 60)
        under_way = asyncio.ensure_future(pool.run(slow_square, 2, 30.0))
        waiting = asyncio.ensure_future(pool.run(slow_square, 3))
        await asyncio.sleep(0.2)
        os.kill(pid, signal.SIGKILL)
        for work in (under_way, waiting):
            with pytest.raises(BrokenProcessPool):
                await asyncio.wait_for(work, 20)
        with pytest.raises(BrokenProcessPool):
            await pool.run(slow_square, 4)  # the callers then work on a thread (pictures.py, thinking.py)
    finally:
        pool.shutdown()


async def test_a_pool_shut_down_cancels_its_work_and_its_workers_end():
    pool = WorkerPool(1)
    pid, _ = await asyncio.wait_for(pool.run(slow_square, 1), 60)
    under_way = asyncio.ensure_future(pool.run(slow_square, 2, 30.0))
    await asyncio.sleep(0.1)
    pool.shutdown()
    with pytest.raises(asyncio.CancelledError):
        await under_way
    with pytest.raises(RuntimeError, match="shut down"):
        await pool.run(slow_square, 3)
    # The worker finishes the call it is in (its 30 s would outlast this test's wait), so one that is idle:
    idle = WorkerPool(1)
    idle_pid, _ = await asyncio.wait_for(idle.run(slow_square, 1), 60)
    idle.shutdown()
    assert await asyncio.to_thread(gone_within, 20, idle_pid), "a worker outlived its pool's shutdown"
    os.kill(pid, signal.SIGKILL)
