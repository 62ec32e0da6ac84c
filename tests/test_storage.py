"""Storage: games per channel, the action log, version guards, repair and quarantine (issue 3)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sqlite3

import pytest
from support.raw import tamper
from support.storage_helpers import new_stored_game, play_random, table_of

from engine import apply, new_game, replay
from engine.randomplay import random_action
from storage import (
    ChannelBusy,
    Deadline,
    DeadlinePlan,
    GameQuarantined,
    Seat,
    Store,
    Table,
    TableMessages,
    VersionConflict,
    WrongStatus,
)
from storage.sqlite.migrate import LATEST


async def test_open_sets_wal_busy_timeout_foreign_keys_and_latest_schema(sqlite_store):
    store = sqlite_store
    assert (await store.db.fetchone("PRAGMA journal_mode"))[0] == "wal"
    assert (await store.db.fetchone("PRAGMA foreign_keys"))[0] == 1
    assert (await store.db.fetchone("PRAGMA busy_timeout"))[0] >= 1000
    assert (await store.db.fetchone("SELECT version FROM schema_version"))[0] == LATEST >= 3


async def test_an_old_database_is_upgraded_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    await (await Store.open(path, migrate_to=1)).close()
    # Write a game the way code of schema 1 did: a games row and its action log.
    rnd = random.Random(1)
    ids = ["a", "b", "c"]
    state, _ = new_game(ids, seed=1)
    log = []
    for _ in range(5):
        player, action = random_action(state, rnd)
        state = apply(state, player, action).state
        log.append((player, action))
    snapshot = state.model_dump_json()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchone()[0] == 1
        assert not db.execute("SELECT name FROM sqlite_master WHERE name = 'deadlines'").fetchall()
        db.execute("INSERT INTO games (id, guild_id, channel_id, status, version, setup, snapshot, snapshot_sha256,"
                   " created_at, updated_at) VALUES (1, 1, 10, 'active', 5, ?, ?, ?, 0, 0)",
                   (json.dumps({"players": ids, "seed": 1, "start_player": None}), snapshot,
                    hashlib.sha256(snapshot.encode()).hexdigest()))
        for move, (player, action) in enumerate(log, start=1):
            db.execute("INSERT INTO actions VALUES (1, ?, ?, ?, ?, 0)",
                       (move, move, player, json.dumps(action.to_json_dict())))

    new = await Store.open(path)
    try:
        assert (await new.db.fetchone("SELECT version FROM schema_version"))[0] == LATEST
        loaded = await new.games.load_channel(10)
        assert loaded.state == state and loaded.version == 5 and loaded.messages == TableMessages()
        assert loaded.table.players == ids and loaded.table.seed == 1
        assert await new.log.notes(loaded.id) == []
        await new.deadlines.set_deadline(loaded.id, "a", "reminder", 123.0)
        assert [d.kind for d in await new.deadlines.deadlines()] == ["reminder"]
        record = await play_random(new, loaded, 3, rnd)
        assert record.version == 8
    finally:
        await new.close()


async def test_one_open_game_per_channel(store):
    first = await new_stored_game(store, channel=5, seed=1)
    with pytest.raises(ChannelBusy) as err:
        await new_stored_game(store, channel=5, seed=2)
    assert err.value.game_id == first.id
    await new_stored_game(store, channel=6, seed=3)  # another channel is fine
    await store.games.finish_game(first.id, first.version, "cancelled")
    again = await new_stored_game(store, channel=5, seed=4)
    assert again.id != first.id


async def test_commit_appends_the_log_and_stores_the_snapshot(store):
    record = await new_stored_game(store, channel=1, seed=7)
    record = await play_random(store, record, 12, random.Random(7))
    assert record.version == 12 and record.state.moves == 12
    exported = await store.log.export_game(record.id)
    assert [a["move"] for a in exported["actions"]] == list(range(1, 13))
    assert [a["version"] for a in exported["actions"]] == list(range(1, 13))
    players = [seat["id"] for seat in exported["table"]["seats"]]
    rebuilt = replay(players, 7, None, await store.log.action_log(record.id))
    assert rebuilt == record.state == (await store.games.load_channel(1)).state


async def test_a_stale_writer_gets_a_conflict_and_writes_nothing(store):
    record = await new_stored_game(store, channel=1, seed=8)
    rnd = random.Random(8)
    player, action = random_action(record.state, rnd)
    newer = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                      apply(record.state, player, action).state)
    with pytest.raises(VersionConflict):
        await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                  apply(record.state, player, action).state)
    loaded = await store.games.load_channel(1)
    assert loaded.version == newer.version == 1 and len(await store.log.action_log(record.id)) == 1


async def test_two_writers_racing_on_one_game_exactly_one_wins(database):
    a, b = await Store.open(database), await Store.open(database)
    try:
        record = await new_stored_game(a, channel=1, seed=9)
        state = record.state
        attempts = []
        for store, player in ((a, state.players[0].id), (b, state.players[1].id)):
            action = {"do": "buy", "cards": []}
            attempts.append(store.games.commit_action(record.id, 0, player, action, apply(state, player, action).state))
        results = await asyncio.gather(*attempts, return_exceptions=True)
        assert sum(isinstance(r, VersionConflict) for r in results) == 1
        assert sum(not isinstance(r, Exception) for r in results) == 1
        assert len(await a.log.action_log(record.id)) == 1
    finally:
        await a.close()
        await b.close()


async def test_writers_on_different_channels_both_commit(database):
    stores = [await Store.open(database) for _ in range(4)]
    try:
        records = [await new_stored_game(stores[0], channel=c, seed=c) for c in range(4)]
        done = await asyncio.gather(*(play_random(s, r, 10, random.Random(r.id)) for s, r in zip(stores, records)))
        assert [r.version for r in done] == [10, 10, 10, 10]
    finally:
        for s in stores:
            await s.close()


async def test_active_games_finish_and_history(store):
    one = await new_stored_game(store, channel=1, seed=1, players=2)
    two = await new_stored_game(store, channel=2, seed=2)
    games, lost = await store.games.active_games()
    assert [g.id for g in games] == [one.id, two.id] and lost == []
    with pytest.raises(VersionConflict):
        await store.games.finish_game(two.id, two.version - 1)
    finished = await play_random(store, one, 10_000, random.Random(1))
    # The last move and the end of the game are one transaction: a crash cannot leave it open.
    assert finished.state.phase == "game_over"
    assert finished.status == "finished" and finished.finished_at is not None
    with pytest.raises(WrongStatus):
        await store.games.finish_game(one.id, finished.version)
    one = finished
    assert [g.id for g in (await store.games.active_games())[0]] == [two.id]
    assert await store.games.load_channel(1) is None
    history = await store.log.export_game(one.id)
    assert history["status"] == "finished" and len(history["actions"]) == one.state.moves
    json.dumps(history)  # JSON-ready
    winner = one.state.winners[0]
    stats = await store.records.player_stats(winner)
    assert stats["games"] == 1 and stats["wins"] == 1


async def test_lobby_then_start(store):
    host = Seat(id="h", name="Hilde")
    lobby = await store.games.open_lobby(1, 77, Table(host="h", seats=(host,)))
    assert lobby.state is None and lobby.status == "lobby" and lobby.table.seat("h").name == "Hilde"
    with pytest.raises(ChannelBusy):
        await store.games.open_lobby(1, 77, Table(host="x", seats=(Seat(id="x", name="X"),)))
    robot = Seat(id="c1", kind="computer", number=1)
    lobby = await store.games.update_lobby(lobby.id, lobby.version, lobby.table.with_seats([host, robot]))
    with pytest.raises(VersionConflict):
        await store.games.update_lobby(lobby.id, lobby.version - 1, lobby.table.with_seats([]))
    state, _ = new_game(["h", "c1"], seed=5)
    started = await store.games.start_game(lobby.id, lobby.version, lobby.table.model_copy(update={"seed": 5}), state)
    loaded = await store.games.load_channel(77)
    assert started.status == "active" and loaded.state == state
    assert loaded.table.is_computer("c1") and not loaded.table.is_computer("h") and loaded.table.seed == 5


async def test_tables_written_before_typed_records_are_read(store):
    """Schema-1 rows held {seats, names, players} dicts and English log lines."""
    state, _ = new_game(["11", "ai1"], seed=3)
    record = await store.games.create_game(1, 5, table_of(["11", "ai1"], 3), state)
    old = {"host": "11", "seats": ["11", "ai1"], "names": {"11": "Ada", "ai1": "Computer 1"},
           "players": ["11", "ai1"], "seed": 3, "start_player": None}
    await tamper(store, "UPDATE games SET setup = ?, ui = ? WHERE id = ?",
                 json.dumps(old), json.dumps({"table": 9, "log": ["Ada passes."]}), record.id)
    loaded = await store.games.load_channel(5)
    assert loaded.table.players == ["11", "ai1"] and loaded.table.seat("11").name == "Ada"
    assert loaded.table.is_computer("ai1") and loaded.messages == TableMessages(table=9)


async def test_a_corrupt_snapshot_is_rebuilt_from_the_log(store):
    record = await play_random(store, await new_stored_game(store, channel=3, seed=3), 20, random.Random(3))
    await tamper(store, "UPDATE games SET snapshot = '{\"not\": \"a game\"}' WHERE id = ?", record.id)
    loaded = await store.games.load_channel(3)
    assert loaded.state == record.state
    kinds = [k for k, _ in await store.log.notes(record.id)]
    assert kinds == ["repaired"]
    assert (await store.games.load_channel(3)).state == record.state and len(await store.log.notes(record.id)) == 1


async def test_a_snapshot_changed_behind_our_back_is_caught_by_its_checksum(store):
    record = await play_random(store, await new_stored_game(store, channel=3, seed=4), 20, random.Random(4))
    tampered = record.state.model_copy(deep=True)
    tampered.players[0].money += 1000  # still a valid state: only the checksum can tell
    await tamper(store, "UPDATE games SET snapshot = ? WHERE id = ?", tampered.model_dump_json(), record.id)
    assert (await store.games.load_channel(3)).state == record.state


async def test_a_corrupt_snapshot_and_log_quarantine_the_game(store):
    record = await play_random(store, await new_stored_game(store, channel=4, seed=5), 20, random.Random(5))
    other = await new_stored_game(store, channel=8, seed=6)
    await tamper(store, "UPDATE games SET snapshot = 'garbage' WHERE id = ?", record.id)
    await tamper(store, "UPDATE actions SET action = '{\"do\": \"fly\"}' WHERE game_id = ? AND move = 7", record.id)
    with pytest.raises(GameQuarantined) as err:
        await store.games.load_channel(4)
    assert err.value.channel_id == 4 and "damaged at move 7" in err.value.reason  # the chain tells, before replay
    games, lost = await store.games.active_games()
    assert [g.id for g in games] == [other.id] and lost == []  # quarantined: kept, not loaded
    exported = await store.log.export_game(record.id)
    assert exported["status"] == "quarantined" and len(exported["actions"]) == 20
    assert [k for k, _ in await store.log.notes(record.id)] == ["quarantined"]
    await new_stored_game(store, channel=4, seed=7)  # the channel can start afresh


async def test_deadlines_and_guild_settings(store):
    record = await new_stored_game(store, channel=1, seed=1)
    await store.deadlines.set_deadline(record.id, "u1-0", "reminder", 100.0, {"n": 1})
    await store.deadlines.set_deadline(record.id, "u1-0", "timeout", 200.0)
    await store.deadlines.set_deadline(record.id, "u1-0", "reminder", 150.0, {"n": 2})  # re-arming replaces
    due = await store.deadlines.deadlines(due_before=160.0)
    assert [(d.kind, d.due_at, d.payload) for d in due] == [("reminder", 150.0, {"n": 2})]
    assert await store.deadlines.clear_deadlines(record.id, kind="reminder") == 1
    assert [d.kind for d in await store.deadlines.deadlines()] == ["timeout"]
    assert await store.settings.guild_settings(9) == {}
    await store.settings.set_guild_settings(9, {"timeout_hours": 12})
    await store.settings.set_guild_settings(9, {"timeout_hours": 6})
    assert await store.settings.guild_settings(9) == {"timeout_hours": 6}


async def test_message_bookkeeping_is_kept_without_a_version_bump(store):
    record = await new_stored_game(store, channel=1, seed=1)
    await store.games.set_messages(record.id, TableMessages(table=123, ping=456))
    loaded = await store.games.load_channel(1)
    assert loaded.messages == TableMessages(table=123, ping=456) and loaded.version == record.version


async def test_a_damaged_bookkeeping_value_costs_only_message_ids(store):
    record = await new_stored_game(store, channel=1, seed=1)
    await tamper(store, "UPDATE games SET ui = 'not json' WHERE id = ?", record.id)
    loaded = await store.games.load_channel(1)
    assert loaded.messages == TableMessages() and loaded.state == record.state


async def test_deadlines_change_only_with_the_move_that_plans_them(store):
    record = await new_stored_game(store, channel=1, seed=2, players=2)
    first = DeadlinePlan(new=(Deadline(record.id, "u1-0", "timeout", 100.0, {}),))
    player, action = random_action(record.state, random.Random(2))
    state = apply(record.state, player, action).state
    moved = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(), state,
                                      deadlines=first)
    assert [(d.player, d.due_at) for d in await store.deadlines.deadlines()] == [("u1-0", 100.0)]
    stale = DeadlinePlan(new=(Deadline(record.id, "u1-1", "timeout", 5.0, {}),))
    with pytest.raises(VersionConflict):  # a refused write changes no deadline either
        await store.games.commit_action(record.id, record.version, player, action.to_json_dict(), state,
                                        deadlines=stale)
    assert [(d.player, d.due_at) for d in await store.deadlines.deadlines()] == [("u1-0", 100.0)]
    await store.games.finish_game(moved.id, moved.version, "cancelled")
    assert await store.deadlines.deadlines() == []  # an ended game has no clock


async def test_a_started_game_without_its_seed_is_refused_before_anything_is_written(store):
    """Found by the type checker (a table's seed is `int | None`; replay and the results need an int): a game
    created with a table that had no seed played on, but its last move could never be committed (the results
    replay the game to count decisions: TypeError, rolled back) and its snapshot could never be rebuilt."""
    ids = ["a", "b"]
    state, _ = new_game(ids, seed=5)
    with pytest.raises(ValueError, match="seed"):
        await store.games.create_game(1, 1, Table(host="a", seats=tuple(Seat(id=i, name=i) for i in ids)), state)
    assert await store.games.load_channel(1) is None
    assert (await store.games.create_game(1, 1, table_of(ids, 5), state)).state == state


async def test_what_happened_since_a_players_own_last_decision_reads_as_the_two_steps_do(store):
    """A panel shows what happened since its person last decided for themselves: one query
    (`moves_since_decision`), the same as finding that move and reading on from it."""
    record = await new_stored_game(store, channel=1, seed=3, players=3)
    rnd = random.Random(3)
    for i in range(40):
        player, action = random_action(record.state, rnd)
        result = apply(record.state, player, action)
        record = await store.games.commit_action(
            record.id, record.version, player, action.to_json_dict(), result.state, events=result.events,
            actor="player" if i % 3 else "clock", log=result.events[:1] if i % 4 == 0 else ())
    played = await store.log.moves_since(record.id, -1)
    seen = []
    for player in record.table.players:
        last = max((m.move for m in played if m.player == player and m.actor == "player"), default=0)
        since = await store.log.moves_since_decision(record.id, player)
        assert since == await store.log.moves_since(record.id, last)
        seen.append((last, len(since), sum(len(m.entries) for m in since)))
    assert all(last > 0 for last, _, _ in seen) and any(entries for _, _, entries in seen), seen
    assert await store.log.moves_since_decision(record.id, "nobody") == await store.log.moves_since(record.id, 0)
