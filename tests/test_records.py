"""Records (issue 16): statistics kept as rows when games end equal the ones recomputed from the games' logs,
and a game's file plays back to the same end."""

from __future__ import annotations

import dataclasses
import io
import json
from collections import Counter, defaultdict

import pytest
from support.played import play_game

from bot.service import GameService
from bot.service.export import export_bytes, export_game
from bot.terminal.replay import replay
from engine import apply, new_game
from engine.state import GameState
from storage import MIN_GAMES, Store, Table

GUILDS = (1, 2)


@pytest.fixture
async def service(tmp_path):
    store = await Store.open(tmp_path / "records.sqlite3")
    yield GameService(store)
    await store.close()


async def _some_games(service: GameService) -> dict[int, list]:
    """Finished games on two servers (people and computers), a cancelled one and an abandoned one."""
    plans = [(1, 10, ["a", "b"], 1, 1), (1, 11, ["a", "c"], 0, 2), (1, 10, ["b", "c", "d"], 2, 3),
             (2, 20, ["a", "d"], 1, 4), (1, 12, ["a", "b", "c"], 0, 5), (2, 20, ["a"], 2, 6)]
    for guild, channel, humans, computers, seed in plans:
        assert (await play_game(service, guild, channel, humans, computers, seed)).status == "finished"
    running = await play_game(service, 1, 13, ["a", "b"], 1, 7, moves=20)
    assert (await service.lobby.cancel(13, "a", can_manage=False)).ok
    running = await play_game(service, 1, 14, ["c"], 1, 8, moves=20)
    assert (await service.seats.leave_game(14, running.id, "c")).ok
    assert (await service.core.store.games.load_game(running.id)).status == "abandoned"
    return plans


async def _recomputed(store: Store):
    """Per (guild or None, player): games, wins, score sum, best, auctions won per noble, from the logs alone."""
    totals: dict = defaultdict(lambda: {"games": 0, "wins": 0, "score_sum": 0, "best": 0, "nobles": Counter(),
                                        "computer": False})
    for game_id in range(1, 100):
        try:
            exported = await store.log.export_game(game_id)
        except Exception:
            break
        if exported["status"] != "finished":
            continue
        table = exported["table"]
        ids = [s["id"] for s in table["seats"]]
        stored = Table.model_validate(table)  # replayed with the game's own edition and rules version
        edition = store.editions.resolve(stored.game_edition)
        state, events = new_game(ids, table["seed"], table.get("start_player"), edition, stored.game_rules)
        for a in exported["actions"]:
            result = apply(state, a["player"], a["action"])
            state, events = result.state, events + result.events
        assert state.phase == "game_over"
        for seat in table["seats"]:
            p = next(q for q in state.players if q.id == seat["id"])
            for key in (exported["guild_id"], None):
                t = totals[key, p.id]
                t["games"] += 1
                t["wins"] += p.id in state.winners
                t["score_sum"] += p.score
                t["best"] = max(t["best"], p.score)
                t["computer"] = seat["kind"] == "computer"
                t["nobles"].update(e.noble for e in events if e.type == "auction_won" and e.player == p.id)
    return totals


def _favourite(nobles: Counter):
    if not nobles:
        return None, 0
    best = max(nobles.values())
    return min(n for n, c in nobles.items() if c == best), best


async def test_statistics_equal_a_recomputation_from_the_logs(service):
    await _some_games(service)
    store = service.core.store
    expected = await _recomputed(store)
    assert expected[None, "a"]["games"] == 5 and expected[1, "c"]["games"] == 3  # the ended ones do not count
    for (guild, player), t in expected.items():
        stats = await store.records.player_stats(player, guild)
        assert (stats.games, stats.wins, stats.score_sum, stats.best_score) == (
            t["games"], t["wins"], t["score_sum"], t["best"]), (guild, player)
        assert (stats.favourite, stats.favourite_wins) == _favourite(t["nobles"]), (guild, player)
        assert stats.average == pytest.approx(t["score_sum"] / t["games"])
    for guild in GUILDS:
        people = {p: t for (g, p), t in expected.items() if g == guild and not t["computer"]}
        board, total = await store.records.leaderboard(guild, 0, 100)
        assert total == len(people) and [r.player for r in board] == sorted(people, key=lambda p: (
            -people[p]["wins"], -(people[p]["wins"] / people[p]["games"] if people[p]["games"] >= MIN_GAMES else -1),
            people[p]["games"], p))
        assert [r.place for r in board] == list(range(1, len(board) + 1))
        assert all((r.games, r.wins) == (people[r.player]["games"], people[r.player]["wins"]) for r in board)
        computers = [t for (g, _), t in expected.items() if g == guild and t["computer"]]
        assert await store.records.computer_totals(guild) == (sum(t["games"] for t in computers),
                                                      sum(t["wins"] for t in computers))
    assert (await store.records.player_stats("nobody")).games == 0


