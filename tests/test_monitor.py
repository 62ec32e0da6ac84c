"""The optional loop monitor sees a pause of the event loop and writes what it saw (issue 11's benchmark)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import time
import tracemalloc
from pathlib import Path

import bot.app.monitor as monitoring
from bot.app.growth import GrowthTrace
from bot.discord_app.people_first import WAITED
from bot.service.games import Held


@contextlib.asynccontextmanager
async def _watching(path, monkeypatch):
    """A started monitor writing to `path` at every tick."""
    monkeypatch.setattr(monitoring, "WRITE_EVERY", 0.0)
    monitor = monitoring.LoopMonitor(str(path))
    monitor.start()
    try:
        await asyncio.sleep(0.05)
        yield monitor
    finally:
        await monitor.stop()


async def test_a_blocked_event_loop_is_seen_and_written(tmp_path, monkeypatch):
    path = tmp_path / "monitor.json"
    async with _watching(path, monkeypatch):
        stuck = time.time()
        time.sleep(0.15)  # the loop is stuck: no timer can fire
        await asyncio.sleep(0.05)
        written = json.loads(path.read_text())
        # At least the one made here (a busy machine may add pauses of its own).
        assert written["pauses_over_100ms"] >= 1 and written["max_pause_ms"] >= 100 and written["rss_kb"] > 0
        # ... and when: a benchmark counts only the pauses of the window it measures. The loop's thread
        # slept: it used next to no CPU, so the pause was waiting, not the bot's own work
        assert any(at >= stuck and ms >= 100 and cpu < 50 for at, ms, cpu in written["long_pauses"])
        # and how much the bot's background work waited for people (people_first.py): [count, s, ms, at limit]
        assert written["background_waits"] == WAITED.written()


async def test_what_the_open_games_hold_is_weighed_now_and_then_and_written(tmp_path, monkeypatch):
    """The RSS's bounded part (issue 44): a benchmark tells it from growth by these figures."""
    path, weighed = tmp_path / "monitor.json", []
    monkeypatch.setattr(monitoring, "HELD", 0.2)

    def held() -> Held:
        weighed.append(time.monotonic())
        return Held(3, 40, 90_000, 43, 700, 500_000)

    async with _watching(path, monkeypatch) as monitor:
        monitor.held = held
        await asyncio.sleep(0.5)
        written = json.loads(path.read_text())
    assert written["held"] == {"parsed": 3, "cooled": 40, "cooled_bytes": 90_000, "recent_games": 43,
                               "recent_rows": 700, "recent_bytes": 500_000}
    assert 1 <= len(weighed) <= 3  # every HELD seconds, not at every write (each tick here)


async def test_a_diagnosis_that_fails_is_logged_and_the_measuring_goes_on(tmp_path, monkeypatch, caplog):
    path = tmp_path / "monitor.json"

    def broken() -> Held:
        raise RuntimeError("a weighing that fails")

    async with _watching(path, monkeypatch) as monitor:
        monitor.held = broken
        await asyncio.sleep(0.05)
        assert monitor._task is not None and not monitor._task.done()
        ticks = monitor.stats["ticks"]
        await asyncio.sleep(0.05)
        assert monitor.stats["ticks"] > ticks  # still ticking: pauses are still seen
    assert "the loop monitor could not write what it measured" in caplog.text


def _hold_the_loop(cpu_ms: float, until=lambda: False) -> None:
    """Work on the loop's thread for `cpu_ms` of CPU (not wall time: a busy machine stretches it) and
    then until `until()`, for at most 5 s more."""
    start = time.thread_time()
    while time.thread_time() - start < cpu_ms / 1000:
        pass
    deadline = time.monotonic() + 5
    while not until() and time.monotonic() < deadline:
        pass


async def test_a_pause_of_the_bots_own_work_is_told_from_waiting_and_named(tmp_path, monkeypatch):
    monkeypatch.setenv("MONITOR_STACKS", "1")
    path = tmp_path / "monitor.json"
    async with _watching(path, monkeypatch) as monitor:
        stuck = time.time()
        _hold_the_loop(150, until=lambda: any("_hold_the_loop" in s for s in monitor._sampler.stacks))
        await asyncio.sleep(0.05)
        written = json.loads(path.read_text())
        assert any(at >= stuck and cpu >= 140 for at, ms, cpu in written["long_pauses"])
        stalls = dict(written["stall_stacks"])
        assert any(stack.startswith("test_monitor.py:_hold_the_loop") for stack in stalls)


