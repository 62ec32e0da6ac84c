"""Several processes on one PostgreSQL, each owning its Discord shards (issue 28, point 2): claiming is all or
nothing, a dead holder's shards are free at once, and every game write is fenced by its shard's lease, so a
stale owner can never write over its successor. Each Store here stands for one process (its own pool and
lock session). These fail rather than skip under CI=true (support/postgres.py)."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from support.storage_helpers import new_stored_game, play_random

from bot.app.config import Settings
from bot.app.shards import shards_of
from bot.service.lease import LeaseKeeper
from engine import apply
from engine.randomplay import random_action
from storage import LeaseHeld, ShardLost, Store
from storage.ownership import shard_of

T0 = 1_700_000_000.0


def guild_of_shard(shard: int, count: int = 2, n: int = 0) -> int:
    """A guild id (a snowflake) whose events Discord sends to `shard` of `count`."""
    guild = ((1000 + n) * count + shard) << 22
    assert shard_of(guild, count) == shard
    return guild


@pytest.fixture
async def processes(postgres_url):
    """Three stores on one database: three processes' connections."""
    opened = [await Store.open(postgres_url) for _ in range(3)]
    yield opened
    for store in opened:
        await store.close()


async def test_claiming_is_all_or_nothing_and_names_the_live_holder(processes):
    first, second, third = processes
    await first.leases.take_lease("a", 11, "host-a", 30, shards=[1], count=2)
    with pytest.raises(LeaseHeld) as refused:  # shard 0 is free, shard 1 is not: neither is taken
        await second.leases.take_lease("b", 22, "host-b", 30, shards=[0, 1], count=2)
    held = refused.value.lease
    assert (held.pid, held.host, held.shard, held.shard_count) == (11, "host-a", 1, 2) and refused.value.alive
    assert [(lease.shard, lease.holder) for lease in await third.leases.leases()] == [(1, "a")]
    taken = await third.leases.take_lease("c", 33, "host-c", 30, shards=[0], count=2)  # shard 0 was left free
    assert (taken.shard, taken.holder) == (0, "c")
    assert [(lease.shard, lease.holder) for lease in await third.leases.leases()] == [(0, "c"), (1, "a")]


async def test_a_process_counting_the_shards_otherwise_is_refused_while_the_other_lives(processes):
    first, second, third = processes
    await first.leases.take_lease("a", 11, "host-a", 30, shards=[1], count=2)
    with pytest.raises(LeaseHeld) as refused:  # SHARD_COUNT=1 would own shard 1's guilds too
        await second.leases.take_lease("b", 22, "host-b", 30, shards=[0], count=1)
    assert refused.value.lease.shard_count == 2 and refused.value.lease.pid == 11
    first.leases._con.terminate()  # it dies: its lock goes with its session
    taken = await eventually(lambda: second.leases.take_lease("b", 22, "host-b", 30, shards=[0], count=1))
    assert [(lease.shard, lease.shard_count, lease.holder) for lease in await third.leases.leases()] == [(0, 1, "b")]
    assert taken.holder == "b"


async def test_a_dead_holders_shards_are_taken_at_once_however_fresh_its_heartbeat(processes):
    first, second, _ = processes
    await first.leases.take_lease("a", 11, "host-a", 60, shards=[0, 1], count=2)
    with pytest.raises(LeaseHeld):
        await second.leases.take_lease("b", 22, "host-b", 60, shards=[1], count=2)
    first.leases._con.terminate()  # kill -9: the socket closes, the server ends the session and its locks
    taken = await eventually(lambda: second.leases.take_lease("b", 22, "host-b", 60, shards=[1], count=2))
    assert taken.shard == 1 and taken.holder == "b"
    assert not await first.leases.renew_lease("a")  # had it lived on, it would find shard 1 gone


async def test_a_stale_owners_game_write_is_refused_and_it_is_told(processes):
    """A process frozen past its takeover time wakes up with a move in hand: the fence refuses it, nothing of
    it is written, and the process learns it lost the shard; its successor writes on."""
    stale, successor, reader = processes
    mine, theirs = guild_of_shard(1), guild_of_shard(0)
    await stale.leases.take_lease("a", 11, "host-a", 30, T0, shards=[0, 1], count=2)
    lost: list[ShardLost] = []
    stale.ownership.on_lost = lost.append
    game = await new_stored_game(stale, channel=5, seed=3, guild=mine)
    other = await new_stored_game(stale, channel=6, seed=4, guild=theirs)
    # Frozen: no heartbeat for longer than its takeover time. The successor takes its shard (its session is
    # ended, which frees its locks) and plays a move.
    await successor.leases.take_lease("b", 22, "host-b", 30, T0 + 31, shards=[1], count=2)
    moved = await play_random(successor, await successor.games.load_game(game.id), 1, random.Random(1))
    assert moved.version == game.version + 1

    player, action = random_action(game.state, random.Random(2))  # what the stale process was about to write
    with pytest.raises(ShardLost) as refused:
        await stale.games.commit_action(game.id, moved.version, player, action.to_json_dict(),
                                        apply(game.state, player, action).state)
    assert refused.value.shard == 1 and refused.value.holder == "b" and lost == [refused.value]
    after = await reader.games.load_game(game.id)
    assert after.version == moved.version and after.state.moves == moved.state.moves  # nothing written
    with pytest.raises(ShardLost):
        await stale.games.set_messages(game.id, after.messages)
    with pytest.raises(ShardLost):  # a new table in a guild of the lost shard too
        await new_stored_game(stale, channel=7, seed=5, guild=mine)
    # Shard 0 is still its own (nobody took it): its games go on.
    assert (await play_random(stale, other, 1, random.Random(3))).version == other.version + 1


