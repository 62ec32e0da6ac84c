"""Ratings (issue 46): the rated-game rule, every scope (across servers, a server, its season), computers at
their fixed marks, seasons, reliability, and each finished game rated exactly once, on both backends."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from support.storage_helpers import table_of, up_to_the_last_move

from engine import apply, new_game
from engine.randomplay import random_action
from storage import GameRecord, Seat, Store, Table, skill
from storage.ratings import ACROSS, calendar_season, rate_game

GUILD = 7


async def some_moves(store: Store, table: Table, seed: int, channel: int, moves: int | None = None,
                     guild: int = GUILD, actors: dict[str, str] | None = None) -> GameRecord:
    """A game of `table` played at random through the store: `moves` decisions, left running (None: to its
    end). `actors`: whose moves (by player) are stored as made by someone else (the clock, a stand-in), so the
    rule about stand-ins can be tried."""
    rnd = random.Random(seed)
    state, _ = new_game(table.players, seed=table.seed)
    record = await store.games.create_game(guild, channel, table, state)
    while record.state is not None and record.state.phase != "game_over" and (moves is None or moves > 0):
        player, action = random_action(record.state, rnd)
        result = apply(record.state, player, action)
        record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                                 result.state, actor=(actors or {}).get(player, "player"))  # type: ignore[arg-type]
        moves = None if moves is None else moves - 1
    return record


async def finish(store: Store, table: Table, seed: int, channel: int, guild: int = GUILD,
                 actors: dict[str, str] | None = None) -> GameRecord:
    """A game of `table` played at random to its end through the store."""
    record = await some_moves(store, table, seed, channel, None, guild, actors)
    assert record.status == "finished"
    return record


async def results(store: Store, game_id: int) -> list[skill.Seated]:
    table = (await store.games.load_game(game_id)).table
    rows = await store.db.fetchall("SELECT player, place, computer, left_game, own_decisions, stood_in"
                                   " FROM player_results WHERE game_id = ? ORDER BY seat", (game_id,))
    return [skill.Seated(r["player"], r["place"], bool(r["computer"]), table.seat(r["player"]).level,
                         bool(r["left_game"]), r["own_decisions"], r["stood_in"]) for r in rows]


async def expected(store: Store, games: list[int]) -> dict[str, skill.Rating]:
    """The ratings the model gives after `games`, in order, from nothing."""
    held: dict[str, skill.Rating] = {}
    for game_id in games:
        seats = await results(store, game_id)
        if not skill.rated(seats):
            continue
        before = [skill.mark(s.level) if s.computer else held.get(s.player, skill.NEW) for s in seats]
        for s, r in zip(seats, skill.rate(seats, before)):
            if not s.computer:
                held[s.player] = r
    return held


async def stored(store: Store, guild: int, season: str = "") -> dict[str, tuple[float, float, int]]:
    rows, total = await store.ratings.board(guild, season, 0, 100)
    assert total == len(rows)
    return {r.player: (round(r.mu, 9), round(r.sigma, 9), r.games) for r in rows}


def close(ratings: dict[str, skill.Rating], counts: dict[str, int]) -> dict[str, tuple[float, float, int]]:
    return {p: (round(r.mu, 9), round(r.sigma, 9), counts[p]) for p, r in ratings.items()}


def test_the_rule_ranks_leavers_and_stood_in_people_last_and_keeps_the_computers_marks():
    seats = [skill.Seated("a", 1, own=10), skill.Seated("b", 2, own=4, stood_in=6),  # 60% by a stand-in
             skill.Seated("c", 3, own=5, stood_in=5), skill.Seated("ai1", 2, computer=True, level="strong"),
             skill.Seated("d", 4, left=True, own=9)]
    assert skill.ranking(seats) == [1, 5, 3, 2, 5]  # b and d share last place; exactly half (c) is not over it
    before = [skill.NEW, skill.NEW, skill.NEW, skill.mark("strong"), skill.NEW]
    after = skill.rate(seats, before)
    assert after[3] == skill.mark("strong")
    assert after[0].mu > skill.NEW.mu > after[1].mu and after[1] == after[4]  # a tie for last: the same change
    assert not skill.rated([skill.Seated("ai1", 1, computer=True), skill.Seated("ai2", 2, computer=True)])
    assert skill.rated([skill.Seated("a", 1), skill.Seated("ai2", 2, computer=True)])
    # The marks are in order, so a person can see where they stand against each level.
    assert skill.mark("easy").ordinal < skill.mark("normal").ordinal < skill.mark("strong").ordinal


async def test_each_finished_game_is_rated_once_across_servers_and_on_its_own(store):
    ids = ["a", "b", "c"]
    g1 = await finish(store, table_of(ids, 11), 1, channel=1)
    g2 = await finish(store, table_of(["b", "c"], 12), 2, channel=2, guild=GUILD + 1)
    g3 = await finish(store, table_of(["c", "a", "b"], 13), 3, channel=3)
    assert await store.ratings.rated_games() == [(g1.id, 3), (g2.id, 2), (g3.id, 3)]
    assert await stored(store, ACROSS) == close(await expected(store, [g1.id, g2.id, g3.id]),
                                                {"a": 2, "b": 3, "c": 3})
    assert await stored(store, GUILD) == close(await expected(store, [g1.id, g3.id]), {"a": 2, "b": 2, "c": 2})
    assert await stored(store, GUILD + 1) == close(await expected(store, [g2.id]), {"b": 1, "c": 1})
    board, _ = await store.ratings.board(GUILD)
    assert [r.ordinal for r in board] == sorted((r.ordinal for r in board), reverse=True)
    mine = await store.ratings.rating(board[-1].player, GUILD)
    assert mine is not None and mine.place == len(board) and await store.ratings.rating("nobody", GUILD) is None
    # Rating a game again changes nothing: its row is taken (the catch-up and a game's end can race).
    before = await stored(store, ACROSS)

    async def again(tx):
        return await rate_game(tx, store.db.dialect, g1.id, 0.0)

    assert await store.db.transaction(again) is False
    assert await store.ratings.catch_up() == 0 and await stored(store, ACROSS) == before


async def test_computers_play_at_their_marks_and_stand_ins_rank_a_person_last(store):
    seats = (Seat(id="a", name="A"), Seat(id="b", name="B"),
             Seat(id="ai1", kind="computer", number=1, level="strong"))
    g1 = await finish(store, Table(host="a", seats=seats, seed=21), 4, channel=1, actors={"b": "stand_in"})
    rows = await results(store, g1.id)
    assert rows[1].stood_in > 0 and rows[1].own == 0 and rows[1].rated_last and not rows[0].rated_last
    assert await stored(store, GUILD) == close(await expected(store, [g1.id]), {"a": 1, "b": 1})
    assert "ai1" not in await stored(store, ACROSS)
    # Computers only: finished, never rated.
    bots = tuple(Seat(id=f"ai{i}", kind="computer", number=i, level="easy") for i in (1, 2))
    g2 = await finish(store, Table(host="x", seats=bots, seed=22), 5, channel=2)
    assert (g2.id, 0) in await store.ratings.rated_games()
    # Reliability: b's decisions were all made by a stand-in, a's by a itself.
    b, a = await store.ratings.reliability("b"), await store.ratings.reliability("a")
    assert (b.games, b.stood_in_share, b.percent) == (1, 1.0, 0)
    assert (a.finished_share, a.stood_in_share, a.percent) == (1.0, 0.0, 100)
    assert (await store.ratings.reliability("nobody")).percent is None


async def test_reliability_counts_a_game_left_that_then_ended_unplayed(store):
    """Leaving counts against a person even when the game is then cancelled or abandoned; a game cancelled
    (or its channel deleted) while they still sat at it does not count for or against them."""
    # Cancelled after b left: b left one game (a stand-in made their later decisions); a and c, still seated,
    # count nothing of it.
    record = await some_moves(store, table_of(["a", "b", "c"], 31), 31, channel=1, moves=30, actors={"b": "clock"})
    left = record.table.with_seat("b", left=True)
    await store.games.finish_game(record.id, record.version, "cancelled", table=left)
    b = await store.ratings.reliability("b")
    assert (b.games, b.left, b.own, b.percent) == (1, 1, 0, 0) and b.stood_in > 0
    assert (await store.ratings.reliability("a")).games == 0 and (await store.ratings.reliability("c")).games == 0
    # Abandoned: everyone left. A game whose channel was deleted ends abandoned with nobody having left: nothing.
    record = await some_moves(store, table_of(["a", "c"], 32), 32, channel=2, moves=12)
    gone = record.table.with_seat("a", left=True).with_seat("c", left=True)
    await store.games.finish_game(record.id, record.version, "abandoned", table=gone)
    record = await some_moves(store, table_of(["a", "c"], 33), 33, channel=3, moves=5)
    await store.games.finish_game(record.id, record.version, "abandoned")
    a = await store.ratings.reliability("a")
    assert (a.games, a.left, a.percent) == (1, 1, 0) and a.own > 0 and a.stood_in == 0
    # A finished game then: a kept their seat in one of two.
    await finish(store, table_of(["a", "c"], 34), 34, channel=4)
    a = await store.ratings.reliability("a")
    assert (a.games, a.left, a.finished_share, a.percent) == (2, 1, 0.5, 50)


async def test_a_rated_game_keeps_each_persons_rating_here_before_and_after(store):
    g1 = await finish(store, table_of(["a", "b"], 41), 41, channel=1)
    g2 = await finish(store, table_of(["b", "a", "c"], 42), 42, channel=2)
    first, second = await store.ratings.changes(g1.id), await store.ratings.changes(g2.id)
    assert set(first) == {"a", "b"} and all(before == skill.NEW for before, _ in first.values())
    assert second["a"][0] == first["a"][1] and second["b"][0] == first["b"][1] and second["c"][0] == skill.NEW
    for person, (_, after) in second.items():
        now = await store.ratings.rating(person, GUILD)
        assert now is not None and (now.mu, now.sigma) == (after.mu, after.sigma)
    bots = tuple(Seat(id=f"ai{i}", kind="computer", number=i) for i in (1, 2))
    g3 = await finish(store, Table(host="x", seats=bots, seed=43), 43, channel=3)
    assert await store.ratings.changes(g3.id) == {}  # not rated: computers only


async def test_seasons_by_hand_and_by_calendar(store):
    assert await store.ratings.season_now(GUILD) == "" and await store.ratings.season_mode(GUILD) == ""
    g0 = await finish(store, table_of(["a", "b"], 30), 6, channel=1)
    assert await store.ratings.start_season(GUILD) == "S1"
    g1 = await finish(store, table_of(["a", "b"], 31), 7, channel=2)
    assert await store.ratings.start_season(GUILD) == "S2"
    g2 = await finish(store, table_of(["b", "c"], 32), 8, channel=3)
    assert await store.ratings.season_mode(GUILD) == "manual" and await store.ratings.season_now(GUILD) == "S2"
    # A past season stays as it ended; the all-time table holds every game.
    assert await stored(store, GUILD, "S1") == close(await expected(store, [g1.id]), {"a": 1, "b": 1})
    assert await stored(store, GUILD, "S2") == close(await expected(store, [g2.id]), {"b": 1, "c": 1})
    assert await stored(store, GUILD) == close(await expected(store, [g0.id, g1.id, g2.id]), {"a": 2, "b": 3, "c": 1})
    seasons = await store.ratings.seasons(GUILD)
    assert [(s.season, s.ended_at is None) for s in seasons] == [("S2", True), ("S1", False)]
    await store.ratings.set_season_mode(GUILD, "quarter")
    g3 = await finish(store, table_of(["a", "c"], 33), 9, channel=4)
    quarter = calendar_season("quarter", g3.finished_at or 0.0)
    assert await store.ratings.season_now(GUILD) == quarter
    assert (await store.ratings.seasons(GUILD))[0].season == quarter
    assert await stored(store, GUILD, quarter) == close(await expected(store, [g3.id]), {"a": 1, "c": 1})
    assert [s.ended_at is not None for s in await store.ratings.seasons(GUILD)][1:] == [True, True]


@pytest.mark.parametrize(("mode", "at", "key"), [("month", 1764288000.0, "2025-11"),
                                                 ("quarter", 1764288000.0, "2025-Q4"),
                                                 ("quarter", 1735689600.0, "2025-Q1")])
def test_calendar_seasons_are_named_by_their_month_or_quarter(mode, at, key):
    assert calendar_season(mode, at) == key


WORKER = Path(__file__).with_name("rating_crash_worker.py")


def run_worker(database: str, mode: str, step: int) -> bool:
    """Whether the worker lived (else it was killed at `step`, as it meant to be)."""
    child = subprocess.run([sys.executable, str(WORKER), database, mode, str(step)], capture_output=True, text=True,
                           timeout=120)
    assert child.returncode in (0, -signal.SIGKILL), child.stderr
    return child.returncode == 0 and child.stdout.strip() == "done"


async def consistent(database: str) -> tuple[list[int], list[int]]:
    """Read without the catch-up: the finished games and the rated ones; every person's count of rated games
    matches the games marked rated (no rating without its mark, nor a mark without its rating)."""
    store = await Store.open(database, catch_up=False)
    try:
        finished = [r["id"] for r in await store.db.fetchall(
            "SELECT id FROM games WHERE status = 'finished' ORDER BY id")]
        rated = [g for g, _ in await store.ratings.rated_games()]
        assert len(rated) == len(set(rated)) and set(rated) <= set(finished)
        counts: Counter[str] = Counter()
        for game_id in rated:
            counts.update(s.player for s in await results(store, game_id) if not s.computer)
        assert {p: g for p, (_, _, g) in (await stored(store, ACROSS)).items()} == dict(counts)
        return finished, rated
    finally:
        await store.close()


async def unrate(database: str) -> None:
    """The database as migration 12 finds one: finished games with results, none rated."""
    store = await Store.open(database, catch_up=False)

    async def work(tx):
        for table in ("ratings", "rated_games", "seasons", "rating_changes"):
            await tx.execute(f"DELETE FROM {table}")

    await store.db.transaction(work)
    await store.close()


async def test_killed_at_each_step_every_finished_game_is_rated_exactly_once(database):
    store = await Store.open(database)
    games = [(await finish(store, table_of(ids, 40 + n), 40 + n, channel=n)).id
             for n, ids in enumerate((["a", "b"], ["b", "c", "a"], ["c", "a"]))]
    # One more game, one move from its end (the worker plays that move).
    record, *_ = await up_to_the_last_move(store, GUILD, 9, table_of(["a", "c"], 49), random.Random(9))
    want = close(await expected(store, games), {"a": 3, "b": 2, "c": 2})
    await store.close()
    # The catch-up (migration 12's games), killed at each of its steps, then run to its end at the next open.
    for step in range(2 * len(games)):
        await unrate(database)
        assert not run_worker(database, "catch_up", step)
        finished, rated = await consistent(database)
        assert finished == games and len(rated) == step // 2  # each game is rated whole or not at all
        assert run_worker(database, "catch_up", -1)
        finished, rated = await consistent(database)
        assert rated == games
        store = await Store.open(database)
        assert await stored(store, ACROSS) == want
        await store.close()
    # A game's end and its rating: killed inside their transaction, neither happened; killed after, both did.
    assert not run_worker(database, "finish", 0)
    assert await consistent(database) == (games, games)
    assert not run_worker(database, "finish", 1)
    finished, rated = await consistent(database)
    assert finished == rated == games + [record.id]
    store = await Store.open(database)
    try:
        assert await stored(store, ACROSS) == close(await expected(store, finished), {"a": 4, "b": 2, "c": 3})
    finally:
        await store.close()


async def migrated_again(store: Store, database: str, version: int, *undo: str) -> Store:
    """The database taken back to schema `version` (the tables of migration 13/7 dropped, then `undo`), closed,
    and opened again: migrated to the latest, and caught up."""

    async def back(tx):
        for statement in ("DROP TABLE departures", "DROP TABLE rating_changes", *undo,
                          f"UPDATE schema_version SET version = {version}"):
            await tx.execute(statement)

    await store.db.transaction(back)
    await store.close()
    return await Store.open(database)


async def test_the_migration_rates_the_games_finished_before_it_once_in_order(database):
    """A database as the schema before ratings left it (SQLite's 11, PostgreSQL's 5): its finished games are
    rated once when it is opened, in the order they ended, to the ratings they got as each ended; each seat's
    own and stand-in decisions are counted from the stored moves as the end of a game counts them."""
    from storage.postgres.migrate import LATEST as PG_LATEST
    from storage.sqlite.migrate import LATEST as SQLITE_LATEST

    store = await Store.open(database)
    seats = (Seat(id="a", name="A"), Seat(id="b", name="B"), Seat(id="ai1", kind="computer", number=1, level="easy"))
    await finish(store, Table(host="a", seats=seats, seed=51), 51, channel=1, actors={"b": "stand_in"})
    await finish(store, table_of(["c", "a"], 52), 52, channel=2, guild=GUILD + 1)
    await finish(store, table_of(["b", "c", "a"], 53), 53, channel=3, actors={"c": "clock"})
    boards = [await stored(store, g) for g in (ACROSS, GUILD, GUILD + 1)]
    counted = await store.db.fetchall("SELECT game_id, player, own_decisions, stood_in FROM player_results"
                                      " ORDER BY game_id, player")
    assert any(r["stood_in"] for r in counted) and all(r["own_decisions"] or r["stood_in"] for r in counted)
    rated = await store.ratings.rated_games()
    before = 11 if store.kind == "sqlite" else 5
    assert (SQLITE_LATEST if store.kind == "sqlite" else PG_LATEST) == before + 2  # (ratings, then departures)

    store = await migrated_again(store, database, before, "DROP TABLE ratings", "DROP TABLE rated_games",
                                 "DROP TABLE seasons", "ALTER TABLE player_results DROP COLUMN own_decisions",
                                 "ALTER TABLE player_results DROP COLUMN stood_in")
    try:
        assert [await stored(store, g) for g in (ACROSS, GUILD, GUILD + 1)] == boards
        assert [g for g, _ in await store.ratings.rated_games()] == [g for g, _ in rated]
        assert await store.db.fetchall("SELECT game_id, player, own_decisions, stood_in FROM player_results"
                                       " ORDER BY game_id, player") == counted
        assert await store.ratings.catch_up() == 0
    finally:
        await store.close()


async def test_the_migration_counts_the_games_left_before_it_that_ended_unplayed(database):
    """A database as the schema before departures were kept (SQLite's 12, PostgreSQL's 6): the games people
    left that were then cancelled or abandoned count in their reliability once it is migrated, with the
    decisions they and their stand-in made, as if kept when each ended."""
    from storage.postgres.migrate import LATEST as PG_LATEST
    from storage.sqlite.migrate import LATEST as SQLITE_LATEST

    store = await Store.open(database)
    record = await some_moves(store, table_of(["a", "b", "c"], 71), 71, channel=1, moves=30, actors={"b": "away"})
    await store.games.finish_game(record.id, record.version, "cancelled", table=record.table.with_seat("b", left=True))
    record = await some_moves(store, table_of(["a", "c"], 72), 72, channel=2, moves=9)
    gone = record.table.with_seat("a", left=True).with_seat("c", left=True)
    await store.games.finish_game(record.id, record.version, "abandoned", table=gone)
    await finish(store, table_of(["c", "b"], 73), 73, channel=3)
    kept = {p: await store.ratings.reliability(p) for p in "abc"}
    assert [kept[p].left for p in "abc"] == [1, 1, 1] and [kept[p].games for p in "abc"] == [1, 2, 2]
    store = await migrated_again(store, database, (SQLITE_LATEST if store.kind == "sqlite" else PG_LATEST) - 1)
    try:
        assert {p: await store.ratings.reliability(p) for p in "abc"} == kept
    finally:
        await store.close()


async def test_two_games_ending_at_once_with_the_same_people_both_count(database):
    """On PostgreSQL the two ends run at once on connections of their own: the second waits for the first's
    lock on the people's ratings, then rates from what it wrote (in one order or the other, never lost)."""
    store = await Store.open(database)
    try:
        almost = [await up_to_the_last_move(store, GUILD, 20 + n, table_of(["a", "b", "c"], 60 + n),
                                            random.Random(60 + n)) for n in range(2)]
        await asyncio.gather(*(store.games.commit_action(r.id, r.version, p, a, s) for r, p, a, s in almost))
        ids = [r.id for r, *_ in almost]
        counts = {"a": 2, "b": 2, "c": 2}
        assert sorted(g for g, _ in await store.ratings.rated_games()) == ids
        assert await stored(store, GUILD) in (close(await expected(store, ids), counts),
                                              close(await expected(store, ids[::-1]), counts))
    finally:
        await store.close()
