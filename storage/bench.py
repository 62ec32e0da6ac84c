"""Storage benchmark: `python -m storage.bench [--dir DIR]`.

Prints commit latency (median, 99th percentile) and commits per second with
1,000 active games; the time to list and load 10,000 stored games (what a bot
restart costs); and the database bytes per finished 5-player game.
Targets: p99 commit <= 5 ms; restoring 10,000 games <= 3 s; <= 200 KB a game.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from engine import apply, new_game
from engine.randomplay import random_action

from .records import GameRecord, Seat, Table
from .store import Store


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
    record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(), result.state,
                                       events=result.events)
    return record, time.perf_counter() - t0


async def commits(path: Path, games: int, count: int, synchronous: str) -> None:
    rnd = random.Random(1)
    store = await Store.open(path, synchronous=synchronous)
    try:
        active = [await _new(store, c, c, rnd.randint(2, 5)) for c in range(games)]
        times = []
        started = time.perf_counter()
        for _ in range(count):
            i = rnd.randrange(len(active))
            record, took = await _step(store, active[i], rnd)
            times.append(took)
            if record.state.phase == "game_over":  # committing the last move finished it
                record = await _new(store, games + len(times), len(times), 4)
            active[i] = record
        wall = time.perf_counter() - started
    finally:
        await store.close()
    times.sort()
    print(f"commit (synchronous={synchronous}, {games} active games): median {statistics.median(times) * 1e3:.2f} ms,"
          f" p99 {times[int(0.99 * len(times))] * 1e3:.2f} ms, {count / wall:.0f} commits/s (engine included),"
          f" {len(times) / sum(times):.0f} commits/s (commit alone)")


async def restore(path: Path, games: int) -> None:
    rnd = random.Random(2)
    store = await Store.open(path, synchronous="OFF")  # filling only; the timing below opens afresh
    try:
        for c in range(games):
            record = await _new(store, c, c, rnd.randint(2, 5))
            for _ in range(rnd.randint(0, 20)):
                record, _ = await _step(store, record, rnd)
    finally:
        await store.close()
    t0 = time.perf_counter()
    store = await Store.open(path)
    loaded, lost = await store.games.active_games()
    took = time.perf_counter() - t0
    await store.close()
    assert len(loaded) == games and not lost
    print(f"restore: listed, loaded and verified {len(loaded)} games in {took:.2f} s")


async def size(path: Path, games: int) -> None:
    rnd = random.Random(3)
    store = await Store.open(path, synchronous="OFF")
    try:
        for c in range(games):
            record = await _new(store, c, c, 5)
            while record.state.phase != "game_over":
                record, _ = await _step(store, record, rnd)
        await store.db.compact()
    finally:
        await store.close()
    bytes_ = path.stat().st_size
    print(f"size: {bytes_ / games / 1024:.1f} KB per finished 5-player game ({games} games, {bytes_} bytes)")


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", help="where to put the benchmark databases (default: a temporary folder)")
    parser.add_argument("--commits", type=int, default=5000)
    parser.add_argument("--restore-games", type=int, default=10_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        for sync in ("FULL", "NORMAL"):
            await commits(folder / f"commits-{sync}.sqlite3", 1000, args.commits, sync)
        await restore(folder / "restore.sqlite3", args.restore_games)
        await size(folder / "size.sqlite3", 50)


if __name__ == "__main__":
    asyncio.run(main())