def test_a_long_collection_is_noted_and_only_a_full_one_counts_the_old_generation():
    """Under load young collections pass 50 ms too; listing the old generation after each would add a
    pause of its own (issue 44), so only a full collection counts it."""
    monitor = monitoring.LoopMonitor(None)
    for generation in (0, 2):
        monitor._on_gc("start", {"generation": generation, "collected": 0, "uncollectable": 0})
        time.sleep(0.06)  # a collection that took over 50 ms
        monitor._on_gc("stop", {"generation": generation, "collected": 5, "uncollectable": 0})
    young, full = monitor.stats["gc_long"]
    assert young[1] == 0 and young[2] >= 50 and young[4] == 5 and young[5] == -1
    assert full[1] == 2 and full[2] >= 50 and full[5] >= 0  # (0 if everything was frozen: gc.freeze)
    assert monitor.stats["gc_runs_by_generation"] == [1, 0, 1] and len(monitor.stats["gc_full"]) == 1


class _Knot:
    def __init__(self) -> None:
        self.other: _Knot | None = None


async def test_the_garbage_census_names_what_only_a_collection_frees_and_its_cycle(tmp_path, monkeypatch):
    """MONITOR_GARBAGE: what the collections find in reference cycles (issue 44 found discord.py's
    interactions there), by kind, with one cycle of each kind."""
    monkeypatch.setenv("MONITOR_GARBAGE", "1")
    path = tmp_path / "monitor.json"
    async with _watching(path, monkeypatch):
        for _ in range(3):
            a, b = _Knot(), _Knot()
            a.other, b.other = b, a  # a cycle: reference counting alone never frees it
        del a, b
        gc.collect()
        await asyncio.sleep(0.05)
        written = json.loads(path.read_text())
    knot = f"{_Knot.__module__}._Knot"
    assert dict(written["garbage"])[knot] == 6
    cycle = next(c for c in written["cycles"] if c.startswith(knot))
    assert cycle.endswith(knot) and cycle.count(knot) >= 2, cycle
    assert gc.get_debug() == 0 and gc.garbage == []  # the rest of the process collects as before


class _Kept:
    """An object of a kind of its own, to be found by name in a census."""


class _Old:
    """Another, for the census of the old generation."""


async def test_the_young_census_counts_the_live_objects_a_young_collection_walks(tmp_path, monkeypatch):
    """MONITOR_YOUNG: how many objects each young collection walks, and of which kinds (issue 44: under load
    they were 37,000, nearly all alive, since freeing old objects counts against the collector's threshold)."""
    monkeypatch.setenv("MONITOR_YOUNG", "1")
    monkeypatch.setattr(monitoring, "EVERY_YOUNG", 1)
    path = tmp_path / "monitor.json"
    async with _watching(path, monkeypatch):
        gc.collect()
        started = time.time()
        gc.disable()  # no collection of its own meanwhile (Python's default threshold is 700)
        try:
            kept = [_Kept() for _ in range(3000)]  # alive, made since the last collection: young
            gc.collect(0)
            young = gc.get_count()  # (a collection ran: the young generation starts again)
            older = [_Kept() for _ in range(2000)]  # moved on to the older generations by the next
            gc.collect(0)
        finally:
            gc.enable()
        await asyncio.sleep(0.05)
        written = json.loads(path.read_text())["young"]
    assert young[0] < 3000
    counted = [(n, old) for at, n, old in written["sizes"] if at >= started]
    assert len(counted) >= 2 and counted[0][0] >= 3000 + 1  # the 3,000 and their list
    # The second collection found the 3,000 in an older generation, and the 2,000 young.
    assert counted[1][1] >= counted[0][1] + 3000 and counted[1][0] >= 2000 + 1
    assert written["kinds"][_Kept.__qualname__] >= 3000 and written["counted"] >= 1
    assert len(kept) == 3000 and len(older) == 2000  # (kept alive until here)


