"""Load benchmark of the real bot (issue 11): `python tests/bench_bot.py [--games 1000] [--rate 50] [--seconds 600]`.

`python -m bot` runs as a subprocess against the project's fake Discord (rate limits on, one channel
per game). The driver opens `--games` tables through the bot (every third with a computer seat), then
takes `--rate` decisions per second the way players do (open the private panel, click a decision) for
`--seconds`, and prints: decisions/s, click-to-answer latency, event-loop and GC pauses inside the bot,
its memory at start and end, REST calls per decision (those Discord counts against its global limit,
and those on interaction tokens, which it does not), the busiest channel's message operations in any
5 s, and 429s. Then it measures start-up: the first click answered after READY with 10,000 and
100,000 stored games (`--startup`), and the memory the bot then holds.

`--people` (issue 44): load shaped like people's instead (see `people`): `python tests/bench_bot.py --people
--games 1000 --users 250 --rate 200 --in-flight 64 --warmup 30 --seconds 90 --startup ""`.

`--metrics` (issue 45): the bot exports its Prometheus metrics (METRICS_PORT), scraped every 5 s meanwhile:
run the same benchmark with and without it to see what the metrics cost.

`--postgres URL` (a server's admin URL): the bot runs on PostgreSQL (DATABASE_URL), in databases of the
benchmark's own that it drops afterwards; default SQLite. BENCH_KEEP_LOG=FILE keeps the bot's log.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
BOT_ROOT = ROOT  # the checkout whose bot is measured (--bot-root: another one, say the one before a change)
BOT_PYTHON = sys.executable  # the interpreter the bot runs on (--bot-python: another one; the load stays on this)
sys.path[:0] = [str(ROOT), str(TESTS)]

from support.fake_discord import FakeDiscord, FakeUser, HarnessError, stop_process  # noqa: E402
from support.load import percentiles  # noqa: E402

from engine import new_game  # noqa: E402
from storage import Seat, Store, Table  # noqa: E402

GUILD = 730_000_000_000_000_001
USER = 730_000_000_000_001_000
MENTION = re.compile(r"<@(\d+)>")


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


POSTGRES: str | None = None  # --postgres: the server's admin URL
MADE: list[str] = []  # the PostgreSQL databases made, dropped at the end


async def database(folder: Path) -> str:
    """Where the bot of a run keeps its games: a SQLite file in its folder, or a fresh PostgreSQL database."""
    if POSTGRES is None:
        return str(folder / "bench.sqlite3")
    import asyncpg

    name = f"augsburg_bench_bot_{os.getpid()}_{len(MADE)}"
    con = await asyncpg.connect(POSTGRES)
    try:
        await con.execute(f"DROP DATABASE IF EXISTS {name}")
        await con.execute(f"CREATE DATABASE {name}")
    finally:
        await con.close()
    MADE.append(name)
    return urlunsplit(urlsplit(POSTGRES)._replace(path=f"/{name}"))


async def drop_databases() -> None:
    if MADE:
        import asyncpg

        con = await asyncpg.connect(POSTGRES)
        try:
            for name in MADE:
                await con.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await con.close()


async def moves_in(where: str) -> int:
    if "://" not in where:
        with contextlib.closing(sqlite3.connect(f"file:{where}?mode=ro", uri=True)) as db:
            return db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    import asyncpg

    con = await asyncpg.connect(where)
    try:
        return await con.fetchval("SELECT COUNT(*) FROM actions")
    finally:
        await con.close()


@contextlib.asynccontextmanager
async def bot_process(fake: FakeDiscord, folder: Path, where: str, **settings: str):
    folder.mkdir(exist_ok=True)
    at = {"DATABASE_URL": where} if "://" in where else {"DATABASE_PATH": where, "DATABASE_URL": ""}
    env = {**os.environ, **fake.env("bench-token"), "DISCORD_GUILD_ID": str(GUILD), "PYTHONPATH": str(BOT_ROOT),
           **at, "MONITOR_PATH": str(folder / "monitor.json"),
           "TURN_TIMEOUT_SECONDS": "0", "LOG_LEVEL": "WARNING", **settings}
    with (folder / "bot.log").open("ab") as log:
        proc = await asyncio.create_subprocess_exec(BOT_PYTHON, "-m", "bot", env=env, cwd=folder, stdout=log,
                                                    stderr=asyncio.subprocess.STDOUT)
    try:
        yield proc
    finally:
        await stop_process(proc, 20)
        if os.environ.get("BENCH_KEEP_LOG"):  # the bot's log, to read after the run
            shutil.copy(folder / "bot.log", os.environ["BENCH_KEEP_LOG"])


class Bots:
    """The bot's processes under measurement: one, or (`--processes N`, PostgreSQL) N owning one Discord shard
    each, as a deployment that outgrew one process runs. Their CPU, memory and monitors are summed."""

    def __init__(self, procs: list[asyncio.subprocess.Process], monitors: list[Path]):
        self.procs, self.monitors = procs, monitors

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.procs)

    def rss(self) -> int:
        return sum(rss_kb(p.pid) for p in self.procs)

    def workers(self) -> int:
        return sum(workers_rss_kb(p.pid) for p in self.procs)

    def monitor(self) -> dict:
        """The monitors' latest writes as one: counts and memory summed, collections and pauses together."""
        found = [m for m in map(_monitor, self.monitors) if m]
        if len(found) <= 1:
            return found[0] if found else {}
        merged = dict(found[0])
        merged["gc_full"] = sorted(x for m in found for x in m.get("gc_full", []))
        merged["long_pauses"] = sorted(x for m in found for x in m.get("long_pauses", []))
        merged["gc_runs_by_generation"] = [sum(g) for g in zip(*(m.get("gc_runs_by_generation", [0] * 3)
                                                                 for m in found))]
        blocks = [m.get("python_blocks") for m in found]
        merged["python_blocks"] = None if None in blocks else sum(blocks)
        mallocs = [m.get("malloc_mb") or {} for m in found]
        merged["malloc_mb"] = {k: round(sum(m.get(k) or 0 for m in mallocs), 1) for k in ("used", "free")}
        return merged


