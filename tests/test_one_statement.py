"""Issue 44: on PostgreSQL a move, and the bookkeeping after it, are one statement each (storage/onestatement.py)
instead of transactions of six and four round trips. They must write exactly what the transactions write:
the same game, action rows, hash chain and deadlines, after every move of a game whose deadlines are planned
at random (kept, replaced, dropped, announced), and nothing at all when refused. These fail rather than skip
under CI=true (support/postgres.py)."""

from __future__ import annotations

import random

import asyncpg
import pytest
from support.storage_helpers import new_stored_game

from engine import apply
from engine.randomplay import random_action
from storage import Deadline, DeadlinePlan, GameNotFound, StorageUnavailable, Store, VersionConflict, WrongStatus
from storage.games import SENDS
from storage.postgres.database import PostgresDialect


class InTransactions(PostgresDialect):
    writes_in_one_statement = False  # the transactions of several statements, as before


def random_plan(rnd: random.Random, game_id: int, players: list[str]) -> DeadlinePlan | None:
    if rnd.random() < 0.2:
        return None  # the deadlines stay as they are
    kinds = ("reminder", "timeout", "computer")
    new = {(rnd.choice(players), rnd.choice(kinds)) for _ in range(rnd.randint(0, 4))}
    return DeadlinePlan(keep=frozenset(p for p in players if rnd.random() < 0.3),
                        new=tuple(Deadline(game_id, p, k, float(rnd.randint(1, 10**6)), {"n": rnd.randint(0, 9)})
                                  for p, k in sorted(new)))


async def written(store: Store, game_id: int) -> tuple:
    """What is stored of a game, without its id: its row, its actions (their hashes cover the game's id and
    the times, so they are checked by loading: the chain is whole), its deadlines."""
    row = await store.db.fetchone("SELECT version, status, snapshot, snapshot_sha256, setup, ui FROM games"
                                  " WHERE id = ?", (game_id,))
    actions = await store.db.fetchall("SELECT move, version, player, actor, action, events FROM actions"
                                      " WHERE game_id = ? ORDER BY move", (game_id,))
    deadlines = await store.db.fetchall("SELECT player, kind, due_at, payload FROM deadlines WHERE game_id = ?"
                                        " ORDER BY player, kind", (game_id,))
    return tuple(row), [tuple(a) for a in actions], [tuple(d) for d in deadlines]


async def test_a_move_in_one_statement_writes_what_its_transaction_writes(postgres_url, monkeypatch):
    one = await Store.open(postgres_url)
    several = await Store.open(postgres_url)
    several.db.dialect = InTransactions()  # type: ignore[misc]
    statements: list[str] = []
    sent = one.db.statement

    async def counted(sql, params=()):
        statements.append(sql.split(" AS ")[0])
        return await sent(sql, params)

    monkeypatch.setattr(one.db, "statement", counted)
    try:
        a = await new_stored_game(one, channel=1, seed=7, players=4)
        b = await several.games.create_game(a.guild_id, 2, a.table, a.state)  # the same game, in another channel
        players = list(a.table.players)
        rnd = random.Random(44)
        for step in range(60):
            player, action = random_action(a.state, rnd)
            state = apply(a.state, player, action).state
            plan, announce = random_plan(rnd, a.id, players), rnd.choice([None, 1000.0 + step])
            a = await one.games.commit_action(a.id, a.version, player, action.to_json_dict(), state,
                                              deadlines=plan, announce_at=announce)
            b = await several.games.commit_action(b.id, b.version, player, action.to_json_dict(), state,
                                                  deadlines=plan and DeadlinePlan(plan.keep, tuple(
                                                      Deadline(b.id, d.player, d.kind, d.due_at, d.payload)
                                                      for d in plan.new)), announce_at=announce)
            if rnd.random() < 0.5:  # the bot's bookkeeping after the announcement, up to some version
                settled = rnd.choice([a.version - 1, a.version])
                await one.games.set_messages(a.id, a.messages, settled=settled)
                await several.games.set_messages(b.id, b.messages, settled=settled - a.version + b.version)
            assert await written(one, a.id) == await written(several, b.id), f"after move {step + 1}"
        assert statements.count("WITH g") >= 60  # every move went as one statement (and the bookkeeping)
        assert (await one.games.load_game(a.id)).state == a.state  # the chain is whole: loading verifies it
    finally:
        await one.close()
        await several.close()


