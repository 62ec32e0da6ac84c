"""Worker processes that end with the bot (the pictures' and the computers' thought).

A `ProcessPoolExecutor`'s worker waits for work on a pipe whose writing end it holds itself, and the
forkserver it comes from lives as long as any of its children. So a bot killed outright (SIGKILL, the
out-of-memory killer, a crash) left its workers and their forkserver running for good: some 100 MB at each
such restart. Each worker here watches the process that started it and exits once that one is gone.

The event loop talks to each worker over a pipe of its own (`WorkerPool`): it writes the work there and
reads the answer when the pipe is readable, as it reads a socket. A `ProcessPoolExecutor` passes both
through two threads of its own (a manager and a queue's feeder), each of which must take the interpreter's
lock from a busy loop, which gives it up every 5 ms at best: with the loop kept busy, a hand picture (3 ms
of drawing) came back in 41 ms at the median that way, in 24 ms this way (tests/bench_workers.py,
issue 44). `OffTheLoop` is what the pictures and the computers use: the workers, or a thread.

Each worker also keeps the C allocator's memory flat as the bot does (allocator.py): Pillow's large blocks,
drawn and freed thousands of times, get mappings of their own, and free pages are handed back. (The steady
growth the pictures' worker showed under load was its text cache filling: picture/glyphs.py bounds it.)
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import select
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any, TypeVar, TypeVarTuple

from .allocator import give_back_forever, pin_large_blocks

POLL_SECONDS = 1.0  # where a process cannot be waited for directly (no pidfd: not Linux), how often to look
log = logging.getLogger(__name__)
READ_BYTES = 1 << 16  # a worker's answer is read in pieces of at most this (what a pipe holds)
SIZE = struct.Struct("!Q")  # before each answer: its length
R = TypeVar("R")
Ts = TypeVarTuple("Ts")


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


class _Worker:
    __slots__ = ("process", "work", "answers", "got", "job")

    def __init__(self, process: BaseProcess, work: Connection, answers: Connection):
        self.process = process
        self.work = work  # calls go to the worker here (a pipe: the worker reads them one at a time)
        self.answers = answers  # and come back here, read without blocking as they arrive
        self.got = bytearray()  # what has come of the answer so far
        self.job: asyncio.Future[Any] | None = None  # the answer it is working on (None: idle)


class WorkerPool:
    """`workers` processes (started at the first work, from a forkserver, each ending with this process)
    that run one function call at a time each, answered on the event loop that first asked, with no
    thread in between. A worker that dies breaks the pool, as a `ProcessPoolExecutor`'s does: the work
    under way and every later call raise `BrokenProcessPool` (the callers then work on a thread)."""

    def __init__(self, workers: int):
        self._size = workers
        self._loop: asyncio.AbstractEventLoop | None = None
        self._workers: list[_Worker] = []
        self._waiting: deque[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]] = deque()
        self._broken: str | None = None
        self._closed = False

    async def run(self, work: Callable[[*Ts], R], *args: *Ts) -> R:
        """`work(*args)` in a worker (both picklable), its result or its exception."""
        if self._broken is not None:
            raise BrokenProcessPool(self._broken)
        if self._closed:
            raise RuntimeError("the worker processes are shut down")
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._start(loop)
        elif self._loop is not loop:
            raise RuntimeError("a worker pool answers on the event loop that started it")
        answer: asyncio.Future[R] = loop.create_future()
        self._waiting.append((work, args, answer))
        self._hand_out()
        return await answer

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        context = get_context("forkserver")
        self._loop = loop
        try:
            for _ in range(self._size):
                work_in, work = context.Pipe(duplex=False)
                answers, answers_out = context.Pipe(duplex=False)
                process = context.Process(target=_serve, args=(work_in, answers_out, os.getpid()), name="worker",
                                          daemon=True)
                worker = _Worker(process, work, answers)
                self._workers.append(worker)
                try:
                    process.start()
                finally:  # the worker's ends are the worker's alone: its death reads as the end of `answers`
                    work_in.close()
                    answers_out.close()
                os.set_blocking(answers.fileno(), False)
                loop.add_reader(answers.fileno(), self._readable, worker)
        except BaseException:
            self._broken = "the worker processes could not be started"
            self._stop()
            raise

    def _hand_out(self) -> None:
        for worker in list(self._workers):
            while worker.job is None and self._waiting and self._broken is None:
                work, args, answer = self._waiting.popleft()
                if answer.done():  # its caller stopped waiting
                    continue
                try:
                    worker.work.send((work, args))  # (the pipe is empty: the worker is waiting for it)
                except OSError as exc:
                    answer.set_exception(BrokenProcessPool(f"a worker could not be reached: {exc}"))
                    self._lost(str(exc))
                except Exception as exc:  # unpicklable work: that call fails, the worker is still free
                    answer.set_exception(exc)
                else:
                    worker.job = answer

    def _readable(self, worker: _Worker) -> None:
        """Read what has come (never waiting for the rest: a worker may write a large answer in parts)."""
        try:
            chunk = os.read(worker.answers.fileno(), READ_BYTES)
        except BlockingIOError:
            return
        except OSError as exc:
            self._lost(f"a worker's answers could not be read ({exc})")
            return
        if not chunk:
            self._lost(f"a worker process ended (pid {worker.process.pid})")
            return
        worker.got += chunk
        while len(worker.got) >= SIZE.size:
            (size,) = SIZE.unpack_from(worker.got)
            if len(worker.got) < SIZE.size + size:
                return
            frame = bytes(worker.got[SIZE.size:SIZE.size + size])
            del worker.got[:SIZE.size + size]
            self._answered(worker, frame)

    def _answered(self, worker: _Worker, frame: bytes) -> None:
        try:
            ok, value = pickle.loads(frame)
        except Exception as exc:  # an answer that cannot be unpickled here: that call fails
            ok, value = False, exc
        answer, worker.job = worker.job, None
        if answer is not None and not answer.done():
            if ok:
                answer.set_result(value)
            else:
                answer.set_exception(value)
        self._hand_out()

    def _lost(self, why: str) -> None:
        self._broken = why  # every worker is stopped, and the work under way in each fails
        answers = [w.job for w in self._workers] + [answer for _, _, answer in self._waiting]
        self._waiting.clear()
        for answer in answers:
            if answer is not None and not answer.done():
                answer.set_exception(BrokenProcessPool(why))
        self._stop()

    def shutdown(self) -> None:
        """Stop the workers: work under way or waiting is cancelled (each worker ends as its pipe closes)."""
        self._closed = True
        for answer in [w.job for w in self._workers] + [answer for _, _, answer in self._waiting]:
            if answer is not None:
                answer.cancel()
        self._waiting.clear()
        self._stop()

    def _stop(self) -> None:
        for worker in self._workers:
            if self._loop is not None and not self._loop.is_closed() and not worker.answers.closed:
                self._loop.remove_reader(worker.answers.fileno())
            worker.job = None
            worker.work.close()
            worker.answers.close()
        self._workers.clear()

    def pids(self) -> list[int | None]:
        return [w.process.pid for w in self._workers]


class OffTheLoop:
    """Calls run off the event loop: in `processes` worker processes (started at the first call), or, with
    none (the tests' bots) or once a worker has died, on a thread of `what`'s own (one warning line)."""

    def __init__(self, processes: int, what: str):
        self.processes = processes
        self.what = what  # what the calls do ("drawing", "thinking"), for the thread's name and the log
        self.pool: WorkerPool | None = None
        self._thread: ThreadPoolExecutor | None = None

    async def run(self, work: Callable[[*Ts], R], *args: *Ts) -> R:
        if self.processes > 0:
            try:
                if self.pool is None:
                    self.pool = WorkerPool(self.processes)
                return await self.pool.run(work, *args)
            except (BrokenProcessPool, OSError) as exc:
                log.warning("%s in a worker process failed (%s): %s on a thread from now on", self.what, exc,
                            self.what)
                self.processes = 0
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix=self.what)
        return await asyncio.get_running_loop().run_in_executor(self._thread, work, *args)

    def shutdown(self) -> None:
        """Stop the workers and the thread: a call under way is dropped."""
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
        if self.pool is not None:
            self.pool.shutdown()
        self._thread, self.pool = None, None


def _serve(work_in: Connection, answers: Connection, parent: int) -> None:
    """A worker: each call read from `work_in` is run and answered on `answers`, (True, result) or (False,
    exception), in one piece, until the pool closes its pipe."""
    start_worker(parent)
    while True:
        try:
            work, args = work_in.recv()
        except (EOFError, OSError):
            return  # the pool shut down
        try:
            answer: tuple[bool, object] = (True, work(*args))
        except Exception as exc:
            answer = (False, exc)
        try:
            data = bytes(ForkingPickler.dumps(answer))
        except Exception as exc:  # a result or exception that cannot be pickled
            data = bytes(ForkingPickler.dumps((False, RuntimeError(f"its answer could not be sent back: {exc!r}"))))
        framed = memoryview(SIZE.pack(len(data)) + data)
        try:
            while framed:
                framed = framed[os.write(answers.fileno(), framed):]
        except OSError:
            return