def shard_guilds(count: int) -> list[int]:
    """A guild of each of `count` Discord shards (a guild's shard is `(id >> 22) % count`)."""
    return [(731_000 * count + shard) << 22 for shard in range(count)]


@contextlib.asynccontextmanager
async def bot_processes(fake: FakeDiscord, folder: Path, where: str, count: int, **settings: str):
    """`count` bot processes, process i owning shard i of `count` (one: `bot_process`, the whole guild)."""
    if count == 1:
        async with bot_process(fake, folder, where, **settings) as proc:
            yield Bots([proc], [folder / "monitor.json"])
        return
    monitors = [folder / f"monitor-{i}.json" for i in range(count)]
    async with contextlib.AsyncExitStack() as stack:
        procs = [await stack.enter_async_context(bot_process(
            fake, folder / f"bot-{i}", where, DISCORD_GUILD_ID="", SHARD_COUNT=str(count), SHARD_IDS=str(i),
            MONITOR_PATH=str(monitors[i]), **settings)) for i in range(count)]
        yield Bots(procs, monitors)


async def answered(fake: FakeDiscord, result, latencies: list[float], filled: list[float] | None = None):
    """The answer the player sees. `latencies`: until Discord accepted the first callback (the answer, or
    the acknowledgement of a decision); `filled`: until the answer itself was there."""
    await fake.wait_answered(result, timeout=30)
    latencies.append(result.latency)
    if result.answer is None:  # acknowledged first: the answer follows
        await fake.wait_until(lambda: result.answer is not None, timeout=30, what="the answer")
    if filled is not None:
        filled.append(time.monotonic() - result.sent_at)
    return result.answer


async def open_table(fake: FakeDiscord, channel: int, players: list[int], computer: bool) -> int:
    lobby = (await fake.slash(players[0], "augsburg new", channel_id=channel)).response.message_id
    for user in players[1:]:
        await fake.click(user, lobby, label="Join")
    if computer:
        await fake.click(players[0], lobby, label="Add computer player")
    await fake.click(players[0], lobby, label="Start game")
    return lobby


async def open_tables(fake: FakeDiscord, users: list[FakeUser], count: int) -> list[tuple[int, list[int]]]:
    """`count` tables, one per channel, 50 at a time, two people each (every third with a computer): each
    table's message and its people."""
    games: list[tuple[int, list[int]]] = []
    for start in range(0, count, 50):
        batch = []
        for i, channel in enumerate(fake.channel_ids[start:start + 50], start=start):
            players = [users[(2 * i) % len(users)].id, users[(2 * i + 1) % len(users)].id]
            batch.append((open_table(fake, channel, players, i % 3 == 0), players))
        tables = await asyncio.gather(*(b[0] for b in batch))
        games += [(t, b[1]) for t, b in zip(tables, batch)]
    return games


