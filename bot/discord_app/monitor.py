"""An optional look inside the running bot, for benchmarks and operators (setting MONITOR_PATH).

Every few seconds it writes, as JSON: the longest event-loop pause, how many
pauses passed 50 and 100 ms (and when: the latest of them with their Unix
times, so a benchmark can tell start-up from the load it measures),
garbage-collection pauses, and the process's memory. A pause is how late a
10 ms timer fires: nothing else can run then, so no click is answered during it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import time
from collections import Counter
from pathlib import Path

TICK = 0.01
WRITE_EVERY = 2.0
LONG = 50.0  # ms: a pause worth noting with its time
NOTED = 100  # the latest long pauses kept


class LoopMonitor:
    def __init__(self, path: str):
        self.path = Path(path)
        self.stats = {"ticks": 0, "max_pause_ms": 0.0, "pauses_over_50ms": 0, "pauses_over_100ms": 0,
                      "gc_runs": 0, "gc_max_ms": 0.0, "gc_over_50ms": 0, "gc_max_ms_by_generation": [0.0, 0.0, 0.0],
                      "rss_kb": 0, "long_pauses": []}
        self._gc_started = 0.0
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="loop monitor")

    async def stop(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        took = (time.perf_counter() - self._gc_started) * 1000
        self.stats["gc_runs"] += 1
        self.stats["gc_max_ms"] = max(self.stats["gc_max_ms"], round(took, 2))
        self.stats["gc_over_50ms"] += took > 50
        by = self.stats["gc_max_ms_by_generation"]
        by[info["generation"]] = max(by[info["generation"]], round(took, 2))

    async def _run(self) -> None:
        written = time.perf_counter()
        while True:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            late = (time.perf_counter() - before - TICK) * 1000
            s = self.stats
            s["ticks"] += 1
            s["max_pause_ms"] = max(s["max_pause_ms"], round(late, 2))
            s["pauses_over_50ms"] += late > LONG
            if late > LONG:
                s["long_pauses"] = [*s["long_pauses"][1 - NOTED:], [round(time.time(), 3), round(late, 2)]]
            s["pauses_over_100ms"] += late > 100
            if time.perf_counter() - written > WRITE_EVERY:
                written = time.perf_counter()
                s["rss_kb"] = _rss_kb()
                if os.environ.get("MONITOR_CENSUS"):  # costly: a diagnosis of what the collector walks
                    objects = gc.get_objects()
                    s["objects"] = len(objects)
                    s["census"] = Counter(type(o).__name__ for o in objects).most_common(25)
                    s["gc_stats"] = gc.get_stats()
                    s["frozen"] = gc.get_freeze_count()
                    s["tasks"] = Counter(getattr(t.get_coro(), "__qualname__", "?")
                                         for t in asyncio.all_tasks()).most_common(10)
                    del objects
                self.path.write_text(json.dumps(s))


def _rss_kb() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0