async def test_history_lists_every_ended_game_newest_first(service):
    await _some_games(service)
    games = await service.core.store.records.recent_games(1, limit=20)
    assert [g.id for g in games] == sorted((g.id for g in games), reverse=True)
    assert [g.status for g in games][:2] == ["abandoned", "cancelled"]
    assert all(g.results for g in games if g.status == "finished")
    assert not any(g.results for g in games if g.status != "finished")
    page = await service.core.store.records.recent_games(1, limit=2, before=games[1].id)
    assert [g.id for g in page] == [g.id for g in games[2:4]]
    assert [g.id for g in await service.core.store.records.recent_games(1, channel_id=10)] == [3, 1]


async def test_a_channels_history_holds_the_games_of_its_threads(store):
    """Issue 29: a game opened in a thread (channel 15 or 16 of channel 10) keeps the thread's channel; the
    channel's history lists them with its own, a thread's only its own, paging as before. Both backends."""
    service = GameService(store)
    plans = [(10, None, 1), (15, 10, 2), (11, None, 3), (16, 10, 4), (15, 10, 5)]
    ids = {}
    for n, (channel, parent, seed) in enumerate(plans):
        record = await play_game(service, 1, channel, ["a", "b"], 0, seed, moves=None if n % 2 == 0 else 4,
                                 parent=parent)
        if record.open:
            assert (await service.lobby.cancel(channel, "a", can_manage=False)).ok
        ids[n] = record.id
        assert (await store.games.load_game(record.id)).parent_id == parent
    recent = store.records.recent_games
    assert [g.id for g in await recent(1, 10)] == [ids[4], ids[3], ids[1], ids[0]]
    assert [g.id for g in await recent(1, 10, before=ids[3], limit=1)] == [ids[1]]
    assert [g.id for g in await recent(1, 15)] == [ids[4], ids[1]]
    assert [g.id for g in await recent(1, 16)] == [ids[3]]
    assert [g.id for g in await recent(1, 11)] == [ids[2]]
    assert [g.channel_id for g in await recent(1, 10)] == [15, 16, 15, 10]


async def test_a_finished_game_exported_plays_back_to_its_final_state(service, tmp_path):
    record = await play_game(service, 1, 10, ["a", "b"], 2, seed=9)
    data = json.loads(export_bytes(await export_game(service.core.store.log, record)))
    assert data["complete"] and data["seed"] == record.table.seed and len(data["actions"]) == record.state.moves
    state, _ = new_game([p["id"] for p in data["players"]], data["seed"], data["start_player"], record.state.edition)
    for a in data["actions"]:
        state = apply(state, a["player"], a["action"]).state
    assert state == record.state == GameState.model_validate(data["state"])
    path = tmp_path / "game.json"
    path.write_bytes(export_bytes(data))
    out = io.StringIO()
    assert replay(str(path), step=False, stdout=out) == 0
    text = out.getvalue()
    assert "The replay ends with the game's stored final state." in text
    standings = text[text.index("=== Final standings ==="):].splitlines()  # the replay ends with them (issue 42)
    assert len(standings) == 5 and "<- winner" in standings[1] and "opens the next auction" not in text[-3000:]
    assert "Hands:" not in text and "Computer 1" in text and "--- Move 1: " in text
    revealed = io.StringIO()
    assert replay(str(path), step=False, reveal=True, stdout=revealed) == 0
    assert revealed.getvalue().count("Hands:") == record.state.moves + 1
    data["state"]["round"] = 1  # a file whose stored end differs is told so
    path.write_bytes(export_bytes(data))
    out = io.StringIO()
    replay(str(path), step=False, stdout=out)
    assert "does NOT end" in out.getvalue()