async def decide(fake: FakeDiscord, table: int, players: list[int], rnd: random.Random, latencies,
                 filled: list[float]) -> bool:
    """One decision as a player takes it; False when the table named nobody who could decide."""
    shown = fake.message(table)
    due = [int(u) for u in MENTION.findall(shown.embeds[0].get("description", ""))] if shown.embeds else []
    due = [u for u in due if u in players] or players
    user = rnd.choice(due)
    try:
        panel = await answered(fake, await fake.click(user, table, label="My hand & actions", settle=False),
                               latencies)
    except HarnessError:  # the game has ended
        return False
    choices = [b for b in panel.buttons() if b["custom_id"].startswith("aug:do:") and not b.get("disabled")]
    choices += [s for s in panel.selects() if s["custom_id"].endswith(":pick")]
    if not choices:
        buys = [b for b in panel.buttons() if b.get("label") == "Buy nothing"]
        if not buys:
            return False
        choices = buys
    choice = rnd.choice(choices)
    if choice.get("type") == 2:
        done = await answered(fake, await fake.click(user, panel.message_id, choice["custom_id"], settle=False),
                              latencies, filled)
    else:
        value = rnd.choice(choice["options"])["value"]
        done = await answered(fake, await fake.select(user, panel.message_id, choice["custom_id"], [value],
                                                      settle=False), latencies, filled)
    return done is not None and "✅" in (done.content or "")


async def load(args, folder: Path) -> dict:
    users = [FakeUser(USER + i, f"P{i}") for i in range(args.users)]
    fake = FakeDiscord(guild_id=GUILD, users=users, channels=args.games, rate_limits=True, record_requests=False,
                       keep_outputs=2000, token="bench-token")
    where = await database(folder)
    async with fake, bot_process(fake, folder, where) as proc:
        await fake.wait_for_ready(timeout=60)
        rnd, latencies, filled = random.Random(1), [], []
        games = await open_tables(fake, users, args.games)
        await asyncio.sleep(5)  # let the openings' drawings and computers settle
        before, moves_before, rss_start = fake.stats(), await moves_in(where), rss_kb(proc.pid)
        monitor_file = folder / "monitor.json"  # a bot from before the monitor existed writes none
        rss_samples, blocks, decisions, attempts, in_flight = [rss_start], [_watched(monitor_file)], 0, 0, set()
        started, window_start = time.monotonic(), time.time()
        while (elapsed := time.monotonic() - started) < args.seconds:
            if attempts < elapsed * args.rate and len(in_flight) < 500:
                attempts += 1
                table, players = games[rnd.randrange(len(games))]
                task = asyncio.ensure_future(decide(fake, table, players, rnd, latencies, filled))
                in_flight.add(task)
                task.add_done_callback(in_flight.discard)
            else:
                await asyncio.sleep(0.002)
            if int(elapsed) % 10 == 0 and len(rss_samples) <= elapsed / 10:
                rss_samples.append(rss_kb(proc.pid))
                blocks.append(_watched(monitor_file))
        results = await asyncio.gather(*in_flight, return_exceptions=True)
        decisions = sum(1 for t in results if t is True)
        await asyncio.sleep(3)
        after, moves = fake.stats(), await moves_in(where) - moves_before
        if args.keep_monitor and monitor_file.exists():
            Path(args.keep_monitor).write_text(monitor_file.read_text())
        monitor = json.loads(monitor_file.read_text()) if monitor_file.exists() else dict.fromkeys(
            ("max_pause_ms", "pauses_over_50ms", "pauses_over_100ms", "gc_max_ms"))
        return {
            "games": args.games, "seconds": args.seconds, "attempts": attempts,
            "moves_per_s": round(moves / args.seconds, 1),
            "click_to_answer": percentiles(latencies),  # every click: to the first callback Discord accepted
            "decision_to_filled_answer": percentiles(filled),  # a decision: until its ✅ panel is there
            "loop_max_pause_ms": monitor["max_pause_ms"], "loop_pauses_over_50ms": monitor["pauses_over_50ms"],
            "loop_pauses_over_100ms": monitor["pauses_over_100ms"], "gc_max_ms": monitor["gc_max_ms"],
            # the same within the measured window only (the tables' opening before it grows the heap)
            "window_pauses_over_50ms_max_ms": _window(monitor, window_start),
            "rss_mb_start_end": [round(rss_start / 1024), round(rss_kb(proc.pid) / 1024)],
            "rss_mb_samples": [round(r / 1024) for r in rss_samples[::6]],
            "python_blocks_k_samples": [b[0] and round(b[0] / 1000) for b in blocks[::6]],  # every Python object's
            "malloc_mb_samples": [b[1] for b in blocks[::6]],  # the C allocator's: used, kept free, mapped
            "global_calls_per_move": per(after, before, "global_limited", moves),
            "token_calls_per_move": per(after, before, "interaction_token", moves),
            "busiest_channel_ops_per_5s": after["busiest_channel_ops"],
            "rate_limited": after["rate_limited"] - before["rate_limited"],
            "rate_limited_where": [after["rate_limited_by_route"], after["rate_limited_by_scope"]],
            "peak_global_per_s": after["peak_global_per_second"], "by_route": after["by_route"],
            "invalid": after["invalid"],
        } | ({"decisions_clicked": decisions} if decisions else {})


