"""Writes that stay right under concurrent transactions (issue 26): writers on connections of their own,
on both backends; on PostgreSQL, also a writer held half-way by a transaction of another process."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest
from support.raw import rows
from support.storage_helpers import new_stored_game, table_of, up_to_the_last_move

from engine import apply
from engine.randomplay import random_action
from storage import ChannelBusy, Deadline, Seat, Store, Table, VersionConflict
from storage.chain import first_break


@pytest.fixture
async def stores(database):
    """Two stores on one database: as two processes would be (their own connections)."""
    a, b = await Store.open(database), await Store.open(database)
    yield a, b
    await a.close()
    await b.close()


def lobby(host: str) -> Table:
    return Table(host=host, seats=(Seat(id=host, name=host),))


async def test_two_tables_opened_at_once_in_one_channel_one_is_refused(stores):
    a, b = stores
    for channel in range(1, 6):
        results = await asyncio.gather(a.games.open_lobby(1, channel, lobby("x")),
                                       b.games.open_lobby(1, channel, lobby("y")), return_exceptions=True)
        refused = [r for r in results if isinstance(r, ChannelBusy)]
        opened = [r for r in results if not isinstance(r, Exception)]
        assert len(refused) == 1 and len(opened) == 1 and refused[0].game_id == opened[0].id


async def test_racing_moves_chain_one_log(stores):
    """Each round, both stores commit the same move of one game: one wins, and the hash chain stays whole."""
    a, b = stores
    record = await new_stored_game(a, channel=1, seed=3)
    rnd = random.Random(3)
    for _ in range(15):
        player, action = random_action(record.state, rnd)
        state = apply(record.state, player, action).state
        results = await asyncio.gather(*(s.games.commit_action(record.id, record.version, player,
                                                               action.to_json_dict(), state) for s in (a, b)),
                                       return_exceptions=True)
        assert sum(isinstance(r, VersionConflict) for r in results) == 1
        record = next(r for r in results if not isinstance(r, Exception))
    logged = await rows(a, "SELECT game_id, move, version, player, actor, action, events, at, hash FROM actions"
                           " WHERE game_id = ? ORDER BY move", record.id)
    assert len(logged) == 15 and first_break(logged) is None


async def test_settings_changed_at_once_by_two_writers_keep_both_changes(stores):
    a, b = stores
    await asyncio.gather(*(s.settings.merge_player_settings("u", {f"key{i}": i}) for i in range(10) for s in (a, b)))
    assert await a.settings.player_settings("u") == {f"key{i}": i for i in range(10)}
    await a.settings.merge_player_settings("u", {"dm_failed": True, "dm_failed_told": False})
    told = await asyncio.gather(*(s.settings.merge_player_settings("u", {"dm_failed_told": True},
                                                                    when={"dm_failed": True, "dm_failed_told": False})
                                  for s in (a, b, a, b)))
    assert sorted(told) == [False, False, False, True]  # the failed DM is told once


async def test_a_deadline_is_claimed_by_one_scheduler(stores):
    a, b = stores
    record = await new_stored_game(a, channel=1, seed=1)
    await a.deadlines.set_deadline(record.id, "u1-0", "timeout", 100.0)
    await a.deadlines.set_deadline(record.id, "u1-1", "timeout", 100.0)
    dropped = await asyncio.gather(*(s.deadlines.drop_deadline(Deadline(record.id, "u1-0", "timeout", 100.0, {}))
                                     for s in (a, b)))
    moved = await asyncio.gather(*(s.deadlines.postpone_deadline(Deadline(record.id, "u1-1", "timeout", 100.0, {}),
                                                                 until) for s, until in ((a, 160.0), (b, 170.0))))
    assert sorted(dropped) == sorted(moved) == [False, True]
    assert [d.due_at for d in await a.deadlines.deadlines()] in ([160.0], [170.0])


async def test_games_ending_at_once_both_count_in_the_totals(stores):
    """Two games of the same two players end at the same moment: both results land in their totals."""
    a, b = stores
    ids, last = ["p", "q"], []
    for channel, store in ((1, a), (2, b)):
        record, player, action, state = await up_to_the_last_move(store, 9, channel, table_of(ids, channel),
                                                                  random.Random(channel))
        last.append(store.games.commit_action(record.id, record.version, player, action, state))
    finals = await asyncio.gather(*last)
    assert [f.status for f in finals] == ["finished", "finished"]
    board, people = await a.records.leaderboard(9, 0, 10)
    assert people == 2 and [row.games for row in board] == [2, 2]
    assert sum(row.wins for row in board) >= 2  # each game has a winner (a tie: more)


async def test_postgres_a_game_opened_by_another_process_meanwhile_is_the_channel_busy_refusal(postgres_url):
    """The other's row is not committed yet when this one checks; the unique index makes this one wait and
    then refuses it: the same refusal as when the check sees it."""
    import asyncpg

    store = await Store.open(postgres_url)
    other = await asyncpg.connect(postgres_url)
    try:
        tx = other.transaction()
        await tx.start()
        theirs = await other.fetchval("INSERT INTO games (guild_id, channel_id, status, setup, created_at, updated_at)"
                                      " VALUES (1, 5, 'lobby', $1, 0, 0) RETURNING id", lobby("x").model_dump_json())
        mine = asyncio.create_task(store.games.open_lobby(1, 5, lobby("y")))
        await asyncio.sleep(0.3)
        assert not mine.done()  # waiting on the index for the other transaction
        await tx.commit()
        with pytest.raises(ChannelBusy) as refused:
            await mine
        assert refused.value.game_id == theirs
    finally:
        await other.close()
        await store.close()


async def test_postgres_a_settings_merge_waits_for_another_writer_and_keeps_its_change(postgres_url):
    import asyncpg

    store = await Store.open(postgres_url)
    other = await asyncpg.connect(postgres_url)
    try:
        await store.settings.merge_player_settings("u", {"notify": "dm"})
        tx = other.transaction()
        await tx.start()
        await other.execute("UPDATE player_settings SET settings = settings || '{\"lang\": \"de\"}'"
                            " WHERE user_id = 'u'")
        mine = asyncio.create_task(store.settings.merge_player_settings("u", {"dm_failed": True}))
        await asyncio.sleep(0.3)
        assert not mine.done()  # it reads the row FOR UPDATE: after the other's commit
        await tx.commit()
        assert await mine
        assert await store.settings.player_settings("u") == {"notify": "dm", "lang": "de", "dm_failed": True}
    finally:
        await other.close()
        await store.close()


async def test_a_move_whose_commit_went_unanswered_is_found_landed_or_not(store):
    """The connection lost during a COMMIT (on PostgreSQL, during the move's one statement, which commits by
    itself: storage/onestatement.py): the game is read again. Landed: the move stands as stored; not landed:
    StorageUnavailable, and nothing of it is there."""
    from storage.errors import CommitUncertain, StorageUnavailable

    record = await new_stored_game(store, channel=1, seed=5)
    way = "statement" if store.db.dialect.writes_in_one_statement else "transaction"
    real = getattr(store.db, way)
    rnd = random.Random(5)

    async def landed_then_lost(*args):
        await real(*args)
        raise CommitUncertain("the connection was lost during a commit")

    async def lost_before(*args):
        raise CommitUncertain("the connection was lost during a commit")

    player, action = random_action(record.state, rnd)
    state = apply(record.state, player, action).state
    setattr(store.db, way, landed_then_lost)
    moved = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(), state)
    assert moved.version == record.version + 1 and moved.state == state
    player, action = random_action(state, rnd)
    later = apply(state, player, action).state
    setattr(store.db, way, lost_before)
    with pytest.raises(StorageUnavailable):
        await store.games.commit_action(moved.id, moved.version, player, action.to_json_dict(), later)
    setattr(store.db, way, real)
    loaded = await store.games.load_channel(1)
    assert loaded.version == moved.version and loaded.state == state and await store.log.notes(record.id) == []


async def test_a_game_read_while_a_move_lands_is_its_state_then_not_damage(stores):
    """Loading reads the game's row, then its log: a move committed in between (by another writer) is not this
    snapshot's, and must not look like a log longer than its game (a 'log_damaged' note for nothing)."""
    from storage import repair
    from storage.rows import SELECT_GAME

    a, b = stores
    record = await new_stored_game(a, channel=1, seed=6)
    row = await a.db.fetchone(f"{SELECT_GAME} WHERE id = ?", (record.id,))
    rnd = random.Random(6)
    player, action = random_action(record.state, rnd)
    await b.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                apply(record.state, player, action).state)
    loaded = await repair.verified(a.db, row, a.editions)
    assert loaded.state == record.state and loaded.version == record.version
    assert await a.log.notes(record.id) == []


