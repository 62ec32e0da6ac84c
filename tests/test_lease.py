"""The database lease: one process serves a file; a stale holder can be taken over; a clean stop frees it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sqlite3
import sys
import threading
import time

import pytest
from support.bot_support import ADA, BEN, open_and_start

from bot.service.lease import LeaseKeeper, refusal
from storage import DatabaseBusy, LeaseHeld, Store
from storage.sqlite.database import BUSY_TIMEOUT_MS
from storage.sqlite.restore import live_holder

T0 = 1_700_000_000.0


async def test_a_free_lease_is_taken_and_a_live_one_refused(store):
    assert await store.leases.lease() is None
    first = await store.leases.take_lease("a", 11, "host-a", 30, now=T0)
    assert (first.holder, first.pid, first.host, first.taken_at, first.seconds) == ("a", 11, "host-a", T0, 30)
    with pytest.raises(LeaseHeld) as refused:
        await store.leases.take_lease("b", 22, "host-b", 30, now=T0 + 29)
    assert refused.value.lease.holder == "a" and refused.value.lease.pid == 11
    assert refused.value.age == 29 and refused.value.wait == 1
    assert (await store.leases.lease()).holder == "a"


async def test_a_renewed_lease_stays_held_and_a_stale_one_is_taken_over(store):
    await store.leases.take_lease("a", 11, "host-a", 30, now=T0)
    assert await store.leases.renew_lease("a", now=T0 + 25)
    with pytest.raises(LeaseHeld):
        await store.leases.take_lease("b", 22, "host-b", 30, now=T0 + 50)  # 25 s after the renewal
    taken = await store.leases.take_lease("b", 22, "host-b", 30, now=T0 + 55)
    assert taken.holder == "b" and taken.taken_at == T0 + 55
    assert not await store.leases.renew_lease("a", now=T0 + 56)  # the old holder finds it gone
    assert not await store.leases.release_lease("a")  # and cannot free someone else's
    assert (await store.leases.lease()).holder == "b"


async def test_the_holders_own_takeover_time_counts(store):
    await store.leases.take_lease("a", 11, "host-a", 60, now=T0)
    with pytest.raises(LeaseHeld) as refused:  # a taker with a shorter time must still wait for the holder's
        await store.leases.take_lease("b", 22, "host-b", 5, now=T0 + 30)
    assert refused.value.wait == 30


async def test_taking_again_keeps_the_start_time_and_release_frees_it(store):
    await store.leases.take_lease("a", 11, "host-a", 30, now=T0)
    again = await store.leases.take_lease("a", 11, "host-a", 30, now=T0 + 10)
    assert again.taken_at == T0 and again.heartbeat_at == T0 + 10
    assert await store.leases.release_lease("a")
    assert await store.leases.lease() is None
    assert (await store.leases.take_lease("b", 22, "host-b", 30, now=T0 + 11)).holder == "b"


async def test_the_refusal_is_one_line_naming_the_holder_and_the_wait(store):
    await store.leases.take_lease("a", 4242, "box", 30)
    with pytest.raises(LeaseHeld) as refused:
        await store.leases.take_lease("b", 1, "other", 30)
    line = refusal(refused.value, "/srv/augsburg.sqlite3")
    assert "\n" not in line and "/srv/augsburg.sqlite3" in line and "pid 4242 on box" in line
    assert "Stop it, or wait 30 s" in line


async def test_the_keeper_renews_and_releases(store):
    stopped = asyncio.Event()

    async def on_lost():
        stopped.set()

    keeper = LeaseKeeper(store.leases, store.where, 0.3, on_lost)
    await keeper.take()
    first = (await store.leases.lease()).heartbeat_at
    await asyncio.sleep(0.35)
    lease = await store.leases.lease()
    assert lease.holder == keeper.holder and lease.heartbeat_at > first
    await keeper.release()
    assert await store.leases.lease() is None and not stopped.is_set()


async def test_the_keeper_stops_the_bot_when_another_process_took_over(store, caplog):
    stopped = asyncio.Event()

    async def on_lost():
        stopped.set()

    keeper = LeaseKeeper(store.leases, store.where, 0.3, on_lost)
    await keeper.take()
    # As if this process had been frozen past the takeover time and another had started meanwhile.
    await store.leases.take_lease("other", 99, "elsewhere", 30, now=(await store.leases.lease()).heartbeat_at + 1)
    await asyncio.wait_for(stopped.wait(), 2)
    assert keeper.lost and "lost the lease" in caplog.text and "pid 99 on elsewhere" in caplog.text
    await keeper.release()  # what the bot's close does: the other's lease is left alone
    assert (await store.leases.lease()).holder == "other"


async def test_after_a_stall_a_bot_whose_lease_was_taken_answers_nothing_and_stops(harness, caplog):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    bot, keeper = h.bot, h.bot.lease
    held = await bot.service.core.store.leases.lease()
    assert held.holder == keeper.holder and held.pid == os.getpid()
    # Frozen past the takeover time: another process took the lease, and this one's heartbeat has not run
    # yet when the first interaction that queued up meanwhile arrives.
    await bot.service.core.store.leases.take_lease("other", 99, "elsewhere", 30, now=held.heartbeat_at + held.seconds)
    keeper._renewed -= keeper.seconds
    status = await h.slash(ADA, "augsburg status")
    clicked = await h.click(BEN, table, label="My hand & actions")
    assert status.response is None and clicked.response is None  # the other process answers these
    assert bot.is_closed() and keeper.lost and "lost the lease" in caplog.text
    async with await Store.open(h.db_path) as store:
        assert (await store.leases.lease()).holder == "other"  # left to its new holder


async def test_on_postgres_a_dead_holders_lease_is_taken_at_once(postgres_url):
    """The advisory lock goes with its holder's connection: a process killed with -9 frees the lease at once,
    however fresh its heartbeat."""
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        await first.leases.take_lease("a", 11, "host-a", 30)
        assert (await second.leases.live_lease()).holder == "a"
        with pytest.raises(LeaseHeld):
            await second.leases.take_lease("b", 22, "host-b", 30)
        first.leases._con.terminate()  # its process died: the socket closes, the server ends the session
        for _ in range(100):  # the server notices the closed socket within moments
            try:
                taken = await second.leases.take_lease("b", 22, "host-b", 30)
                break
            except LeaseHeld:
                await asyncio.sleep(0.05)
        assert taken.holder == "b" and (await first.leases.lease()).holder == "b"
        assert not await first.leases.renew_lease("a")  # had it lived on, it would find the lease gone
    finally:
        await first.close()
        await second.close()


async def test_on_postgres_a_frozen_holder_loses_the_lease_once_its_heartbeat_is_stale(postgres_url):
    first, second = await Store.open(postgres_url), await Store.open(postgres_url)
    try:
        await first.leases.take_lease("a", 11, "host-a", 30, now=T0)
        with pytest.raises(LeaseHeld) as refused:
            await second.leases.take_lease("b", 22, "host-b", 30, now=T0 + 29)
        assert refused.value.lease.pid == 11 and refused.value.wait == 1
        taken = await second.leases.take_lease("b", 22, "host-b", 30, now=T0 + 31)  # its session is ended
        assert taken.holder == "b"
        assert not await first.leases.renew_lease("a", now=T0 + 32)  # it wakes up: the lease is gone
        assert (await first.leases.live_lease()).holder == "b"
        assert await second.leases.release_lease("b") and await first.leases.live_lease() is None
    finally:
        await first.close()
        await second.close()


async def test_on_postgres_the_heartbeat_does_not_wait_for_the_game_writes(postgres_url):
    """Under load every connection of the pool can be in a game write; the heartbeat runs on the locks' own
    connection, so it is not queued behind them (it was, for seconds: every interaction after a stall waits
    for it)."""
    store = await Store.open(postgres_url)
    release = threading.Event()  # the writes run on a loop of their own, in a thread (postgres/thread.py)
    busy: list[asyncio.Task] = []
    try:
        await store.leases.take_lease("a", 11, "host-a", 30, now=T0)
        held: list[int] = []

        async def a_long_write(tx):
            await tx.fetchone("SELECT 1")
            held.append(1)
            while not release.is_set():
                await asyncio.sleep(0.01)

        busy = [asyncio.create_task(store.db.transaction(a_long_write)) for _ in range(store.db._pool.get_max_size())]
        for _ in range(1000):
            if len(held) == len(busy):
                break
            await asyncio.sleep(0.01)
        assert len(held) == len(busy)
        assert await asyncio.wait_for(store.leases.renew_lease("a", now=T0 + 10), 2)
        assert (await store.leases.lease()).heartbeat_at == T0 + 10
    finally:
        release.set()
        await asyncio.gather(*busy, return_exceptions=True)
        await store.close()


async def test_database_pool_size_sets_the_connections_for_writes_and_half_as_many_for_reads(postgres_url,
                                                                                            monkeypatch):
    from bot.app.config import Settings

    monkeypatch.setenv("DATABASE_POOL_SIZE", "")  # empty: not set
    assert Settings(_env_file=None).database_pool_size == 20
    monkeypatch.setenv("DATABASE_POOL_SIZE", "6")
    size = Settings(_env_file=None).database_pool_size
    store = await Store.open(postgres_url, pool_size=size)
    try:
        assert (store.db._pool.get_max_size(), store.db._reads.get_max_size()) == (6, 3)
    finally:
        await store.close()


async def test_after_a_stall_the_heartbeat_and_the_waiting_interactions_share_one_renewal(store):
    class Counting:  # the lease store, its renewals slow and counted
        def __init__(self, leases):
            self.leases, self.renewals = leases, 0

        def __getattr__(self, name):
            return getattr(self.leases, name)

        async def renew_lease(self, holder, now=None):
            self.renewals += 1
            await asyncio.sleep(0.3)
            return await self.leases.renew_lease(holder, now)

    async def on_lost():
        raise AssertionError("the lease is held")

    leases = Counting(store.leases)
    keeper = LeaseKeeper(leases, store.where, 0.6, on_lost)  # a heartbeat every 0.2 s
    await keeper.take()
    try:
        await asyncio.sleep(0.25)  # the heartbeat's renewal is under way
        assert leases.renewals == 1
        keeper._renewed -= keeper.seconds  # as if the loop had stalled: the interactions ask the database
        assert await asyncio.gather(*(keeper.still_held() for _ in range(20))) == [True] * 20
        assert leases.renewals == 1  # they waited for the heartbeat's renewal, not each for one after it
    finally:
        await keeper.release()


HOLDER = """
import asyncio, os, socket, sys
from storage import Store

