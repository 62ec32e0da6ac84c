"""Censuses for the loop monitor of what the garbage collector walks: every tracked object by its owner
(MONITOR_CENSUS, `owners`), and how many objects a young collection walks, and of which kinds, and how many
the older generations hold (MONITOR_YOUNG, `YoungCensus`: every n-th young collection).

CPython starts a young collection when allocations minus deallocations pass its threshold, so a bot that
frees old objects as fast as it makes new ones (a state replaced by a move, a game parsed again while another
cools) fills the young generation with live objects that each collection walks and frees none of
(docs/benchmarks.md, tenth session). Their number is what a change making fewer objects per game must
lower; unlike a latency it hardly depends on how much CPU the machine gives the bot. Counting lists the
generation: a pause of its own, so only every n-th collection is counted.
"""

from __future__ import annotations

import gc
import time
import types
from collections import Counter, deque
from typing import Any

KEPT = 500  # the last counts kept, each with its time (a benchmark keeps those of its window)


class YoungCensus:
    def __init__(self, every: int) -> None:
        self.every = max(1, every)
        self._young = 0  # young collections seen
        # (Unix time, objects in the young generation, objects in the two older ones): the older ones are what a
        # full collection walks besides, whose pause (80-140 ms at 5,000 games) comes too rarely to compare runs by.
        self.sizes: deque[tuple[float, int, int]] = deque(maxlen=KEPT)
        self.kinds: Counter[str] = Counter()  # the kinds of all the objects counted, summed
        self.counted = 0  # collections counted

    def collecting(self, generation: int) -> None:
        """Told as a collection starts: every n-th young one is counted before it runs."""
        if generation != 0:
            return
        self._young += 1
        if self._young % self.every:
            return
        young = gc.get_objects(0)
        older = len(gc.get_objects(1)) + len(gc.get_objects(2))
        self.sizes.append((round(time.time(), 3), len(young), older))
        self.kinds.update(type(o).__qualname__ for o in young)
        self.counted += 1
        del young  # (the list is not among them)

    def written(self) -> dict[str, object]:
        """What the monitor writes: the counts with their times, and the kinds summed with how many were counted
        (a benchmark takes the difference between two writes for its window: so every kind, not the most)."""
        return {"sizes": list(self.sizes), "counted": self.counted, "kinds": dict(self.kinds)}


_ANONYMOUS = {dict, list, tuple, set, frozenset, types.CellType, types.FunctionType, types.MethodType}


def owners(objects: list[Any]) -> Counter[str]:
    """The tracked objects counted by their owner: each plain container or function is counted with the
    first object of another type found to reach it (breadth first), so the census says whose they are."""
    owner: dict[int, str] = {}
    queue: deque[Any] = deque()
    for o in objects:
        if type(o) not in _ANONYMOUS:
            # (a coroutine by its function; not by `cr_code` alone: the coroutine type itself has that too)
            owner[id(o)] = o.cr_code.co_qualname if isinstance(o, types.CoroutineType) else type(o).__qualname__
            queue.append(o)
    tracked = {id(o) for o in objects}
    while queue:
        o = queue.popleft()
        for r in gc.get_referents(o):
            if id(r) in tracked and id(r) not in owner:
                owner[id(r)] = owner[id(o)]
                queue.append(r)
    unowned = [o for o in objects if id(o) not in owner]
    return Counter(owner.get(id(o), "(no owner found)") for o in objects) + Counter(
        f"? {type(o).__name__} {_shown(o)}" for o in unowned[::max(1, len(unowned) // 40)])


def heaviest(objects: list[Any], most: int = 20) -> tuple[int, list[tuple[str, int]]]:
    """How many references a collection follows from these objects (each visit reads the object referred to,
    so a container of many entries costs as much as as many small objects), and the containers that hold the
    most: what makes a collection long when the count of objects alone does not explain it."""
    sizes = [(len(gc.get_referents(o)), o) for o in objects]
    sizes.sort(key=lambda pair: pair[0], reverse=True)
    return sum(n for n, _ in sizes), [(f"{type(o).__qualname__} {_glimpse(o)}", n) for n, o in sizes[:most]]


def _glimpse(o: object) -> str:
    """A container shown by its first entry (the repr of a large one would take long and say little)."""
    if isinstance(o, dict):
        first = next(iter(o.items()), None)
    elif isinstance(o, (list, tuple, set, frozenset, deque)):
        first = next(iter(o), None)
    else:
        return _shown(o)
    return f"of {len(o)}, first {_shown(first)}"


def _shown(o: object) -> str:
    try:
        return repr(o)[:60]
    except Exception:  # any object's repr may fail: the census goes on
        return "(no repr)"
