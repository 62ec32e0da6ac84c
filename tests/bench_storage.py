"""Storage benchmark, SQLite and PostgreSQL side by side: `python tests/bench_storage.py [--postgres URL]`.

Prints, for each backend: commit latency (median, 99th percentile) of a real move (its state and events)
with 1,000 live games, and commits per second; the time to list, load and verify 3,000 stored games (what
a restart and the first use of each table cost); and the bytes per finished 5-player game.
Targets: p99 commit <= 10 ms on PostgreSQL and <= 1.5x SQLite's in the same run; loading 3,000 games <= 3 s.

`--postgres` is a server's URL (its admin database, e.g. postgresql://postgres@/postgres?host=/run/postgresql):
the benchmark makes databases of its own there and drops them. Default: TEST_POSTGRES_URL; without one,
only SQLite is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import apply, new_game  # noqa: E402
from engine.randomplay import random_action  # noqa: E402
from storage import GameRecord, Seat, Store, Table  # noqa: E402
from storage.sqlite.database import SQLiteDatabase  # noqa: E402


async def _new(store: Store, channel: int, seed: int, players: int) -> GameRecord:
    ids = [f"user{channel}-{i}" for i in range(players)]
    state, _ = new_game(ids, seed=seed)
    table = Table(host=ids[0], seats=tuple(Seat(id=i, name=i) for i in ids), seed=seed)
    return await store.games.create_game(1, channel, table, state)


async def _step(store: Store, record: GameRecord, rnd: random.Random) -> tuple[GameRecord, float]:
    player, action = random_action(record.state, rnd)
    result = apply(record.state, player, action)
    t0 = time.perf_counter()
    # With the events the move produced, as the bot stores them (what catching up and the log read).
    record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                             result.state, events=result.events)
    return record, time.perf_counter() - t0


async def commits(database: str, games: int, count: int, **options) -> list[float]:
    """Commit times of `count` random moves spread over `games` live games, sorted."""
    rnd = random.Random(1)
    store = await Store.open(database, **options)
    try:
        active = [await _new(store, c, c, rnd.randint(2, 5)) for c in range(games)]
        times = []
        for _ in range(count):
            i = rnd.randrange(len(active))
            record, took = await _step(store, active[i], rnd)
            times.append(took)
            if record.state.phase == "game_over":  # committing the last move finished it
                record = await _new(store, games + len(times), len(times), 4)
            active[i] = record
    finally:
        await store.close()
    return sorted(times)


async def load(database: str, games: int, **options) -> float:
    """Seconds to open the database and list, load and verify its `games` open games."""
    rnd = random.Random(2)
    store = await Store.open(database, **options)
    try:
        for c in range(games):
            record = await _new(store, c, c, rnd.randint(2, 5))
            for _ in range(rnd.randint(0, 20)):
                record, _ = await _step(store, record, rnd)
    finally:
        await store.close()
    t0 = time.perf_counter()
    store = await Store.open(database)
    loaded, lost = await store.games.active_games()
    took = time.perf_counter() - t0
    await store.close()
    assert len(loaded) == games and not lost
    return took


async def size(database: str, games: int, **options) -> int:
    """Bytes the database takes per finished 5-player game."""
    rnd = random.Random(3)
    store = await Store.open(database, **options)
    try:
        empty = await _bytes(store)
        for c in range(games):
            record = await _new(store, c, c, 5)
            while record.state.phase != "game_over":
                record, _ = await _step(store, record, rnd)
        total = await _bytes(store) - empty
    finally:
        await store.close()
    return total // games


async def _bytes(store: Store) -> int:
    """The database's size on disk (PostgreSQL's without its write-ahead log, as SQLite's once compacted)."""
    if isinstance(store.db, SQLiteDatabase):
        await store.db.compact()
        return Path(store.db.path).stat().st_size
    return (await store.db.fetchone("SELECT pg_database_size(current_database()) AS n"))["n"]


@asynccontextmanager
async def databases(postgres: str | None, folder: Path):
    """A factory of fresh databases: (label, URL, options) for each backend measured."""
    made: list[str] = []

    async def fresh(kind: str, name: str) -> str:
        if kind == "sqlite":
            return f"sqlite:///{folder / f'{name}.sqlite3'}"
        import asyncpg

        db = f"augsburg_bench_{os.getpid()}_{name}"
        con = await asyncpg.connect(postgres)
        try:
            await con.execute(f"DROP DATABASE IF EXISTS {db}")
            await con.execute(f"CREATE DATABASE {db}")
        finally:
            await con.close()
        made.append(db)
        return urlunsplit(urlsplit(postgres)._replace(path=f"/{db}"))

    try:
        yield fresh
    finally:
        if made:
            import asyncpg

            con = await asyncpg.connect(postgres)
            try:
                for db in made:
                    await con.execute(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
            finally:
                await con.close()


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default=os.environ.get("TEST_POSTGRES_URL"),
                        help="a PostgreSQL server's URL (default: TEST_POSTGRES_URL); without one, SQLite only")
    parser.add_argument("--dir", help="where to put the SQLite databases (default: a temporary folder)")
    parser.add_argument("--games", type=int, default=1000, help="live games while committing")
    parser.add_argument("--commits", type=int, default=5000)
    parser.add_argument("--load-games", type=int, default=3000)
    parser.add_argument("--size-games", type=int, default=50)
    args = parser.parse_args(argv)
    backends = ["sqlite"] + (["postgresql"] if args.postgres else [])
    if not args.postgres:
        print("PostgreSQL: not measured (pass --postgres URL, or set TEST_POSTGRES_URL)")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        async with databases(args.postgres, Path(tmp)) as fresh:
            p99 = {}
            for kind in backends:
                times = await commits(await fresh(kind, "commits"), args.games, args.commits)
                p99[kind] = times[int(0.99 * len(times))]
                print(f"{kind:10} commit of a move ({args.games} live games): median {ms(statistics.median(times))},"
                      f" p99 {ms(p99[kind])}, max {ms(times[-1])}, {len(times) / sum(times):.0f} commits/s")
            if "postgresql" in p99:
                print(f"{'':10} PostgreSQL's p99 is {p99['postgresql'] / p99['sqlite']:.2f}x SQLite's")
            for kind in backends:
                took = await load(await fresh(kind, "load"), args.load_games)
                print(f"{kind:10} load: opened, listed, loaded and verified {args.load_games} games in {took:.2f} s")
            for kind in backends:
                per_game = await size(await fresh(kind, "size"), args.size_games)
                print(f"{kind:10} size: {per_game / 1024:.1f} KB per finished 5-player game ({args.size_games} games)")


if __name__ == "__main__":
    asyncio.run(main())
