"""A diagnosis for the loop monitor (MONITOR_GARBAGE): what the garbage collections find unreachable,
that is, objects in reference cycles, which only a collection frees (issue 44 found every interaction
there). By kind, with one cycle of each kind. Costly: the collector keeps all it finds (DEBUG_SAVEALL), so
it is for short runs only."""

from __future__ import annotations

import gc
from collections import Counter
from typing import Any


class GarbageCensus:
    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()
        self._tallied = 0
        gc.set_debug(gc.DEBUG_SAVEALL)

    def tally(self) -> tuple[list[tuple[str, int]], list[str]]:
        """The kinds found so far, most first, and a cycle of each kind."""
        self.kinds.update(_kind(o) for o in gc.garbage[self._tallied:])
        self._tallied = len(gc.garbage)
        return self.kinds.most_common(40), _cycles(gc.garbage)

    def stop(self) -> None:
        """The collector frees what it finds again, as before."""
        gc.set_debug(0)
        gc.garbage.clear()


def _kind(o: object) -> str:
    kind = f"{type(o).__module__}.{type(o).__qualname__}"
    code = getattr(o, "cr_code", None) or getattr(o, "f_code", None) or getattr(o, "__code__", None)
    return f"{kind} {code.co_qualname}" if code is not None else kind


def _cycles(garbage: list[Any]) -> list[str]:
    """For each kind of object (not builtins) in `garbage`, the path of one cycle it is in (found breadth
    first over the referents that are garbage too), or that it is in none (it hangs from another's cycle)."""
    ids = {id(o) for o in garbage}
    found: dict[str, str] = {}
    for start in garbage[-20000:]:
        kind = _kind(start)
        if kind in found or kind.startswith("builtins."):
            continue
        came: dict[int, Any] = {id(start): None}  # id -> the object it was reached from
        frontier, back = [start], None
        while frontier and back is None and len(came) < 5000:
            step = []
            for o in frontier:
                for r in gc.get_referents(o):
                    if r is start:
                        back = o
                        break
                    if id(r) in ids and id(r) not in came:
                        came[id(r)] = o
                        step.append(r)
                if back is not None:
                    break
            frontier = step
        path, at = [kind], back
        while at is not None and at is not start:
            path.insert(1, _kind(at))
            at = came[id(at)]
        found[kind] = " -> ".join(path + [kind]) if back is not None else f"{kind}: in no cycle of its own"
    return list(found.values())