async def main():
    store = await Store.open(sys.argv[1])
    await store.leases.take_lease("held-" + str(os.getpid()), os.getpid(), socket.gethostname(), 30)
    print("held", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


async def holding_process(path):
    """Another process on this host that takes the lease on `path` and keeps it (no heartbeat needed: 30 s)."""
    from conftest import ROOT

    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", HOLDER, str(path), cwd=ROOT,
                                                stdout=asyncio.subprocess.PIPE)
    assert (await asyncio.wait_for(proc.stdout.readline(), 30)).strip() == b"held"
    return proc


async def test_a_killed_holder_on_this_host_is_taken_over_at_once_and_a_live_one_refused(tmp_path):
    path = tmp_path / "bot.sqlite3"
    async with await Store.open(path) as store:
        for _ in range(3):
            proc = await holding_process(path)
            try:
                with pytest.raises(LeaseHeld) as refused:  # alive: refused, and said to be running here
                    await store.leases.take_lease("me", os.getpid(), socket.gethostname(), 30)
                assert refused.value.alive and refused.value.lease.pid == proc.pid
                assert "running on this machine: stop it first" in refusal(refused.value, str(path))
                assert live_holder(path) == f"pid {proc.pid} on {socket.gethostname()}"  # restore refuses too
            finally:
                proc.kill()  # kill -9: its row keeps a fresh heartbeat, but the kernel frees its lock
                await proc.wait()
            assert live_holder(path) is None
            taken = await store.leases.take_lease("me", os.getpid(), socket.gethostname(), 30)
            assert taken.holder == "me" and (await store.leases.lease()).pid == os.getpid()
            assert await store.leases.release_lease("me")


