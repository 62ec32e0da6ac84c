"""The one queue of table edits waiting for a drawing's turn (the pictures' budget, bot/discord_app/pictures.py).

At a busy time hundreds of tables wait for their picture's turn. They wait here as
ids, served oldest first by one task, rather than as a task each holding its
coroutine: every full garbage collection walks those, a pause of the whole bot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


class DrawingQueue:
    def __init__(self, slot: Callable[[], Awaitable[None]], running: Callable[[int], bool],
                 start: Callable[[int], None]):
        self.slot = slot  # wait for a drawing's turn
        self.running = running  # whether a game's own task is under way (its turn waits until it ends)
        self.start = start  # start a game's drawing, its turn having come
        self._queued: dict[int, None] = {}  # games waiting, oldest first
        self._changed = asyncio.Event()  # the queue changed, or a waiting game's own task ended
        self._task: asyncio.Task[None] | None = None

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._queued

    def __len__(self) -> int:
        return len(self._queued)

    def add(self, game_id: int) -> None:
        """The game waits for its turn (a game already waiting keeps its place)."""
        self._queued[game_id] = None
        self._changed.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._serve())

    def remove(self, game_id: int) -> None:
        if self._queued.pop(game_id, 0) is None:
            self._changed.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _serve(self) -> None:
        while self._queued:
            await self.slot()
            while True:
                self._changed.clear()
                ready = next((g for g in self._queued if not self.running(g)), None)
                if ready is not None or not self._queued:
                    break
                await self._changed.wait()  # each waiting game has a ping under way: its turn comes after it
            if ready is None:
                return
            del self._queued[ready]
            self.start(ready)
            await asyncio.sleep(0)  # no drawing budget (pictures off): still let the others run