async def test_a_refused_move_in_one_statement_writes_nothing_and_says_why(postgres_url):
    store = await Store.open(postgres_url)
    try:
        record = await new_stored_game(store, channel=1, seed=3)
        player, action = random_action(record.state, random.Random(1))
        state = apply(record.state, player, action).state
        plan = DeadlinePlan(new=(Deadline(record.id, player, "timeout", 50.0, {}),))
        moved = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(), state,
                                                deadlines=plan, announce_at=60.0)
        before = await written(store, record.id)
        follow, act = random_action(state, random.Random(2))
        after_state = apply(state, follow, act).state
        with pytest.raises(VersionConflict):  # a stale version: not the row, nor the action, nor the deadlines
            await store.games.commit_action(record.id, record.version, follow, act.to_json_dict(), after_state,
                                            deadlines=DeadlinePlan())
        assert await written(store, record.id) == before
        with pytest.raises(GameNotFound):
            await store.games.commit_action(record.id + 99, moved.version, follow, act.to_json_dict(), after_state)
        with pytest.raises(GameNotFound):
            await store.games.set_messages(record.id + 99, moved.messages, settled=1)
        ended = await store.games.finish_game(moved.id, moved.version, "cancelled")
        with pytest.raises(WrongStatus):
            await store.games.commit_action(record.id, ended.version, follow, act.to_json_dict(), after_state)
        assert (await written(store, record.id))[1] == before[1]  # no action was added
    finally:
        await store.close()


async def test_a_move_lost_on_the_wire_is_told_landed_or_not_from_what_is_stored(postgres_url, monkeypatch):
    """A connection lost while the one statement ran may or may not have committed it: the game is read to
    know (as for a COMMIT lost in a transaction). Landed: the move stands. Not landed (a connection that died
    unnoticed): the statement is sent again, and the move is stored once; lost every time: the player is told
    nothing was stored, and nothing was."""
    store = await Store.open(postgres_url)
    original = asyncpg.connection.Connection.fetchrow
    lose: list[bool] = []  # the next statement's fate: lost after it ran (True) or before (False)

    async def fetchrow(self, query, *args, **kwargs):
        if not (lose and query.startswith("WITH g")):
            return await original(self, query, *args, **kwargs)
        if lose.pop():
            await original(self, query, *args, **kwargs)
        raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    monkeypatch.setattr(asyncpg.connection.Connection, "fetchrow", fetchrow)
    try:
        record = await new_stored_game(store, channel=1, seed=5)
        player, action = random_action(record.state, random.Random(1))
        state = apply(record.state, player, action).state
        lose.append(True)
        moved = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(), state)
        assert moved.version == record.version + 1 and (await store.games.load_game(record.id)).state == state
        follow, act = random_action(state, random.Random(2))
        lose.append(False)
        again = await store.games.commit_action(record.id, moved.version, follow, act.to_json_dict(),
                                                apply(state, follow, act).state)
        assert again.version == moved.version + 1 and not lose
        assert len(await store.log.action_log(record.id)) == again.state.moves  # stored once
        last, act = random_action(again.state, random.Random(3))
        lose.extend([False] * SENDS)
        with pytest.raises(StorageUnavailable, match="not stored"):
            await store.games.commit_action(record.id, again.version, last, act.to_json_dict(),
                                            apply(again.state, last, act).state)
        assert (await store.games.load_game(record.id)).version == again.version and not lose
    finally:
        await store.close()
