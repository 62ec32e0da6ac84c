"""An optional look inside the running bot, for benchmarks and operators (setting MONITOR_PATH).

Every few seconds it writes, as JSON: the longest event-loop pause, how many
pauses passed 50 and 100 ms (and when: the latest of them with their Unix
times, so a benchmark can tell start-up from the load it measures),
garbage-collection pauses, and the process's memory. A pause is how late a
10 ms timer fires: nothing else can run then, so no click is answered during it. Each long pause is
noted with the CPU the loop's thread used meanwhile: about the pause itself when the bot's own work held
the loop, far less when the process waited (the machine busy, a blocking call). MONITOR_STACKS=1 adds
what the loop's thread was running while it stalled (sampled by a thread of its own): the diagnosis.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import logging
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, NotRequired, Protocol, TypedDict

from ..discord_app.people_first import WAITED
from ..service import allocator
from ..service.games import Held
from .census import YoungCensus, heaviest, owners
from .garbage import GarbageCensus
from .growth import GrowthTrace
from .process_memory import malloc_mb, rss_kb

log = logging.getLogger(__name__)

TICK = 0.01
WRITE_EVERY = 2.0
LONG = 50.0  # ms: a pause worth noting with its time
NOTED = 100  # the latest long pauses kept
HELD = 30.0  # s between weighings of what the open games hold (a few milliseconds at 5,000 games)
EVERY_YOUNG = 4  # MONITOR_YOUNG counts every 4th young collection (a count is a pause of its own)


class Stats(TypedDict):
    """What the monitor writes (as JSON); the keys that are not always there come with what adds them."""

    ticks: int
    max_pause_ms: float
    pauses_over_50ms: int
    pauses_over_100ms: int
    gc_runs: int
    gc_max_ms: float
    gc_over_50ms: int
    gc_max_ms_by_generation: list[float]
    gc_runs_by_generation: list[int]
    gc_full: list[list[float]]  # every full (generation 2) collection: [at (Unix time), ms]
    rss_kb: int
    long_pauses: list[list[float]]  # [at (Unix time), pause ms, CPU ms]
    gc_long: NotRequired[list[list[float]]]  # [at, generation, ms, CPU ms, collected, objects in generation 2
    #                                          (counted after full collections only: -1 after the others)]
    python_blocks: NotRequired[int]
    malloc_mb: NotRequired[dict[str, float] | None]
    given_back_ms: NotRequired[list[float]]
    stall_stacks: NotRequired[list[tuple[str, int]]]
    objects: NotRequired[int]  # MONITOR_CENSUS
    census: NotRequired[list[tuple[str, int]]]
    owners: NotRequired[list[tuple[str, int]]]  # the census by whose the objects are
    edges: NotRequired[int]  # the references the census's objects hold: what a collection follows
    heaviest: NotRequired[list[tuple[str, int]]]  # the containers holding the most of them
    census_at_collection: NotRequired[list[tuple[str, int]]]  # the kinds a full collection left, at its end
    edges_at_collection: NotRequired[int]  # and the references they hold
    gc_stats: NotRequired[list[dict[str, Any]]]  # (as gc.get_stats() gives them)
    frozen: NotRequired[int]
    tasks: NotRequired[list[tuple[str, int]]]
    traced_mb: NotRequired[float]  # MONITOR_TRACEMALLOC
    grown: NotRequired[list[list[str | int]]]  # since the second snapshot
    grown_lately: NotRequired[list[list[str | int]]]  # since the snapshot before
    garbage: NotRequired[list[tuple[str, int]]]  # MONITOR_GARBAGE
    cycles: NotRequired[list[str]]
    young: NotRequired[dict[str, object]]  # MONITOR_YOUNG
    background_waits: NotRequired[list[float]]  # people_first.Waits.written()
    held: NotRequired[dict[str, int]]  # what memory holds of the open games (service Games.held), every HELD s


class Listener(Protocol):
    """Told each measurement as it is made (the operator's metrics, bot/app/metrics.py)."""

    def loop_paused(self, seconds: float) -> None: ...
    def gc_paused(self, generation: int, seconds: float) -> None: ...


class LoopMonitor:
    def __init__(self, path: str | None, listener: Listener | None = None):
        """`path`: where to write (None: nowhere, only `listener` is told)."""
        self.path = Path(path) if path else None
        self.listener = listener
        self.stats: Stats = {"ticks": 0, "max_pause_ms": 0.0, "pauses_over_50ms": 0, "pauses_over_100ms": 0,
                      "gc_runs": 0, "gc_max_ms": 0.0, "gc_over_50ms": 0, "gc_max_ms_by_generation": [0.0, 0.0, 0.0],
                      "gc_runs_by_generation": [0, 0, 0], "gc_full": [], "rss_kb": 0, "long_pauses": []}
        self._gc_started = self._gc_cpu = 0.0
        self._task: asyncio.Task[None] | None = None
        self._sampler: StallSampler | None = None
        self._young: YoungCensus | None = None
        self._trace: GrowthTrace | None = None  # MONITOR_TRACEMALLOC
        self.held: Callable[[], Held] | None = None  # set once the service is open
        self._weighed = 0.0
        self._census_at: float | None = None  # MONITOR_CENSUS (set at the start)
        self._collected_fully = False

    def start(self) -> None:
        # MONITOR_YOUNG: how many objects the young collections walk, and of which kinds (census.py)
        self._young = YoungCensus(EVERY_YOUNG) if os.environ.get("MONITOR_YOUNG") else None
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.get_running_loop().create_task(self._run(), name="loop monitor")
        # MONITOR_TRACEMALLOC=frames[,after seconds]: what grew from a minute after then on, and where. Costly
        # (it slows the bot several times over), so it starts late: after the benchmark's tables have opened.
        traced = os.environ.get("MONITOR_TRACEMALLOC", "")
        frames, after = ([int(x) for x in traced.split(",")] + [150])[:2] if traced else (0, 0)
        self._trace, self._snapped = GrowthTrace(frames) if frames else None, time.perf_counter() + after
        # MONITOR_PROFILE=file,after seconds[,cpu]: the loop thread's functions profiled from then on (after the
        # benchmark's tables have opened), the statistics written to `file` (pstats) at every write; with
        # `cpu`, in the thread's CPU time (what the loop spends, without the waits for the GIL or the kernel).
        profiled = os.environ.get("MONITOR_PROFILE", "").split(",")
        self._profile = (profiled[0], time.perf_counter() + float(profiled[1])) if len(profiled) >= 2 else None
        self._profile_cpu = profiled[2:] == ["cpu"]
        self._profiler: cProfile.Profile | None = None
        # MONITOR_CENSUS=seconds: from then on, at the first write after each full collection, the old
        # generation's objects by kind and owner: what full collections walk (costly: a diagnosis, late in a
        # long run once the games have aged; not a number: 0). The young ones, freed soon, would hide them.
        census = os.environ.get("MONITOR_CENSUS", "")
        census_after = float(census) if census.replace(".", "", 1).isdigit() else 0.0
        self._census_at = time.perf_counter() + census_after if census else None
        self._collected_fully = False  # a full collection since the last census
        # MONITOR_GARBAGE: what the collections find unreachable (reference cycles): garbage.py
        self._garbage = GarbageCensus() if os.environ.get("MONITOR_GARBAGE") else None
        if os.environ.get("MONITOR_STACKS"):
            self._sampler = StallSampler()
            self._sampler.start()

    async def stop(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if self._sampler is not None:
            self._sampler.running = False
        if self._garbage is not None:
            self._garbage.stop()
        if self._trace is not None:
            self._trace.stop()

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            if self._young is not None:  # (counted before the collection's time starts)
                self._young.collecting(info["generation"])
            self._gc_started, self._gc_cpu = time.perf_counter(), time.thread_time()
            return
        took = (time.perf_counter() - self._gc_started) * 1000
        if self.listener is not None:
            self.listener.gc_paused(info["generation"], took / 1000)
        if took > LONG:  # a long one: with its CPU, what it freed and (after a full one) what the old generation
            # holds now. Young collections pass 50 ms too under load, and listing the old generation after each
            # would add a pause of its own.
            old = len(gc.get_objects(2)) if info["generation"] == 2 else -1
            self.stats["gc_long"] = [*self.stats.get("gc_long", [])[1 - NOTED:], [
                round(time.time(), 3), info["generation"], round(took, 1),
                round((time.thread_time() - self._gc_cpu) * 1000, 1), info["collected"], old]]
        self.stats["gc_runs"] += 1
        self.stats["gc_max_ms"] = max(self.stats["gc_max_ms"], round(took, 2))
        self.stats["gc_over_50ms"] += took > 50
        by = self.stats["gc_max_ms_by_generation"]
        by[info["generation"]] = max(by[info["generation"]], round(took, 2))
        self.stats["gc_runs_by_generation"][info["generation"]] += 1
        if info["generation"] == 2:  # rare, and the ones that walk every object: each noted with its time
            self._collected_fully = True
            if self._census_at is not None and time.perf_counter() > self._census_at:
                # The kinds a full collection left, at once: the census at the next write counts what still
                # lives a moment later; the difference is the work in flight the collection walked too.
                left = gc.get_objects(2)
                self.stats["census_at_collection"] = Counter(type(o).__qualname__ for o in left).most_common(40)
                self.stats["edges_at_collection"] = sum(len(gc.get_referents(o)) for o in left)
                del left
            self.stats["gc_full"] = [*self.stats["gc_full"][1 - NOTED:], [round(time.time(), 3), round(took, 1)]]

    async def _run(self) -> None:
        written = time.perf_counter()
        while True:
            before, cpu = time.perf_counter(), time.thread_time()
            if self._sampler is not None:
                self._sampler.beat = before
            await asyncio.sleep(TICK)
            late = (time.perf_counter() - before - TICK) * 1000
            if self.listener is not None:
                self.listener.loop_paused(late / 1000)
            cpu_ms = round((time.thread_time() - cpu) * 1000, 1)
            s = self.stats
            s["ticks"] += 1
            s["max_pause_ms"] = max(s["max_pause_ms"], round(late, 2))
            s["pauses_over_50ms"] += late > LONG
            if late > LONG:
                s["long_pauses"] = [*s["long_pauses"][1 - NOTED:], [round(time.time(), 3), round(late, 2), cpu_ms]]
            s["pauses_over_100ms"] += late > 100
            if self.path is not None and time.perf_counter() - written > WRITE_EVERY:
                written = time.perf_counter()
                try:
                    self._write(written)
                except Exception:  # a diagnosis failed (a census, a trace): the measuring goes on
                    log.exception("the loop monitor could not write what it measured")

    def _write(self, written: float) -> None:
        assert self.path is not None
        s = self.stats
        s["rss_kb"] = rss_kb()
        s["python_blocks"] = sys.getallocatedblocks()  # all Python objects: RSS grown beyond is not theirs
        s["malloc_mb"] = malloc_mb()
        s["given_back_ms"] = list(allocator.given_back_ms)
        s["background_waits"] = WAITED.written()  # how late people first made the background
        if self.held is not None and written > self._weighed + HELD:
            self._weighed = written  # the RSS's bounded part: it grows until each game has filled its own
            s["held"] = self.held()._asdict()
        if self._trace is not None and written > self._snapped:
            self._snapped = written + 60  # a snapshot is slow
            grown = self._trace.look()
            if grown is not None:
                s["traced_mb"], s["grown"], s["grown_lately"] = grown
        if self._profile is not None and written > self._profile[1]:
            if self._profiler is None:
                self._profiler = cProfile.Profile(time.thread_time) if self._profile_cpu \
                    else cProfile.Profile()
                self._profiler.enable()
            else:
                self._profiler.dump_stats(self._profile[0])  # (which stops it: on again)
                self._profiler.enable()
        if self._sampler is not None:
            s["stall_stacks"] = self._sampler.stacks.most_common(20)
        if self._garbage is not None:
            s["garbage"], s["cycles"] = self._garbage.tally()
        if self._young is not None:
            s["young"] = self._young.written()
        if self._census_at is not None and written > self._census_at and self._collected_fully:
            self._collected_fully = False
            objects = gc.get_objects(2)
            s["objects"] = len(objects)
            s["census"] = Counter(type(o).__name__ for o in objects).most_common(25)
            whose = owners(objects)
            s["owners"] = whose.most_common(30) + [(k, n) for k, n in whose.items() if k[0] == "?"]
            s["edges"], s["heaviest"] = heaviest(objects)
            s["gc_stats"] = gc.get_stats()
            s["frozen"] = gc.get_freeze_count()
            s["tasks"] = Counter(getattr(t.get_coro(), "__qualname__", "?")
                                 for t in asyncio.all_tasks()).most_common(10)
            del objects
        self.path.write_text(json.dumps(s))


class StallSampler(threading.Thread):
    """While the loop's thread has not ticked for STALL seconds, notes every SAMPLE seconds what it runs
    (its innermost frames of the bot's own code and the libraries'), so the counts show where stalls go."""

    STALL, SAMPLE, DEPTH = 0.04, 0.005, 8

    def __init__(self) -> None:
        super().__init__(name="stall sampler", daemon=True)
        main = threading.main_thread().ident
        assert main is not None  # the main thread has started
        self.main = main
        self.beat = time.perf_counter()
        self.running = True
        self.stacks: Counter[str] = Counter()

    def run(self) -> None:
        while self.running:
            time.sleep(self.SAMPLE)
            if time.perf_counter() - self.beat < self.STALL:
                continue
            frame = sys._current_frames().get(self.main)
            where: list[str] = []
            while frame is not None and len(where) < self.DEPTH:
                code = frame.f_code
                where.append(f"{Path(code.co_filename).name}:{code.co_name}:{frame.f_lineno}")
                frame = frame.f_back
            self.stacks[" < ".join(where)] += 1