async def test_the_young_census_is_off_unless_asked(tmp_path, monkeypatch):
    monkeypatch.delenv("MONITOR_YOUNG", raising=False)
    path = tmp_path / "monitor.json"
    async with _watching(path, monkeypatch):
        gc.collect(0)
        await asyncio.sleep(0.05)
        assert "young" not in json.loads(path.read_text())


_held: list[bytes] = []


def _churn() -> list[bytes]:
    return [bytes(1000) for _ in range(500)]  # 500 KB, from this one line each time


async def test_the_memory_trace_names_what_grew_since_its_first_snapshot_and_where():
    """MONITOR_TRACEMALLOC (issue 44's question what still grows at 5,000 games): growth is counted from a
    snapshot taken after tracing started, so what was only replaced since is no growth, and what is kept is
    named by the line that allocated it."""
    trace = GrowthTrace(1)
    try:
        assert trace.look() is None and tracemalloc.is_tracing()  # tracing starts
        churn = _churn()  # allocated before the snapshot, replaced after it
        assert trace.look() is None  # the snapshot growth is counted from
        churn = _churn()  # the same again: no growth
        _held.extend(bytes(2000) for _ in range(1000))  # kept: 2 MB grown
        looked = trace.look()
        assert looked is not None
        _mb, grown, lately = looked
        kept = [kb for where, kb, _count in grown if str(where).endswith(_at("_held.extend("))]
        assert kept and kept[0] >= 1900, grown[:3]
        assert lately == grown  # (the snapshot before was that one)
        assert not any(kb > 50 for where, kb, _ in grown if str(where).endswith(_at("bytes(1000)")))
        del churn
        looked = trace.look()
        assert looked is not None
        assert not any(str(where).endswith(_at("_held.extend(")) for where, *_ in looked[2])  # none since
    finally:
        trace.stop()
        _held.clear()
    assert not tracemalloc.is_tracing()  # it slows every allocation


async def test_the_monitor_traces_memory_only_when_asked_and_stops_with_it(tmp_path, monkeypatch):
    path = tmp_path / "monitor.json"
    async with _watching(path, monkeypatch):
        assert not tracemalloc.is_tracing()
    monkeypatch.setenv("MONITOR_TRACEMALLOC", "1,0")
    async with _watching(path, monkeypatch):
        assert tracemalloc.is_tracing()
    assert not tracemalloc.is_tracing()


async def test_the_census_counts_what_the_collector_walks_only_from_the_time_asked(tmp_path, monkeypatch):
    """Late in a long run, once the games have aged (issue 44), and not before: it pauses the loop. Of the old
    generation, once a full collection has left it what full collections walk."""
    path = tmp_path / "monitor.json"
    monkeypatch.setenv("MONITOR_CENSUS", "3600")
    async with _watching(path, monkeypatch):
        gc.collect()
        await asyncio.sleep(0.1)
        assert not {"objects", "census_at_collection"} & set(json.loads(path.read_text()))
    monkeypatch.setenv("MONITOR_CENSUS", "0")
    async with _watching(path, monkeypatch):
        gc.disable()  # (no full collection of its own meanwhile)
        try:
            await asyncio.sleep(0.1)
            assert "objects" not in json.loads(path.read_text()), "a census before any full collection"
        finally:
            gc.enable()
        old = [_Old() for _ in range(20_000)]  # alive through the full collection: the old generation's
        gc.collect()
        await asyncio.sleep(0.1)
        written = json.loads(path.read_text())
        del old
    assert written["objects"] > 1000 and dict(written["census"])["_Old"] == 20_000
    # ... and at the end of the full collection itself, before the work in flight went
    assert dict(written["census_at_collection"])["_Old"] == 20_000 and written["edges_at_collection"] > 40_000
    # What the collection follows: the list of 20,000 is one object but 20,000 references, the heaviest
    assert written["edges"] > 20_000 + 20_000  # (and each _Old's references: its dict, its type)
    kind, references = written["heaviest"][0]
    assert kind.startswith("list of 20000, first <") and "_Old" in kind and references == 20_000
    assert ["LoopMonitor._run", 1] in written["tasks"]  # the monitor's own task, waiting


def _at(text: str) -> str:
    """'test_monitor.py:N': the first line of this file with `text` on it."""
    lines = Path(__file__).read_text().splitlines()
    return f"test_monitor.py:{next(i + 1 for i, line in enumerate(lines) if text in line)}"
