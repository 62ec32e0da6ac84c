"""The action log's hash chain: a damaged row is found when the game is loaded (issue 12)."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3

import pytest
from support.raw import rows, tamper
from support.storage_helpers import new_stored_game, play_random, table_of

from engine import apply, new_game, replay
from engine.randomplay import random_action
from storage import GameQuarantined, Store
from storage.chain import GENESIS, first_break, link
from storage.sqlite.migrate import LATEST


async def log_rows(store: Store, game_id: int) -> list:
    """The game's action rows as stored (on either backend)."""
    return await rows(store, "SELECT game_id, move, version, player, actor, action, events, at, hash FROM actions"
                             " WHERE game_id = ? ORDER BY move", game_id)


async def test_each_logged_action_is_hashed_over_the_one_before(store):
    record = await play_random(store, await new_stored_game(store, channel=1, seed=1), 12, random.Random(1))
    stored = await log_rows(store, record.id)
    assert len(stored) == 12 and first_break(stored) is None
    previous = GENESIS
    for row in stored:
        assert row["hash"] == link(previous, tuple(row)[:-1])  # the columns in order, the hash last
        previous = row["hash"]
    # Any one field of any one row changed breaks the chain at that move.
    for move, column, value in [(5, "player", "someone"), (9, "at", 1.5), (1, "events", "[{}]"), (12, "version", 99)]:
        changed = [dict(r) | ({column: value} if r["move"] == move else {}) for r in stored]
        assert first_break(changed) == move, (move, column)
    assert first_break([dict(r) for r in stored if r["move"] != 6]) == 6  # a row missing


async def test_a_log_damaged_under_a_sound_snapshot_is_noted_once_and_play_goes_on(store):
    rnd = random.Random(2)
    record = await play_random(store, await new_stored_game(store, channel=2, seed=2), 10, rnd)
    await tamper(store, "UPDATE actions SET at = at + 1 WHERE game_id = ? AND move = 4", record.id)
    loaded = await store.games.load_channel(2)
    assert loaded.state == record.state and loaded.status == "active"
    assert await store.log.notes(record.id) == [("log_damaged", "the action log is damaged at move 4")]
    record = await play_random(store, loaded, 3, rnd)  # later moves are chained on as usual
    assert (await store.games.load_game(record.id)).state == record.state
    assert len(await store.log.notes(record.id)) == 1  # told once, not at every load
    # With the snapshot damaged too, nothing sound is left to play from: the log is not replayed.
    await tamper(store, "UPDATE games SET snapshot_sha256 = 'x' WHERE id = ?", record.id)
    with pytest.raises(GameQuarantined) as err:
        await store.games.load_channel(2)
    assert "damaged at move 4, so it cannot be replayed" in err.value.reason
    assert [k for k, _ in await store.log.notes(record.id)] == ["log_damaged", "quarantined"]


async def test_a_log_that_lost_its_last_rows_never_costs_the_game_its_latest_moves(store):
    """The chain cannot see rows missing from its end; the sound snapshot's move count can."""
    record = await play_random(store, await new_stored_game(store, channel=5, seed=5), 12, random.Random(5))
    await tamper(store, "DELETE FROM actions WHERE game_id = ? AND move > 10", record.id)
    loaded = await store.games.load_channel(5)
    assert loaded.state == record.state and loaded.state.moves == 12  # not rebuilt two moves short
    assert await store.log.notes(record.id) == [("log_damaged", "the action log holds 10 actions but the game is at "
                                                            "move 12")]


async def test_a_log_changed_into_other_legal_moves_is_never_replayed(store):
    """Without the chain, a damaged snapshot would be "repaired" into a game nobody played."""
    rnd = random.Random(3)
    record = await play_random(store, await new_stored_game(store, channel=3, seed=3), 15, rnd)
    before = replay(record.table.players, 3, None, (await store.log.action_log(record.id))[:-1])
    last = (await log_rows(store, record.id))[-1]
    for tries in range(1000):
        player, action = random_action(before, random.Random(tries))
        other = apply(before, player, action)
        if other.ok and other.state != record.state:
            break
    await tamper(store, "UPDATE actions SET player = ?, action = ? WHERE game_id = ? AND move = ?",
                 player, json.dumps(action.to_json_dict()), record.id, last["move"])
    await tamper(store, "UPDATE games SET snapshot = 'garbage' WHERE id = ?", record.id)
    tampered = replay(record.table.players, 3, None, await store.log.action_log(record.id))
    assert tampered != record.state  # the log alone replays, into another game
    with pytest.raises(GameQuarantined) as err:
        await store.games.load_channel(3)
    assert f"damaged at move {last['move']}" in err.value.reason


async def test_rows_written_before_the_chain_are_chained_when_the_database_is_upgraded(tmp_path):
    path = tmp_path / "old.sqlite3"
    await (await Store.open(path, migrate_to=4)).close()
    rnd = random.Random(4)
    ids = ["a", "b", "c"]
    state, _ = new_game(ids, seed=4)
    with sqlite3.connect(path) as db:  # a game as schema 4 wrote it: no hashes
        for move in range(1, 9):
            player, action = random_action(state, rnd)
            state = apply(state, player, action).state
            db.execute("INSERT INTO actions (game_id, move, version, player, action, at) VALUES (1, ?, ?, ?, ?, ?)",
                       (move, move, player, json.dumps(action.to_json_dict()), 1000.0 + move))
        snapshot = state.model_dump_json()
        db.execute("INSERT INTO games (id, guild_id, channel_id, status, version, setup, snapshot, snapshot_sha256,"
                   " created_at, updated_at) VALUES (1, 1, 10, 'active', 8, ?, ?, ?, 0, 0)",
                   (table_of(ids, 4).model_dump_json(), snapshot, hashlib.sha256(snapshot.encode()).hexdigest()))
    store = await Store.open(path)
    try:
        assert (await store.db.fetchone("SELECT version FROM schema_version"))[0] == LATEST
        stored = await log_rows(store, 1)
        assert all(r["hash"] for r in stored) and first_break(stored) is None
        loaded = await store.games.load_channel(10)
        assert loaded.state == state and await store.log.notes(1) == []
        record = await play_random(store, loaded, 2, rnd)  # new moves chain on to the old ones
        stored = await log_rows(store, 1)
        assert first_break(stored) is None and len(stored) == 10
        await tamper(store, "UPDATE actions SET action = action || ' ' WHERE game_id = 1 AND move = 3")
        assert (await store.games.load_channel(10)).state == record.state
        assert await store.log.notes(1) == [("log_damaged", "the action log is damaged at move 3")]
    finally:
        await store.close()