async def test_many_transactions_at_once_each_commit_whole_and_in_the_order_asked(store):
    """On SQLite a transaction runs whole in the writer's thread, back to back with the next (no lock on the
    event loop between them): many at once all commit, none interleaved with another, in the order asked.
    On both backends the contract is the same."""
    await store.settings.set_meta("counter", "0")

    async def bump(tx, i: int) -> int:  # a read to write back: locked for it, as storage's own code does
        row = await tx.fetchone(f"SELECT value FROM meta WHERE key = 'counter'{store.db.dialect.for_update}")
        await tx.execute("UPDATE meta SET value = ? WHERE key = 'counter'", (str(int(row["value"]) + 1),))
        return int(row["value"])

    seen = await asyncio.gather(*(store.db.transaction(lambda tx, i=i: bump(tx, i)) for i in range(200)))
    assert sorted(seen) == list(range(200)), "two transactions read the same count: they interleaved"
    assert await store.settings.meta("counter") == "200"
    if store.db.dialect.name == "sqlite":
        assert seen == list(range(200)), "the writer's queue runs them in the order asked"


async def test_a_sqlite_transaction_that_awaits_anything_but_its_statements_is_refused_and_rolled_back(
        sqlite_store):
    """SQLite runs a transaction whole in its writer's thread (PostgreSQL's runs on the loop)."""
    store = sqlite_store

    async def wanders(tx) -> None:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('wandered', 'yes')")
        await asyncio.sleep(0)  # not a statement: it would need the event loop, which is elsewhere

    with pytest.raises(RuntimeError, match="awaited something other than its statements"):
        await store.db.transaction(wanders)
    assert await store.settings.meta("wandered") is None, "rolled back"
    await store.settings.set_meta("after", "fine")  # the writer goes on
    assert await store.settings.meta("after") == "fine"


