"""Where computer players think: a light level at once, a heavy one (strong) off the event loop.

A strong decision may take `think_seconds` of CPU. On the event loop it would stall every table; on a
thread it would still hold the GIL against them; so it runs in worker processes (`workers`, started at
the first heavy decision; forkserver: a clean child, not a fork of a process with threads), or with
`workers=0` on a thread of its own (tests, the terminal). Everything sent across is picklable: the level,
seed and time, the player's view and the events they may know; the player is built in the worker.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from engine import Event, View
from engine.actions import ActionModel
from engine.ai import memory
from engine.ai.levels import THINK_SECONDS, Computer, computer
from engine.undo import without_taken_back
from storage.contract import GameLog

from .workers import OffTheLoop

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
        self.think_seconds = think_seconds
        self._thinking = OffTheLoop(workers, "thinking")
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

    @property
    def workers(self) -> int:
        """Worker processes heavy decisions run in (0: a thread, and so once a worker has died)."""
        return self._thinking.processes

    async def decide(self, level: str, seed: int, view: View, history: Sequence[Event]) -> ActionModel:
        """A heavy decision, computed off the event loop."""
        if self._closed:
            raise RuntimeError("the computer players' workers are shut down")
        return await self._thinking.run(decide, level, seed, self.think_seconds, view, list(history))

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
        self._thinking.shutdown()
        self._histories.clear()

