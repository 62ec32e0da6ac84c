"""At most one pending background task per channel, all stopped together when the cog unloads."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any


class ChannelTasks:
    def __init__(self) -> None:
        self._current: dict[int, asyncio.Task[None]] = {}  # the task that covers new work for a channel
        self._all: set[asyncio.Task[None]] = set()  # every task still running, for close()

    def start(self, channel_id: int, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run `work()` for this channel unless its current task is still running (which then covers it)."""
        task = self._current.get(channel_id)
        if task is not None and not task.done():
            return
        task = asyncio.get_running_loop().create_task(work())
        self._current[channel_id] = task
        self._all.add(task)
        task.add_done_callback(lambda done: self._forget(channel_id, done))

    def _forget(self, channel_id: int, task: asyncio.Task[None]) -> None:
        """A finished task holds its whole coroutine: keep none (a thousand channels would keep thousands)."""
        self._all.discard(task)
        if self._current.get(channel_id) is task:
            del self._current[channel_id]

    def release(self, channel_id: int) -> None:
        """Called by a task that has read what it works on: later work needs a task of its own."""
        if self._current.get(channel_id) is asyncio.current_task():
            del self._current[channel_id]

    def get(self, channel_id: int) -> asyncio.Task[None] | None:
        return self._current.get(channel_id)

    async def close(self) -> None:
        """Cancel what is pending and wait until it has stopped."""
        tasks = list(self._all)
        self._current.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