async def test_each_process_reads_and_claims_only_its_own_shards_deadlines(processes):
    first, second, reader = processes
    await first.leases.take_lease("a", 11, "host-a", 30, shards=[0], count=2)
    await second.leases.take_lease("b", 22, "host-b", 30, shards=[1], count=2)
    games = {shard: await new_stored_game(reader, channel=10 + shard, seed=shard, guild=guild_of_shard(shard))
             for shard in (0, 1)}
    for shard, game in games.items():
        await reader.deadlines.set_deadline(game.id, "u", "timeout", T0 + shard)
    assert [d.game_id for d in await first.deadlines.deadlines(due_before=T0 + 5)] == [games[0].id]
    assert [d.game_id for d in await second.deadlines.deadlines(due_before=T0 + 5)] == [games[1].id]
    assert [g for g, _, _ in await first.games.open_channels()] == [games[0].id]
    await reader.deadlines.set_person_deadline("u", "daily", T0 + 9)  # a person's own: shard 0's process counts it
    # The operator's gauges count what the lists hold, shard by shard, without reading them.
    assert [await s.games.count_open() for s in processes] == [1, 1, 2]
    assert [await s.deadlines.count_pending() for s in processes] == [2, 1, 3]
    assert [len(await s.deadlines.deadlines()) for s in processes] == [2, 1, 3]
    await reader.deadlines.set_person_deadline("u", "daily", None)
    assert [g.id for g in (await second.games.active_games())[0]] == [games[1].id]
    (theirs,) = await second.deadlines.deadlines()
    assert not await first.deadlines.drop_deadline(theirs)  # not its shard: the claim is refused
    assert not await first.deadlines.postpone_deadline(theirs, T0 + 99)
    assert await second.deadlines.drop_deadline(theirs)
    assert len(await reader.deadlines.deadlines()) == 1  # the reader (no claim) sees every shard's


async def eventually(attempt, tries: int = 100):
    """`attempt()` once the server has noticed a closed session (within moments)."""
    for _ in range(tries - 1):
        try:
            return await attempt()
        except LeaseHeld:
            await asyncio.sleep(0.05)
    return await attempt()


async def test_a_process_whose_write_was_fenced_out_stops_serving(processes, caplog):
    stale, successor, _ = processes
    stopped = asyncio.Event()

    async def on_lost():
        stopped.set()

    keeper = LeaseKeeper(stale.leases, stale.where, 30, on_lost, shards_of(Settings(
        _env_file=None, database_url="postgresql://x@y/z", shard_count=2, shard_ids="1")))
    await keeper.take()
    game = await new_stored_game(stale, channel=5, seed=3, guild=guild_of_shard(1))
    await successor.leases.take_lease("b", 22, "host-b", 30, time.time() + 60, shards=[1], count=2)  # as if stale
    with pytest.raises(ShardLost):
        await play_random(stale, game, 1, random.Random(1))
    await asyncio.wait_for(stopped.wait(), 10)
    assert keeper.lost and "shard 1 was refused" in caplog.text and "pid 22 on host-b" in caplog.text
    await keeper.release()
    assert [(lease.shard, lease.holder) for lease in await successor.leases.leases()] == [(1, "b")]


async def test_a_fenced_move_and_its_bookkeeping_are_one_statement_each(processes, monkeypatch):
    """Issue 44: a round trip to PostgreSQL is a turn of the connections' thread and of the interpreter's
    lock. A move whose previous hash is known is one statement, its own transaction (the game's row fenced
    in its WHERE, the action, the deadlines: storage/onestatement.py), and so is the bookkeeping after it.
    Once the shard is another's, that statement writes nothing and the process is told (ShardLost)."""
    import asyncpg

    owner, successor, reader = processes
    await owner.leases.take_lease("a", 11, "host-a", 30, T0, shards=[0, 1], count=2)
    lost: list[ShardLost] = []
    owner.ownership.on_lost = lost.append
    game = await new_stored_game(owner, channel=5, seed=3, guild=guild_of_shard(1))
    said: list[str] = []

    def counted(call):
        def counting(self, sql, *args, **kwargs):
            said.append(" ".join(sql.split()[:3]))
            return call(self, sql, *args, **kwargs)
        return counting

    for name in ("fetchrow", "fetch", "fetchval", "execute", "executemany"):  # all that reaches the server
        monkeypatch.setattr(asyncpg.connection.Connection, name, counted(getattr(asyncpg.connection.Connection, name)))
    moved = await play_random(owner, game, 2, random.Random(1))
    await owner.games.set_messages(moved.id, moved.messages, settled=moved.version)
    assert moved.version == game.version + 2
    assert said == ["WITH g AS"] * 3

    await successor.leases.take_lease("b", 22, "host-b", 30, T0 + 31, shards=[1], count=2)  # it froze: taken over
    player, action = random_action(moved.state, random.Random(2))
    with pytest.raises(ShardLost) as refused:
        await owner.games.commit_action(moved.id, moved.version, player, action.to_json_dict(),
                                        apply(moved.state, player, action).state)
    assert refused.value.holder == "b" and lost == [refused.value]
    with pytest.raises(ShardLost):
        await owner.games.set_messages(moved.id, moved.messages)
    assert (await reader.games.load_game(game.id)).version == moved.version  # nothing written
