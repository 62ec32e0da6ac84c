"""Where computer players think: a light level at once, a heavy one (strong) off the event loop.

A strong decision may take `think_seconds` of CPU. On the event loop it would stall every table; on a
thread it would still hold the GIL against them; so it runs in worker processes (`workers`, started at
the first heavy decision; forkserver: a clean child, not a fork of a process with threads), or with
`workers=0` on a thread of its own (tests, the terminal). Everything sent across is picklable: the level,
seed and time, the player's view and the events they may know; the player is built in the worker.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from engine import Event, View
from engine.actions import ActionModel
from engine.ai import memory
from engine.ai.levels import THINK_SECONDS, Computer, computer
from engine.undo import without_taken_back
from storage.contract import GameLog

from .workers import WorkerPool

log = logging.getLogger(__name__)
KEPT_HISTORIES = 64  # games whose known events are kept between heavy decisions
# Light decisions between forgetting the computer players' remembered answers: in a bot serving many games
# they are rarely asked again, and would grow the process for minutes (engine/ai/memory.py).
FORGET_AFTER = 500


def decide(level: str, seed: int, think_seconds: float, view: View, history: Sequence[Event]) -> ActionModel:
    """One decision of a computer player of `level` (run in a worker: built there, from picklable data)."""
    return computer(level, seed, think_seconds).decide(view, history)


class Thinkers:
    """The executor heavy decisions run in, and the events each game's heavy players have been told."""

    def __init__(self, workers: int = 0, think_seconds: float = THINK_SECONDS):
        self.workers = workers
        self.think_seconds = think_seconds
        self._thread: ThreadPoolExecutor | None = None
        self._pool: WorkerPool | None = None
        self._closed = False
        # game id -> (the last move read, (move, its engine events) up to it, oldest first)
        self._histories: OrderedDict[int, tuple[int, list[tuple[int, list[Event]]]]] = OrderedDict()
        self._light = 0  # light decisions since the remembered answers were last forgotten

    def at_once(self, player: Computer, view: View) -> ActionModel:
        """A light player's decision, made here and now."""
        self._light += 1
        if self._light >= FORGET_AFTER:
            self._light = 0
            memory.forget()
        return player.decide(view)

    def _on_thread(self) -> ThreadPoolExecutor:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="computer")
        return self._thread

    async def decide(self, level: str, seed: int, view: View, history: Sequence[Event]) -> ActionModel:
        """A heavy decision, computed off the event loop."""
        if self._closed:
            raise RuntimeError("the computer players' workers are shut down")
        args = (level, seed, self.think_seconds, view, list(history))
        if self.workers > 0:
            try:
                if self._pool is None:
                    self._pool = WorkerPool(self.workers)
                return await self._pool.run(decide, *args)
            except (BrokenProcessPool, OSError) as exc:
                log.warning("a computer's worker process failed (%s): thinking on a thread from now on", exc)
                self.workers = 0
        return await asyncio.get_running_loop().run_in_executor(self._on_thread(), decide, *args)

    async def history(self, log: GameLog, game_id: int) -> list[Event]:
        """The game's engine events so far (no table events), read incrementally and kept for a few games."""
        last, moves = self._histories.pop(game_id, (-1, []))
        logged = await log.moves_since(game_id, last)
        # A read after move `last` repeats the table log written after it: only later moves are new.
        new = [(m.move, [e for e in m.entries if e.type != "table"]) for m in logged if m.move > last]
        if logged:
            last = max(last, logged[-1].move)
        moves = moves + new
        self._histories[game_id] = (last, moves)
        while len(self._histories) > KEPT_HISTORIES:
            self._histories.popitem(last=False)
        return without_taken_back(moves)  # moves taken back: as if never made (engine/undo.py)

    def forget(self, game_id: int) -> None:
        self._histories.pop(game_id, None)

    def close(self) -> None:
        """Stop the workers (a decision under way is dropped: the runner tries again after a restart)."""
        self._closed = True
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
        if self._pool is not None:
            self._pool.shutdown()
        self._thread, self._pool = None, None
        self._histories.clear()