class Pacer:
    """Hands out moments `1/rate` apart: each interaction waits for its own, so they go at `rate` per second
    (or slower, when every one of the `in_flight` people is waiting for an answer)."""

    def __init__(self, rate: float):
        self.gap, self.next = 1 / rate, time.monotonic()

    async def slot(self) -> None:
        now = time.monotonic()
        at, self.next = max(now, self.next), max(now, self.next) + self.gap
        await asyncio.sleep(at - now)


class People:
    """People at 1,000 tables: each visit opens the panel (the table's button, or `/augsburg hand`), some
    page the log or look at their hand as a picture, most then decide on the panel, some leave it open.
    Every interaction's latency is kept by kind: until Discord accepted its first callback (`first`, what
    its 3 s are about) and until the answer itself was there (`filled`)."""

    KINDS = ("panel", "act", "selection", "log", "picture")

    def __init__(self, fake: FakeDiscord, games: list[tuple[int, list[int]]], rate: float, seed: int = 1):
        self.fake, self.games, self.pacer, self.rnd = fake, games, Pacer(rate), random.Random(seed)
        self.first: dict[str, list[float]] = {k: [] for k in self.KINDS}
        self.filled: dict[str, list[float]] = {k: [] for k in self.KINDS}
        self.late = self.failed = self.moves = 0
        self.failed_kinds: Counter[str] = Counter()
        self.counting = False

    def reset(self) -> None:
        for k in self.KINDS:
            self.first[k].clear(), self.filled[k].clear()
        self.late = self.failed = self.moves = 0
        self.failed_kinds.clear()
        self.counting = True

    def interactions(self) -> int:
        return sum(len(v) for v in self.first.values()) + self.failed

    async def one(self, kind: str, send) -> object | None:
        """One interaction: waits for its moment, sends it, returns the answer (None: none within 30 s)."""
        await self.pacer.slot()
        result = await send()
        try:
            await self.fake.wait_answered(result, timeout=30)
            if result.answer is None:
                await self.fake.wait_until(lambda: result.answer is not None, timeout=30, what="the answer")
        except (HarnessError, TimeoutError):
            self.failed += 1
            self.late += 1
            self.failed_kinds[kind] += 1
            return None
        self.first[kind].append(result.latency)
        self.filled[kind].append(time.monotonic() - result.sent_at)
        self.late += result.latency > 3.0
        return result.answer

    async def visit(self) -> None:
        fake, rnd = self.fake, self.rnd
        table, players = self.games[rnd.randrange(len(self.games))]
        shown = fake.message(table)
        due = [int(u) for u in MENTION.findall(shown.embeds[0].get("description", ""))] if shown.embeds else []
        user = rnd.choice([u for u in due if u in players] or players)
        channel = shown.channel_id
        try:
            if rnd.random() < 0.8:
                panel = await self.one("panel", lambda: fake.click(user, table, label="My hand & actions",
                                                                   settle=False))
            else:
                panel = await self.one("panel", lambda: fake.slash(user, "augsburg hand", channel_id=channel,
                                                                   settle=False))
            if panel is None or not panel.buttons():
                return  # the game has ended, or no answer
            if rnd.random() < 0.1:
                await self.one("log", lambda: fake.slash(user, "augsburg log", channel_id=channel, settle=False))
            if rnd.random() < 0.05 and any(b["custom_id"].startswith("aug:pic:") for b in panel.buttons()):
                pic = next(b for b in panel.buttons() if b["custom_id"].startswith("aug:pic:"))
                await self.one("picture", lambda: fake.click(user, panel.message_id, pic["custom_id"],
                                                             settle=False))
            if rnd.random() < 0.15:
                return  # left open: it follows the game for minutes (live.py), holding what it shows
            await self.decide(user, panel)
        except HarnessError:  # a table or panel gone meanwhile (another person moved, the game ended)
            return

    async def decide(self, user: int, panel) -> None:
        fake, rnd = self.fake, self.rnd
        choices = [b for b in panel.buttons() if b["custom_id"].startswith("aug:do:") and not b.get("disabled")]
        choices += [s for s in panel.selects() if s["custom_id"].startswith("aug:sel:")]
        if not choices:
            return
        choice = rnd.choice(choices)
        if choice.get("type") == 2:
            done = await self.one("act", lambda: fake.click(user, panel.message_id, choice["custom_id"],
                                                            settle=False))
        else:
            low, high = choice.get("min_values", 1), min(choice.get("max_values", 1), len(choice["options"]))
            values = [o["value"] for o in rnd.sample(choice["options"], rnd.randint(low, high))]
            done = await self.one("selection", lambda: fake.select(user, panel.message_id, choice["custom_id"],
                                                                   values, settle=False))
        self.moves += done is not None and "✅" in (done.content or "")

    async def person(self, until: float) -> None:
        while time.monotonic() < until:
            await self.visit()

    async def run(self, in_flight: int, seconds: float) -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(*(self.person(until) for _ in range(in_flight)))