async def test_a_transaction_that_awaits_others_holds_the_writer_and_the_rest_wait_for_its_end(store):
    """copy-database's transaction reads another database as it writes (`awaits_others`): on SQLite it runs
    from the loop, and a transaction asked meanwhile runs after its COMMIT, never inside it."""
    go_on, order = asyncio.Event(), []

    async def long(tx) -> None:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('long', 'begun')")
        await go_on.wait()  # another database read meanwhile
        await tx.execute("UPDATE meta SET value = 'done' WHERE key = 'long'")
        order.append("long")

    async def short(tx) -> None:
        await tx.execute("INSERT INTO meta (key, value) VALUES ('short', 'yes')")
        order.append("short")

    first = asyncio.create_task(store.db.transaction(long, awaits_others=True))
    for _ in range(20):
        await asyncio.sleep(0.01)
    second = asyncio.create_task(store.db.transaction(short))
    for _ in range(20):
        await asyncio.sleep(0.01)
    if store.db.dialect.name == "sqlite":
        assert order == [] and not second.done(), "the other transaction waits for the long one's end"
    go_on.set()
    await asyncio.gather(first, second)
    assert await store.settings.meta("long") == "done" and await store.settings.meta("short") == "yes"
    if store.db.dialect.name == "sqlite":
        assert order == ["long", "short"]


async def test_on_postgresql_a_read_never_waits_for_the_connections_transactions_hold(postgres_url):
    """Under load every write connection may be held by a transaction (issue 44: panels waited seconds for
    a connection); a read outside a transaction has connections of its own and answers meanwhile."""
    from storage.postgres.database import PostgresDatabase
    from storage.url import DatabaseURL

    dsn = DatabaseURL.parse(postgres_url).dsn
    assert dsn is not None
    db = await PostgresDatabase.open(dsn, max_size=2)
    held, release = asyncio.Event(), threading.Event()  # the writes run on a loop of their own, in a thread
    loop, started = asyncio.get_running_loop(), 0

    async def hold(tx):
        nonlocal started
        await tx.fetchone("SELECT 1 AS one")
        started += 1
        if started == 2:
            loop.call_soon_threadsafe(held.set)
        while not release.is_set():  # (a long transaction, drawn out)
            await asyncio.sleep(0.01)

    writers = [asyncio.ensure_future(db.transaction(hold)) for _ in range(2)]
    try:
        await asyncio.wait_for(held.wait(), 30)  # both write connections are taken now
        row = await asyncio.wait_for(db.fetchone("SELECT 41 + 1 AS answer"), 30)
        assert row is not None and row["answer"] == 42 and not any(w.done() for w in writers)
    finally:
        release.set()
        await asyncio.gather(*writers)
        await db.close()
