"""The newest moves of each open game, kept as this process writes them (issue 44).

A panel shows what happened since its player's last move, a live panel is redrawn with it after every move,
and the table shows the latest lines of the log: each was a read of the game's newest rows, under load a wait
for the database (on PostgreSQL a hop to its connections' thread and back). The writer holds those rows as it
writes them, so it keeps the last MOVES_KEPT moves of each game here, as the log's query returns them, and
a read at the version it was kept for is answered from memory. Anything else (an older move, another
version: another process wrote, or a write of this one failed) is read from the database as before.

Kept as plain tuples of text and numbers, which the garbage collector stops walking once it has seen them:
one tuple per game holding its rows' tuples, no deeper (a collection lets go of a tuple only once those in it
are let go of: nested deeper, a game's tuple reached the old generation still walked by every full
collection). The previous move's hash goes along, so the next move's row is chained without reading it back
(chain.py).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import cast

# A row as the log's query gives it (history.py): (part, move, player, actor, body, at); part 0 an action
# (its events as JSON), part 1 a table event (the entry as JSON) that followed that move.
Row = tuple[int, int, str | None, str | None, str, float]
# What is kept of a game: the version it is kept for; every action from move `a` on and every table event
# from move `t` on (t <= a); those actions in order of their moves, those table events in order of writing;
# the newest action's move and hash (None: none kept).
_Tail = tuple[int, int, int, tuple[Row, ...], tuple[Row, ...], tuple[int, bytes] | None]
# ... as it is kept: (version, a, t, the head's move, its hash, how many actions, *actions, *events)
_Packed = tuple[object, ...]
_ROWS = 6  # where the rows begin in a packed tail

MOVES_KEPT = 24  # the table's lines need the last 16 (presenter.py); a panel's player moved a few moves ago
GAMES_KEPT = 20_000  # open games of one process: beyond these, the games written longest ago are let go
SAMPLED = 200  # games whose rows are weighed to tell the bytes of all (held): exact would pause the loop


class RecentMoves:
    def __init__(self, moves: int = MOVES_KEPT, games: int = GAMES_KEPT):
        self._moves, self._games = moves, games
        self._tails: dict[int, _Packed] = {}  # by game, in order of their last write

    def started(self, game_id: int, version: int, deal: Sequence[str], at: float) -> None:
        """The game started at `version` with the deal's table events (their JSON): all of its log so far."""
        self._keep(game_id, (version, 1, 0, (), tuple((1, 0, None, None, body, at) for body in deal), None))

    def moved(self, game_id: int, version: int, move: int, player: str, actor: str, events: str,
              entries: Sequence[str], at: float, hashed: bytes) -> None:
        """Move `move` was written, taking the game from `version - 1` to `version`."""
        row: Row = (0, move, player, actor, events, at)
        table = tuple((1, move, None, None, body, at) for body in entries)
        kept = self._following(game_id, version)
        if kept is None:  # the first move this process wrote since: what came before it is not here
            self._keep(game_id, (version, move, move, (row,), table, (move, hashed)))
            return
        _, a, t, actions, events_, _ = kept
        self._keep(game_id, (version, a, t, (*actions, row), (*events_, *table), (move, hashed)))

    def table_changed(self, game_id: int, version: int, move: int, entries: Sequence[str], at: float) -> None:
        """Table events after move `move` were written (seats changed), taking the game to `version`."""
        kept = self._following(game_id, version)
        if kept is None:  # earlier table events after `move` may be missing: keep only what comes next
            self._keep(game_id, (version, move + 1, move + 1, (), (), None))
            return
        _, a, t, actions, events_, head = kept
        added = tuple((1, move, None, None, body, at) for body in entries)
        self._keep(game_id, (version, a, t, actions, (*events_, *added), head))

    def drop(self, game_id: int) -> None:
        """The game ended (or nothing of it can be trusted here any more)."""
        self._tails.pop(game_id, None)

    def _tail(self, game_id: int, version: int) -> _Tail | None:
        """What is kept of the game, if it is kept for `version`."""
        packed = self._tails.get(game_id)
        return None if packed is None or packed[0] != version else _unpacked(packed)

    def previous_hash(self, game_id: int, version: int, move: int) -> bytes | None:
        """The hash of move `move` if it is the newest kept for the game at `version`; None: read it."""
        kept = self._tails.get(game_id)
        if kept is None or kept[0] != version or kept[3] != move:
            return None
        return cast(bytes, kept[4])

    def since(self, game_id: int, version: int, after: int) -> list[Row] | None:
        """The rows of the actions after move `after` and of the table events from `after` on, if all of them
        are kept for the game at `version`; else None."""
        kept = self._tail(game_id, version)
        return None if kept is None else _since(kept, after)

    def since_decision(self, game_id: int, version: int, player: str) -> list[Row] | None:
        """`since` the move at which `player` last decided for themselves (0: not yet), if that is known here."""
        kept = self._tail(game_id, version)
        if kept is None:
            return None
        _, a, t, actions, _, _ = kept
        last = next((r[1] for r in reversed(actions) if r[2] == player and r[3] == "player"), None)
        if last is None:
            if (a, t) != (1, 0):  # they may have decided before what is kept
                return None
            last = 0
        return _since(kept, last)  # (unpacked once)

    def held(self) -> tuple[int, int, int]:
        """(games, rows, about how many bytes) kept, for the operator (the monitor, the metrics): the rows
        counted, their bytes weighed in a sample of the games (a sum over 100,000 rows would hold the loop for
        tens of milliseconds)."""
        tails = list(self._tails.values())
        rows = sum(len(t) - _ROWS for t in tails)
        sample = [_unpacked(t) for t in tails[::max(1, len(tails) // SAMPLED)]]
        weighed = sum(len(t[3]) + len(t[4]) for t in sample)
        weight = sum(_bytes(t) for t in sample)
        per_row = weight / weighed if weighed else 0.0
        return len(self._tails), rows, round(rows * per_row + len(self._tails) * _EMPTY)

    def _following(self, game_id: int, version: int) -> _Tail | None:
        """What is kept of the game if it was kept for the version just before `version` (the write now)."""
        kept = self._tails.pop(game_id, None)
        return _unpacked(kept) if kept is not None and kept[0] == version - 1 else None

    def _keep(self, game_id: int, tail: _Tail) -> None:
        version, a, t, actions, events, head = tail
        if len(actions) > self._moves:
            actions = actions[-self._moves:]
            a = actions[0][1]
            t = max(t, a)
            events = tuple(r for r in events if r[1] >= t)
        self._tails.pop(game_id, None)  # (and put back last: the game kept longest ago is the first forgotten)
        move, hashed = head if head is not None else (None, None)
        self._tails[game_id] = (version, a, t, move, hashed, len(actions), *actions, *events)
        if len(self._tails) > self._games:
            del self._tails[next(iter(self._tails))]


def _since(kept: _Tail, after: int) -> list[Row] | None:
    _, a, t, actions, events, _ = kept
    if a > max(after + 1, 1) or t > max(after, 0):  # an action after `after` or an event from it is not here
        return None
    return [r for r in actions if r[1] > after] + [r for r in events if r[1] >= after]


def _unpacked(packed: _Packed) -> _Tail:
    version, a, t, move, hashed, count = cast(tuple[int, int, int, int | None, bytes | None, int], packed[:_ROWS])
    rows = cast(tuple[Row, ...], packed[_ROWS:])
    head = (move, hashed) if move is not None and hashed is not None else None
    return version, a, t, rows[:count], rows[count:], head


_EMPTY = sys.getsizeof((0,) * _ROWS) + 100  # a game's tuple (without its rows) and its entry in the dict


def _bytes(tail: _Tail) -> int:
    """What a game's rows take: each row's tuple, its text and its time (the names are shared)."""
    return sum(sys.getsizeof(r) + sys.getsizeof(r[4]) + sys.getsizeof(r[5]) for r in (*tail[3], *tail[4]))