def _family(pid: int) -> list[list[int]]:
    """[pid, CPU ticks, RSS pages] of the process and of all its descendants still running (the pictures' and
    the computers' worker processes, and the forkserver they come from: children of a child)."""
    found: dict[int, tuple[int, int, int]] = {}  # pid -> (ppid, CPU ticks, RSS pages)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # from the state on: ppid is [1]
        except OSError:
            continue
        found[int(stat.parent.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[21]))
    family, mine = [], {pid}
    grew = True
    while grew:
        grew = False
        for p, (ppid, _, _) in found.items():
            if ppid in mine and p not in mine:
                mine.add(p)
                grew = True
    for p in mine:
        if p in found:
            family.append([p, found[p][1], found[p][2]])
    return family


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of the process and of its descendants still running (its workers)."""
    return sum(ticks for _, ticks, _ in _family(pid)) / os.sysconf("SC_CLK_TCK")


def workers_rss_kb(pid: int) -> int:
    """The memory of the process's descendants (the workers that draw pictures or think for computers): their
    proportional set sizes, so the pages a forkserver's children share are counted once, not in each."""
    total = 0
    for p, _, pages in _family(pid):
        if p == pid:
            continue
        try:
            rollup = Path(f"/proc/{p}/smaps_rollup").read_text()
            total += next(int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:"))
        except (OSError, StopIteration):
            total += pages * os.sysconf("SC_PAGE_SIZE") // 1024
    return total


async def people(args, folder: Path) -> dict:
    """`--people`: `--games` live games in as many channels, `--users` people, `--in-flight` of them at once,
    `--rate` interactions per second; `--warmup` seconds of it first (games move on), then `--seconds`
    measured. Prints per kind the latency percentiles, the interactions not answered within Discord's 3 s,
    the bot's CPU per interaction, its memory per live game and its full collections."""
    users = [FakeUser(USER + i, f"P{i}") for i in range(args.users)]
    if args.processes == 1:
        fake = FakeDiscord(guild_id=GUILD, users=users, channels=args.games, rate_limits=True,
                           record_requests=False, keep_outputs=2000, token="bench-token")
    else:  # a guild per shard, the games shared out among them (channel ids apart from the users')
        guilds = shard_guilds(args.processes)
        channels = [[g + 1 + i for i in range(n, args.games, args.processes)] for n, g in enumerate(guilds)]
        fake = FakeDiscord(guild_id=guilds[0], channel_ids=channels[0], more_guilds=dict(zip(guilds[1:], channels[1:])),
                           users=users, rate_limits=True, record_requests=False, keep_outputs=2000,
                           token="bench-token")
    where = await database(folder)
    port = free_port() if args.metrics else None
    async with fake, bot_processes(fake, folder, where, args.processes,
                                   **({"METRICS_PORT": str(port)} if port else {})) as bots, scraping(port):
        if args.processes == 1:
            await fake.wait_for_ready(timeout=60)
        else:
            await fake.wait_until(lambda: all(fake.gateway.serving(g) for g in fake.guild_ids) and fake.commands,
                                  timeout=120, what="every shard connected")
        await asyncio.sleep(3)
        rss_empty = bots.rss()
        games = await open_tables(fake, users, args.games)
        crowd = People(fake, games, args.rate)

        async def freezing() -> None:
            # What the fake Discord gathers (the channels, their messages) lives as long as the run: frozen
            # every 10 s, out of this process's full collections, whose pauses (seconds in a long warm-up)
            # stall the fake Discord's answers and count against the bot.
            while True:
                await asyncio.sleep(10)
                gc.freeze()
        freezer = asyncio.ensure_future(freezing())
        if args.warmup:
            await crowd.run(args.in_flight, args.warmup)
        await asyncio.sleep(3)
        gc.collect()
        gc.freeze()
        moves_before = await moves_in(where)
        crowd.reset()
        cpu0, at0, monitor0 = bots.cpu(), time.time(), bots.monitor()
        own0, asked0 = time.process_time(), fake.stats()
        rss, workers = [bots.rss()], [bots.workers()]
        # What the RSS is made of, from the monitor's latest write: Python's objects (allocated blocks, in
        # thousands), the C allocator's live and free memory (MB): growth in RSS that none of them shows is
        # neither the games nor a leak of objects.
        inside = [_inside(monitor0)]
        lags: list[float] = []

        async def lag() -> None:  # the benchmark's own loop: how late a 50 ms sleep wakes
            while True:
                at = time.monotonic()
                await asyncio.sleep(0.05)
                lags.append(time.monotonic() - at - 0.05)
        lagger = asyncio.ensure_future(lag())

        async def sample() -> None:
            while True:
                await asyncio.sleep(10)
                rss.append(bots.rss())
                workers.append(bots.workers())
                inside.append(_inside(bots.monitor()))
        sampler = asyncio.ensure_future(sample())
        await crowd.run(args.in_flight, args.seconds)
        sampler.cancel(), lagger.cancel(), freezer.cancel()
        took, cpu = time.time() - at0, bots.cpu() - cpu0
        own = time.process_time() - own0
        await asyncio.sleep(WRITE_WAIT)
        monitor, moves = bots.monitor(), await moves_in(where)
        if args.keep_monitor:
            Path(args.keep_monitor).write_text(json.dumps(monitor))
        rss.append(bots.rss())
        done, asked = crowd.interactions(), fake.stats()
        full = [ms for at, ms in monitor.get("gc_full", []) if at >= at0]
        by_gen = [a - b for a, b in zip(monitor.get("gc_runs_by_generation", [0] * 3),
                                        monitor0.get("gc_runs_by_generation", [0] * 3))]
        return {
            "games": args.games, "users": args.users, "in_flight": args.in_flight, "rate_asked": args.rate,
            "processes": args.processes,
            "seconds": round(took), "moves_per_game_at_start": round(moves_before / args.games, 1),
            "interactions_per_s": round(done / took, 1), "moves_per_s": round((moves - moves_before) / took, 1),
            "first_callback_ms": {k: percentiles(v) for k, v in crowd.first.items()},
            "answer_filled_ms": {k: percentiles(v) for k, v in crowd.filled.items()},
            "count": {k: len(v) for k, v in crowd.first.items()},
            "not_answered_within_3s": crowd.late, "no_answer_at_all": crowd.failed,
            "no_answer_by_kind": dict(crowd.failed_kinds),
            "cpu_ms_per_interaction": round(1000 * cpu / max(1, done), 2), "cpu_share": round(cpu / took, 2),
            "rss_mb_empty": round(rss_empty / 1024), "rss_mb_samples": [round(r / 1024) for r in rss],
            "rss_kb_per_live_game": round((rss[-1] - rss_empty) / args.games),
            # The worker processes (pictures, computers' thought): the same however many games are live.
            "rss_mb_workers": [round(r / 1024) for r in workers],
            "memory_samples": [*inside, _inside(monitor)],  # [Python blocks (thousands), malloc used MB, free
            # MB, the open games' text MB (cooled), their newest moves' MB]
            "gc_collections_by_generation": by_gen, "gc_full_longest_ms": max(full, default=None),
            "gc_full_ms": full[:20],
            "loop_pauses_over_100ms": _window(monitor, at0),
            # background work held back while people's clicks queued: [how many, mean ms, how many waited
            # until the limit] in the window, and the longest ms over the whole run
            "background_waited": _waited(monitor0, monitor),
            "young_collections": _young(monitor0, monitor, at0),  # MONITOR_YOUNG=1: what they walk
            "tasks": monitor.get("tasks"), "census": monitor.get("census"),
            # The bot's requests to Discord a second, by route (an answer, a redraw, a table edit, a ping...).
            "requests_per_s_by_route": {route: round((n - asked0["by_route"].get(route, 0)) / took, 1)
                                        for route, n in asked["by_route"].items()
                                        if n > asked0["by_route"].get(route, 0)},
            # The benchmark's own process (the fake Discord and the people): a long pause here delays Discord's
            # side, and counts against the bot's 3 s.
            "bench_gc_full_ms": sorted(BENCH_GC.full_ms, reverse=True)[:5],
            "bench_cpu_share": round(own / took, 2), "bench_loop_lag_ms": percentiles(lags),
        }


WRITE_WAIT = 3  # seconds: the monitor writes every 2
SCRAPE_EVERY = 5.0  # seconds between scrapes of the bot's metrics (--metrics)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.asynccontextmanager
async def scraping(port: int | None):
    """Scrape http://127.0.0.1:port/metrics every SCRAPE_EVERY seconds meanwhile, as Prometheus would."""
    import urllib.request

    def scrape() -> None:
        with contextlib.suppress(OSError), urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
            r.read()

    async def keep_scraping() -> None:
        while True:
            await asyncio.to_thread(scrape)
            await asyncio.sleep(SCRAPE_EVERY)

    task = asyncio.ensure_future(keep_scraping()) if port else None
    try:
        yield
    finally:
        if task is not None:
            task.cancel()


def _monitor(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def _inside(monitor: dict) -> list[float | None]:
    malloc = monitor.get("malloc_mb") or {}
    blocks = monitor.get("python_blocks")
    held = monitor.get("held") or {}  # (weighed every 30 s)
    mb = [round(held[k] / 2**20, 1) if k in held else None for k in ("cooled_bytes", "recent_bytes")]
    return [round(blocks / 1000) if blocks is not None else None, malloc.get("used"), malloc.get("free"), *mb]


def per(after: dict, before: dict, key: str, moves: int) -> float:
    return round((after[key] - before[key]) / max(1, moves), 3)


async def fill(where: str, count: int, channel: int) -> None:
    """`count` stored games in channels of their own: a tenth still open, the rest ended; and one open
    in `channel`, where the first click goes."""
    store = await Store.open(where, **({} if "://" in where else {"synchronous": "OFF"}))
    try:
        state, _ = new_game(["1", "2"], seed=1)
        table = Table(host="1", seats=(Seat(id="1", name="A"), Seat(id="2", name="B")), seed=1)
        for i in range(count):
            record = await store.games.create_game(GUILD, channel if i == count - 1 else 10**9 + i, table, state)
            if i != count - 1 and i % 10:
                await store.games.finish_game(record.id, record.version, "cancelled")
    finally:
        await store.close()


async def startup(count: int, folder: Path) -> dict:
    user = FakeUser(USER, "P0")
    fake = FakeDiscord(guild_id=GUILD, users=[user], rate_limits=True, record_requests=False, token="bench-token")
    async with fake:
        where = await database(folder)
        await fill(where, count, fake.channel_id)
        async with bot_process(fake, folder, where) as proc:
            await fake.wait_for_ready(timeout=120)
            ready = time.monotonic()
            result = await fake.slash(user.id, "augsburg status", settle=False)
            await fake.wait_answered(result, timeout=60)
            return {"stored_games": count, "first_answer_after_ready_ms": round(1000 * (time.monotonic() - ready)),
                    "rss_mb": round(rss_kb(proc.pid) / 1024)}


class _BenchGC:
    """The benchmark process's own full collections (ms), so its pauses are not mistaken for the bot's."""

    def __init__(self) -> None:
        self.full_ms: list[float] = []
        self._start = 0.0
        gc.callbacks.append(self._seen)

    def _seen(self, phase: str, info: dict) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.full_ms.append(round(1000 * (time.perf_counter() - self._start), 1))


BENCH_GC = _BenchGC()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--rate", type=float, default=50.0, help="decisions attempted per second")
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--startup", default="10000,100000", help="stored games for the start-up runs")
    parser.add_argument("--keep-monitor", help="copy the bot's monitor file here (MONITOR_CENSUS=1 adds a census)")
    parser.add_argument("--bot-root", help="measure the bot of another checkout (e.g. the one before a change)")
    parser.add_argument("--bot-python", help="run the bot on another interpreter (a virtual environment's "
                        "python with the project's packages); the load is made by this one")
    parser.add_argument("--postgres", metavar="URL", help="run the bot on PostgreSQL: a server's admin URL")
    parser.add_argument("--people", action="store_true", help="load shaped like people's (issue 44)")
    parser.add_argument("--in-flight", type=int, default=64, help="--people: people waiting for an answer at once")
    parser.add_argument("--warmup", type=float, default=30.0, help="--people: seconds of load before measuring")
    parser.add_argument("--processes", type=int, default=1, help="--people --postgres: bot processes, each "
                        "owning one Discord shard of as many (their CPU and memory summed)")
    parser.add_argument("--metrics", action="store_true", help="--people: with the bot's Prometheus metrics on, "
                        "scraped every 5 s")
    args = parser.parse_args()
    if args.processes != 1 and not (args.people and args.postgres):
        parser.error("--processes needs --people and --postgres (SQLite is one process's)")
    global BOT_ROOT, BOT_PYTHON, POSTGRES
    if args.bot_root:
        BOT_ROOT = Path(args.bot_root).resolve()
    if args.bot_python:
        if not (os.path.isfile(args.bot_python) and os.access(args.bot_python, os.X_OK)):
            parser.error(f"--bot-python: no interpreter at {args.bot_python}")
        BOT_PYTHON = args.bot_python
    POSTGRES = args.postgres
    try:
        with tempfile.TemporaryDirectory() as tmp:
            if args.people:
                print(json.dumps({"people": await people(args, _fresh(tmp, "people"))}))
            else:
                print(json.dumps({"load": await load(args, _fresh(tmp, "load"))}))
            for count in [int(c) for c in args.startup.split(",") if c]:
                print(json.dumps({"startup": await startup(count, _fresh(tmp, f"start{count}"))}))
    finally:
        await drop_databases()


def _watched(monitor_file: Path) -> tuple[int | None, dict | None]:
    """The memory blocks the bot's Python objects take and what the C allocator holds, as its monitor last
    wrote (None: not written)."""
    try:
        monitor = json.loads(monitor_file.read_text())
    except (OSError, ValueError):
        return None, None
    return monitor.get("python_blocks"), monitor.get("malloc_mb")


def _young(before: dict, after: dict, since: float) -> dict | None:
    """With MONITOR_YOUNG: the objects in the young generation at the collections counted in the window (p50,
    the largest, how many counted) and their kinds, on average per collection counted, and the objects in the
    older generations then (p50, the largest). None without it."""
    if "young" not in after:
        return None
    window = [counts for at, *counts in after["young"]["sizes"] if at >= since]
    sizes = sorted(counts[0] for counts in window)
    olds = sorted(counts[1] for counts in window if len(counts) > 1)  # (none from a bot before they were counted)
    counted = after["young"]["counted"] - before.get("young", {}).get("counted", 0)
    old = before.get("young", {}).get("kinds", {})
    kinds = {k: round((n - old.get(k, 0)) / max(1, counted)) for k, n in after["young"]["kinds"].items()}
    return {"counted": len(sizes), "p50": sizes[len(sizes) // 2] if sizes else None,
            "max": sizes[-1] if sizes else None,
            # what a full collection would walk besides (generations 1 and 2, the frozen ones not counted)
            "older_p50": olds[len(olds) // 2] if olds else None, "older_max": olds[-1] if olds else None,
            "kinds": dict(sorted(kinds.items(), key=lambda kv: -kv[1])[:20])}


def _waited(before: dict, after: dict) -> list | None:
    """[waits in the window, their mean ms, the longest ms of the whole run, how many in the window waited
    until the limit] (None: a bot from before people first)."""
    if "background_waits" not in after:
        return None
    n0, s0, _, limit0 = before.get("background_waits", [0, 0.0, 0.0, 0])
    n, s, longest, at_limit = after["background_waits"]
    return [n - n0, round(1000 * (s - s0) / max(1, n - n0), 1), longest, at_limit - limit0]


def _window(monitor: dict, since: float) -> list | None:
    """[pauses over 50 ms, the longest, [ms, the loop thread's CPU ms] of those over 100 ms] from `since`
    on (None: a bot from before the monitor noted when)."""
    if "long_pauses" not in monitor:
        return None
    late = [(ms, *cpu) for at, ms, *cpu in monitor["long_pauses"] if at >= since]
    return [len(late), max((ms for ms, *_ in late), default=0.0), [list(p) for p in late if p[0] > 100]]


def _fresh(tmp: str, name: str) -> Path:
    path = Path(tmp) / name
    path.mkdir()
    return path


if __name__ == "__main__":
    asyncio.run(main())