async def test_a_live_holder_stopped_inside_a_write_is_refused_at_once_not_after_the_busy_timeout(tmp_path):
    """A holder frozen (SIGSTOP) with SQLite's write lock: a second bot must not wait for the lock, it is told."""
    path = tmp_path / "bot.sqlite3"
    async with await Store.open(path) as store:
        proc = await holding_process(path)
        proc.send_signal(signal.SIGSTOP)
        try:
            with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as writer:
                writer.execute("BEGIN IMMEDIATE")  # stands in for the write it was stopped in
                started = time.monotonic()
                with pytest.raises(LeaseHeld) as refused:
                    await store.leases.take_lease("me", os.getpid(), socket.gethostname(), 30)
                assert time.monotonic() - started < BUSY_TIMEOUT_MS / 1000  # from a read: no wait for the lock
                assert refused.value.alive and refused.value.lease.pid == proc.pid
                writer.execute("ROLLBACK")
        finally:
            proc.kill()
            await proc.wait()


async def test_a_write_lock_held_past_the_busy_timeout_is_a_storage_refusal_not_a_crash(tmp_path):
    path = tmp_path / "bot.sqlite3"
    async with await Store.open(path) as store:
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as writer:
            writer.execute("BEGIN IMMEDIATE")  # a process stopped in a write, holding no lease
            with pytest.raises(DatabaseBusy, match="held its write lock"):
                await store.leases.take_lease("me", os.getpid(), socket.gethostname(), 30)
            writer.execute("ROLLBACK")
        assert (await store.leases.take_lease("me", os.getpid(), socket.gethostname(), 30)).holder == "me"


async def test_a_holder_on_another_host_is_trusted_until_its_heartbeat_goes_stale(store):
    """The lock file says nothing about other hosts (a shared folder): only the heartbeat does."""
    await store.leases.take_lease("far", 7, "another-host", 30, now=T0)
    with pytest.raises(LeaseHeld) as refused:
        await store.leases.take_lease("me", os.getpid(), socket.gethostname(), 30, now=T0 + 10)
    assert not refused.value.alive and "or wait 20 s if it has died" in refusal(refused.value, "db")
    assert (await store.leases.take_lease("me", os.getpid(), socket.gethostname(), 30, now=T0 + 30)).holder == "me"


async def test_renewals_at_once_all_find_the_lease_held(store):
    """After a stall every waiting interaction asks at once; on PostgreSQL they share one connection."""
    await store.leases.take_lease("a", 11, "host-a", 30)
    assert await asyncio.gather(*(store.leases.renew_lease("a") for _ in range(20))) == [True] * 20
