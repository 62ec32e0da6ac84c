"""PostgreSQL's connections live on an event loop of their own in a thread (storage/postgres/thread.py): a
call's result and its errors come back to the caller's loop, and a caller that gives up stops the call."""

from __future__ import annotations

import asyncio
import threading

import pytest

from storage.postgres.thread import LoopThread


@pytest.fixture
def thread():
    loop_thread = LoopThread("test")
    yield loop_thread
    loop_thread.stop()


async def test_a_call_runs_on_the_threads_loop_and_its_result_and_errors_come_back(thread):
    async def where() -> str:
        await asyncio.sleep(0)
        return threading.current_thread().name

    assert await thread.run(where()) == "test"

    async def fails() -> None:
        raise KeyError("lost")

    with pytest.raises(KeyError, match="lost"):
        await thread.run(fails())


async def test_a_caller_that_gives_up_stops_the_call_there(thread):
    stopped = threading.Event()

    async def long() -> None:
        try:
            await asyncio.sleep(30)
        finally:  # (a transaction is rolled back here)
            stopped.set()

    with pytest.raises(TimeoutError):
        await asyncio.wait_for(thread.run(long()), 0.1)
    assert await asyncio.to_thread(stopped.wait, 5)


async def test_once_stopped_a_call_is_refused_and_never_left_unawaited(thread):
    thread.stop()
    thread.stop()  # twice: nothing more happens

    async def anything() -> int:
        return 1

    with pytest.raises(RuntimeError, match="closed"):
        await thread.run(anything())
