"""MONITOR_TRACEMALLOC: what grew in the bot's memory, by where it was allocated (issue 44's question what
still grows at 5,000 live games). Costly: tracing slows every allocation several times over."""

from __future__ import annotations

import tracemalloc

Grouped = dict[tracemalloc.Traceback, tuple[int, int]]  # bytes and blocks held, by where they were allocated
Grown = list[list[str | int]]  # [where (its frames, each calling the next), KB, objects], the most first


class GrowthTrace:
    """The first look starts tracing, the second takes the snapshot the later ones count growth from, and
    from the look before. What was allocated before tracing started is not seen: an entry of a cache from
    then, replaced since, looks like growth (`after` 0 traces from the start; one between the first two looks
    does not)."""

    def __init__(self, frames: int):
        self.frames = frames
        self._looks: list[Grouped] = []  # the second look's snapshot and the latest, grouped by where

    def look(self) -> tuple[float, Grown, Grown] | None:
        """(MB traced, grown since the second look, since the last); None for the first two looks."""
        if not tracemalloc.is_tracing():
            tracemalloc.start(self.frames)
            return None
        snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        now = {t.traceback: (t.size, t.count) for t in snapshot.statistics("traceback")}  # grouped once
        looks, self._looks = self._looks, [*self._looks[:1], now]
        if not looks:
            return None
        return round(tracemalloc.get_traced_memory()[0] / 2**20, 1), _growth(now, looks[0]), _growth(now, looks[-1])

    def stop(self) -> None:
        if tracemalloc.is_tracing():
            tracemalloc.stop()
        self._looks.clear()


def _growth(now: Grouped, before: Grouped) -> Grown:
    was = {where: before.get(where, (0, 0)) for where in now}
    grew = sorted(((size - was[where][0], count - was[where][1], where) for where, (size, count) in now.items()),
                  key=lambda g: g[0], reverse=True)[:25]
    return [[" > ".join(f"{f.filename}:{f.lineno}" for f in where), round(size / 1024), count]
            for size, count, where in grew if size > 0]
