"""Worker processes end with the bot (bot/service/workers.py): a bot killed outright (SIGKILL, a crash) leaves
neither its workers (the pictures', the computers') nor their forkserver running, as a plain process pool's
did: some 100 MB for good at every such restart."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT

from bot.service.workers import worker_pool

BOT = """
import os, time
from bot.service.workers import worker_pool
pool = worker_pool(1)
print(pool.submit(os.getpid).result(), flush=True)  # a worker started, as the first picture starts one
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
    from bot.app.monitor import malloc_mb

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
    pool = worker_pool(1)
    try:
        assert pool.submit(second_block_mapped_mb).result(timeout=60) >= 2.0
    finally:
        pool.shutdown()
