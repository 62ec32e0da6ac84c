"""An event loop of its own, in a thread, for PostgreSQL's connections.

A transaction is a round trip per statement while it holds its connection. On the bot's event loop each of
those trips waited for a turn of a loop that serves every interaction, table edit and computer besides:
under load some 70 ms a trip, 0.7 s a move's transaction, so the pool's connections stayed held and the
moves queued for them for seconds (and the reads, for theirs). Here the trips wait only for this loop,
which does nothing else, and for the GIL. The caller awaits the result on its own loop; cancelling the
caller cancels the call here (a transaction is rolled back, as on any error).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from ..loops import new_loop

T = TypeVar("T")


class LoopThread:
    def __init__(self, name: str = "postgresql"):
        self.loop = new_loop()  # uvloop's where installed: fewer of this thread's turns spent in Python
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.close()

    async def run(self, work: Coroutine[Any, Any, T]) -> T:
        """`work` run to its end on this thread's loop, awaited from the caller's (RuntimeError once stopped)."""
        if not self._thread.is_alive():
            work.close()
            raise RuntimeError("the database's connections are closed")
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(work, self.loop))

    def stop(self) -> None:
        """End the loop (after what runs on it now) and wait for the thread; safe to call twice."""
        if self._thread.is_alive():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join()