async def test_stepping_through_a_running_games_public_record(service, tmp_path):
    record = await play_game(service, 1, 10, ["a", "b"], 0, seed=3, moves=12)
    path = tmp_path / "running.json"
    path.write_bytes(export_bytes(await export_game(service.core.store.log, record)))
    out = io.StringIO()
    assert replay(str(path), step=True, reveal=True, stdin=io.StringIO("\n\n\nq\n"), stdout=out) == 0
    text = out.getvalue()
    assert "Hands are shown only for a finished game." in text and "Hands:" not in text
    assert text.count("--- Move") == 3 and text.rstrip().endswith("Replay stopped.")
    out = io.StringIO()
    assert replay(str(path), step=False, stdout=out) == 0
    assert out.getvalue().count("--- Move") == record.state.moves and "=== Augsburg 1520 — round" in out.getvalue()


def test_a_file_that_is_not_a_game_is_refused_politely(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"format": "something else"}')
    out = io.StringIO()
    assert replay(str(path), step=False, stdout=out) == 2 and "not a game file" in out.getvalue()


async def test_the_console_script_replays_a_file(service, tmp_path, capsys):
    from bot.app.cli import main

    record = await play_game(service, 1, 10, ["a", "b"], 0, seed=2)
    path = tmp_path / "g.json"
    path.write_bytes(export_bytes(await export_game(service.core.store.log, record)))
    assert main(["replay", str(path), "--all", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Wiedergabe von Spiel" in out and "gespeicherten Endstand" in out


async def test_migration_7_fills_the_records_of_games_stored_before_it(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    store = await Store.open(path)
    service = GameService(store)
    await _some_games(service)
    players = ("a", "b", "c", "d", "ai1", "ai2")
    before = {(g, p): await store.records.player_stats(p, g) for g in GUILDS for p in players}
    boards = [await store.records.leaderboard(g, 0, 50) for g in GUILDS]
    computers = [await store.records.computer_totals(g) for g in GUILDS]
    rated = [await store.ratings.board(g, "", 0, 50) for g in (0, *GUILDS)]
    assert rated[0][1] == 4  # (a, b, c, d: rated as each game ended)
    await store.close()
    with sqlite3.connect(path) as db:  # the database as schema 6 left it
        db.executescript("DROP TABLE departures; DROP TABLE rating_changes;"
                         " DROP TABLE ratings; DROP TABLE rated_games; DROP TABLE seasons;"
                         " ALTER TABLE player_results DROP COLUMN own_decisions;"
                         " ALTER TABLE player_results DROP COLUMN stood_in;"
                         " DROP TABLE noble_wins; DROP TABLE player_totals; DROP INDEX player_results_by_guild_player;"
                         " DROP INDEX games_by_guild; ALTER TABLE player_results DROP COLUMN computer;"
                         " ALTER TABLE player_results DROP COLUMN name; ALTER TABLE player_results DROP COLUMN"
                         " decisions; ALTER TABLE player_results DROP COLUMN in_time; ALTER TABLE player_results"
                         " DROP COLUMN decide_seconds; ALTER TABLE player_results DROP COLUMN left_game;"
                         " ALTER TABLE lease DROP COLUMN shard_count; DROP INDEX games_by_parent;"
                         " ALTER TABLE games DROP COLUMN parent_id; DROP TABLE person_deadlines;"
                         " UPDATE schema_version SET version = 6;")
    store = await Store.open(path)
    try:
        # Decisions were not kept before migration 8: those games count none (who left them, they know).
        unknown = {k: dataclasses.replace(s, decisions=0, in_time=0, median_seconds=None) for k, s in before.items()}
        assert {(g, p): await store.records.player_stats(p, g) for g, p in before} == unknown
        assert [await store.records.leaderboard(g, 0, 50) for g in GUILDS] == boards
        assert [await store.records.computer_totals(g) for g in GUILDS] == computers and computers[0][0] > 0
        # Migration 12 and the catch-up at open rated every finished game once, in the order they ended, by the
        # same code: the same ratings as when each was rated at its end.
        assert [await store.ratings.board(g, "", 0, 50) for g in (0, *GUILDS)] == rated
        finished = await store.db.fetchall("SELECT id FROM games WHERE status = 'finished' ORDER BY id")
        assert sorted(g for g, _ in await store.ratings.rated_games()) == [r["id"] for r in finished]
    finally:
        await store.close()
