"""Records benchmark: `python tests/bench_records.py [--games 10000] [--people 300]`.

Stores GAMES finished games on one server (2-5 seats: people from a pool of PEOPLE, some computers), each
finished through the store as the bot finishes one (its results and totals written then), and prints p50/p99
of the leaderboard's queries and of the whole `/augsburg records leaderboard` command through the bot and
the fake Discord. Target: p99 <= 50 ms. The leaderboard reads one row per person (player_totals), not the
games: its time does not grow with the number of games.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
sys.path[:0] = [str(ROOT), str(TESTS)]

from support.bot_support import long_lived, make_bot  # noqa: E402
from support.fake_discord import FakeUser, Harness  # noqa: E402

from engine import apply, new_game  # noqa: E402
from engine.randomplay import random_action  # noqa: E402
from storage import Seat, Store, Table  # noqa: E402

GUILD = 900_000_000_000_000_001  # the fake Discord's server
USER = 1001


def finished(players: int, seed: int):
    """A game played to its end at random (engine only), with its log left out: moves 0, as if new."""
    rnd = random.Random(seed)
    ids = [f"s{i}" for i in range(players)]
    state, _ = new_game(ids, seed=seed)
    while state.phase != "game_over":
        state = apply(state, *random_action(state, rnd)).state
    return state.model_copy(update={"moves": 0})


def renamed(state, ids: list[str]):
    mapping = {p.id: new for p, new in zip(state.players, ids, strict=True)}
    return state.model_copy(update={"players": [p.model_copy(update={"id": mapping[p.id]}) for p in state.players],
                                    "winners": [mapping[w] for w in state.winners]})


async def fill(path: Path, games: int, people: int) -> None:
    store = await Store.open(path, synchronous="OFF")
    templates = [finished(n, seed) for seed, n in enumerate((2, 3, 4, 5, 2, 3, 4, 5))]
    rnd = random.Random(1)
    pool = [str(10_000 + i) for i in range(people)]
    started = time.perf_counter()
    for g in range(games):
        state = rnd.choice(templates)
        seats = [Seat(id=p, name=f"Player {p}") for p in rnd.sample(pool, len(state.players))]
        if rnd.random() < 0.3:  # a computer in the last seat
            seats[-1] = Seat(id=f"ai{len(seats)}", kind="computer", number=len(seats))
        table = Table(host=seats[0].id, seats=tuple(seats), seed=g)
        record = await store.games.create_game(GUILD, 1_000_000 + g, table, renamed(state, [s.id for s in seats]))
        await store.games.finish_game(record.id, record.version, "finished")
    print(f"stored {games} finished games in {time.perf_counter() - started:.1f} s")
    await store.close()


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


async def measure(path: Path, runs: int) -> dict[str, float]:
    store = await Store.open(path)
    rows = await store.db.fetchone("SELECT COUNT(*) AS n FROM player_results")
    plan = await store.db.fetchall("EXPLAIN QUERY PLAN SELECT player FROM player_totals WHERE guild_id = ? AND"
                                 " computer = 0 ORDER BY wins DESC LIMIT 10", (GUILD,))
    print(f"{rows['n']} result rows; leaderboard plan: {' / '.join(r['detail'] for r in plan)}")
    query = []
    for i in range(runs):
        t = time.perf_counter()
        await store.records.leaderboard(GUILD, (i % 5) * 10, 10)
        await store.records.leaderboard(GUILD, 0, 0)
        await store.records.computer_totals(GUILD)
        query.append((time.perf_counter() - t) * 1000)
    await store.close()
    h = await Harness.create(make_bot(path), users=[FakeUser(USER, "Ada")], ignore=(long_lived,))
    try:
        command, rated = [], []
        for _ in range(runs):
            t = time.perf_counter()
            r = await h.slash(USER, "augsburg records leaderboard", wins=True)
            command.append((time.perf_counter() - t) * 1000)
            assert r.answer.ephemeral and "leaderboard" in r.answer.content, r.answer
            t = time.perf_counter()
            r = await h.slash(USER, "augsburg records leaderboard")  # by rating (issue 46)
            rated.append((time.perf_counter() - t) * 1000)
            assert r.answer.ephemeral and "ratings on this server" in r.answer.content, r.answer
        h.assert_all_answered()
    finally:
        await h.close()
    return {"query p50": p(query, 50), "query p99": p(query, 99),
            "command p50": p(command, 50), "command p99": p(command, 99),
            "rating command p50": p(rated, 50), "rating command p99": p(rated, 99)}


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--people", type=int, default=300)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await fill(path, args.games, args.people)
        figures = await measure(path, args.runs)
    for name, ms in figures.items():
        print(f"leaderboard {name}: {ms:.2f} ms")
    ok = figures["command p99"] <= 50
    print("target p99 <= 50 ms:", "met" if ok else "MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
