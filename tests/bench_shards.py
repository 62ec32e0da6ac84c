"""Sharded load benchmark (issue 28): `python tests/bench_shards.py --postgres URL [--games 500] [--rate 50]
[--seconds 120]`.

Two `python -m bot` processes (SHARD_COUNT=2, one shard each) on one PostgreSQL database, against the fake
Discord with rate limits on and a guild per shard, `--games` live tables in each. The driver takes `--rate`
decisions per second over both (as bench_bot.py does: open the private panel, click a decision) for
`--seconds`; halfway, shard 1's process is killed with -9 and started again at once. It prints, per
process: click-to-answer latency (p50/p99, outside the restart: from `--seconds`' start to the kill, and
after shard 1 answered again); REST calls per decision that count against Discord's global limit, and the
busiest second of them over both processes; how long after its restart shard 1 answered a click again;
and acknowledged decisions (a ✅ answer) missing from the database afterwards (0 expected). `--single`
also runs one process owning both shards with 2 x `--games` tables, for comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

import bench_bot  # noqa: E402
from bench_bot import answered, decide, open_table, per  # noqa: E402
from support.fake_discord import FakeDiscord, FakeUser, HarnessError, stop_process  # noqa: E402
from support.load import percentiles  # noqa: E402

GUILDS = ((731_000 * 2) << 22, (731_000 * 2 + 1) << 22)  # a guild of shard 0 and one of shard 1 (of 2)
USER = 731_000_000_000_001_000


@contextlib.asynccontextmanager
async def processes(fake: FakeDiscord, folder: Path, where: str, shard_ids: list[str]):
    """One bot process per entry of `shard_ids` ("0", "1", or "0,1"); yields a function that (re)starts one."""
    running: dict[str, asyncio.subprocess.Process] = {}

    async def start(ids: str) -> asyncio.subprocess.Process:
        env = {**os.environ, **fake.env("bench-token"), "PYTHONPATH": str(TESTS.parent), "DATABASE_URL": where,
               "SHARD_COUNT": "2", "SHARD_IDS": ids, "TURN_TIMEOUT_SECONDS": "0", "LOG_LEVEL": "WARNING"}
        with (folder / f"bot-{ids}.log").open("ab") as log:
            running[ids] = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", env=env, cwd=folder, stdout=log, stderr=asyncio.subprocess.STDOUT)
        return running[ids]

    for ids in shard_ids:
        await start(ids)
    try:
        yield start, running
    finally:
        for proc in running.values():
            await stop_process(proc, 20)


async def acknowledged_in_db(where: str, acked: dict[int, int]) -> int:
    """Acknowledged decisions (per channel) missing from the database: sum of what the log lacks."""
    import asyncpg

    con = await asyncpg.connect(where)
    try:
        rows = await con.fetch("SELECT g.channel_id, count(*) AS n FROM actions a JOIN games g ON g.id = a.game_id"
                               " WHERE a.actor = 'player' GROUP BY g.channel_id")
    finally:
        await con.close()
    stored = {r["channel_id"]: r["n"] for r in rows}
    return sum(max(0, n - stored.get(channel, 0)) for channel, n in acked.items())


async def run(args, folder: Path, shard_ids: list[str], games_per_guild: int, kill: bool) -> dict:
    users = [FakeUser(USER + i, f"P{i}") for i in range(args.users)]
    channels = [[GUILDS[g] + 1 + i for i in range(games_per_guild)] for g in (0, 1)]  # ids apart from users'
    fake = FakeDiscord(guild_id=GUILDS[0], channel_ids=channels[0], more_guilds={GUILDS[1]: channels[1]},
                       users=users, rate_limits=True, record_requests=False, keep_outputs=2000, token="bench-token")
    where = await bench_bot.database(folder)
    async with fake, processes(fake, folder, where, shard_ids) as (start, running):
        await fake.wait_until(lambda: all(fake.gateway.serving(g) for g in GUILDS) and fake.commands, timeout=120,
                              what="both shards connected")
        games: list[tuple[int, int, list[int]]] = []  # (shard, table, players)
        every = [(s, c) for s in (0, 1) for c in channels[s]]
        for first in range(0, len(every), 50):
            batch = []
            for i, (shard, channel) in enumerate(every[first:first + 50], start=first):
                players = [users[(2 * i) % len(users)].id, users[(2 * i + 1) % len(users)].id]
                batch.append((shard, open_table(fake, channel, players, i % 3 == 0), players))
            tables = await asyncio.gather(*(b[1] for b in batch))
            games += [(b[0], t, b[2]) for t, b in zip(tables, batch)]
        await asyncio.sleep(5)
        before = fake.stats()
        rnd, latencies, filled = random.Random(1), {0: [], 1: []}, []
        acked: dict[int, int] = {}
        killed_at = restarted_at = back_after = watcher = None
        in_flight: set[asyncio.Task] = set()
        attempts, started = 0, time.monotonic()

        async def one(shard: int, table: int, players: list[int]) -> None:
            measured = latencies[shard] if restarted_at is None or back_after is not None else []
            try:
                done = await decide(fake, table, players, rnd, measured, filled)
            except (TimeoutError, HarnessError):  # sent to shard 1 while it was down: Discord says it failed
                return
            if done:
                channel = fake.message(table).channel_id
                acked[channel] = acked.get(channel, 0) + 1

        while (elapsed := time.monotonic() - started) < args.seconds:
            if kill and killed_at is None and elapsed >= args.seconds / 2:
                running["1"].kill()  # kill -9, then what a supervisor does: start it again at once
                await running["1"].wait()
                killed_at = restarted_at = time.monotonic()
                await start("1")
                watcher = asyncio.ensure_future(answers_again(fake, games))
            if back_after is None and killed_at is not None and watcher.done():
                back_after = watcher.result() - restarted_at
            if attempts < elapsed * args.rate and len(in_flight) < 500:
                attempts += 1
                shard, table, players = games[rnd.randrange(len(games))]
                if kill and killed_at is not None and back_after is None and shard == 1:
                    continue  # nothing is sent to the shard while it is down (its clicks would only fail); the
                    # attempt counts, so the loop paces itself (and the fake, on this loop, keeps serving)
                task = asyncio.ensure_future(one(shard, table, players))
                in_flight.add(task)
                task.add_done_callback(in_flight.discard)
            else:
                await asyncio.sleep(0.002)
        await asyncio.gather(*in_flight, return_exceptions=True)
        await asyncio.sleep(3)
        after = fake.stats()
        moves = sum(acked.values())
        return {
            "processes": len(shard_ids), "games": 2 * games_per_guild, "seconds": args.seconds,
            "decisions_acknowledged": moves,
            "click_to_answer_ms_by_shard": {str(s): percentiles(v) for s, v in latencies.items()},
            "global_calls_per_decision": per(after, before, "global_limited", moves),
            "peak_global_per_second": after["peak_global_per_second"],
            "rate_limited": after["rate_limited"] - before["rate_limited"],
            "shard_1_answered_again_after_restart_s": None if back_after is None else round(back_after, 2),
            "acknowledged_missing_from_db": await acknowledged_in_db(where, acked),
            "delivered_twice": len(fake.gateway.delivered_twice),
        }


async def answers_again(fake: FakeDiscord, games) -> float:
    """When shard 1's first table answers a click again (after its process's restart)."""
    _shard, table, players = next(g for g in games if g[0] == 1)
    while True:
        await fake.wait_until(lambda: fake.gateway.serving(GUILDS[1]), timeout=120, what="shard 1 again")
        try:
            await answered(fake, await fake.click(players[0], table, label="My hand & actions", settle=False), [])
            return time.monotonic()
        except (TimeoutError, HarnessError):
            await asyncio.sleep(0.1)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", metavar="URL", required=True, help="a PostgreSQL server's admin URL")
    parser.add_argument("--games", type=int, default=500, help="live tables per process")
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--rate", type=float, default=50.0, help="decisions attempted per second, both together")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--single", action="store_true", help="also one process owning both shards")
    args = parser.parse_args()
    bench_bot.POSTGRES = args.postgres
    try:
        with tempfile.TemporaryDirectory() as tmp:
            two = await run(args, _fresh(tmp, "two"), ["0", "1"], args.games, kill=True)
            print(json.dumps({"two_processes": two}))
            if args.single:
                one = await run(args, _fresh(tmp, "one"), ["0,1"], args.games, kill=False)
                print(json.dumps({"one_process": one}))
    finally:
        await bench_bot.drop_databases()


def _fresh(tmp: str, name: str) -> Path:
    path = Path(tmp) / name
    path.mkdir()
    return path


if __name__ == "__main__":
    asyncio.run(main())
