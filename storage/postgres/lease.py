"""The lease on PostgreSQL: a lease row per shard (lease.py), each behind a session-level advisory lock
(its key names the shard) that the holder keeps on a connection of its own, outside the pool.

PostgreSQL frees an advisory lock when its session ends, so a holder that dies (kill -9, a crash, its
machine gone) frees its shards as soon as its connection is gone: the next process takes over at once,
whatever the rows' heartbeat says. A holder that is alive but frozen keeps its connection, and so the
locks: once its heartbeat is older than its takeover time, a taker ends that session
(`pg_terminate_backend`), which frees them, and takes the shards; the frozen process finds them gone at
its next heartbeat, and its writes meanwhile are refused by the fence (ownership.py). The rows keep saying
who holds each shard (pid, host, since) for messages.

Session locks need a session: behind PgBouncer's transaction pooling they do not hold (see the README).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterable

import asyncpg

from ..lease import RENEW, Lease, LeaseHeld, Leases
from ..ownership import Ownership
from .database import PostgresDatabase, lost, numbered

KEY = 0x6175677362757202  # the advisory lock key of shard 0's lease, the whole database's ("augsbur\x02")
TAKEOVER_WAIT = 5.0  # seconds to wait for a frozen holder's session to end once it was told to
HEARTBEAT_TIMEOUT = 5.0  # seconds a heartbeat may take before the keeper counts it failed (lease.py retries)


def key(shard: int) -> int:
    """Shard s's lock: KEY + s (shard 0 keeps the key of the lease before sharding)."""
    return KEY + shard


def unknown(now: float, shard: int = 0) -> Lease:
    """A lock held by a session whose row is not (yet) written."""
    return Lease("", 0, "an unknown host", now, now, 0.0, shard)


class AdvisoryLeases:
    def __init__(self, db: PostgresDatabase):
        self.db = db
        self.rows = Leases(db)
        self.ownership = Ownership()  # what the game writes are fenced with, once claimed
        self._con: asyncpg.Connection | None = None  # the connection holding the locks
        self._session = 0  # its server process (a lost connection's session may outlive it on the server)
        self._shards: list[int] = []  # the shards claimed
        self._holding = False  # from taking the lease to giving it up (or finding it gone): its connection may drop
        self._busy = asyncio.Lock()  # that connection runs one statement at a time (renewals can overlap)

    async def lease(self) -> Lease | None:
        return await self.rows.lease()

    async def leases(self) -> list[Lease]:
        return await self.rows.leases()

    async def live_lease(self, now: float | None = None) -> Lease | None:
        """A lease a live process holds: one whose session holds its shard's lock."""
        if self._holding:
            return await self.rows.lease()
        now = time.time() if now is None else now
        rows = {lease.shard: lease for lease in await self.rows.leases()}
        con = await self.db.connect()
        try:
            for shard in sorted({0, *rows}):
                if not await con.fetchval("SELECT pg_try_advisory_lock($1)", key(shard)):
                    return rows.get(shard) or unknown(now, shard)
            return None  # nobody holds any (closing this connection frees them again)
        finally:
            await con.close()

    async def take_lease(self, holder: str, pid: int, host: str, seconds: float, now: float | None = None, *,
                         shards: Iterable[int] = (0,), count: int = 1) -> Lease:
        async with self._busy:
            return await self._take(holder, pid, host, seconds, now, sorted(set(shards)), count)

    async def _take(self, holder: str, pid: int, host: str, seconds: float, now: float | None, shards: list[int],
                    count: int) -> Lease:
        now = time.time() if now is None else now
        con = self._con
        fresh = con is None or con.is_closed()
        if con is None or fresh:
            con = self._con = await self._lock(holder, now, shards)
            self._session = con.get_server_pid()
        try:
            # Locked by this call: whoever the rows of these shards name is gone. Otherwise the locks are this
            # process's already (one process, several holder ids: tests), and the rows decide. A row of a
            # holder counting the shards otherwise is gone if its lock is free.
            free = set(shards) if fresh else set()
            others = [lease for lease in await self.rows.leases() if lease.shard_count != count
                      and lease.shard not in shards and lease.holder != holder]
            tried = [lease.shard for lease in others
                     if await con.fetchval("SELECT pg_try_advisory_lock($1)", key(lease.shard))]
            try:
                taken = await self.rows.take_lease(
                    holder, pid, host, seconds, now, shards=shards, count=count,
                    gone=lambda current: current.shard in free or current.shard in tried,
                    alive=lambda current: fresh)
            finally:
                for shard in tried:
                    await con.fetchval("SELECT pg_advisory_unlock($1)", key(shard))
        except BaseException:
            if fresh:
                await self._unlock()
            raise
        self._holding, self._shards = True, shards
        self.ownership.claimed(holder, shards, count)
        return taken

    async def _lock(self, holder: str, now: float, shards: list[int]) -> asyncpg.Connection:
        """A connection holding every shard's lock, or LeaseHeld (and none held: all or nothing)."""
        con = await self.db.connect()
        try:
            for shard in shards:
                if not await con.fetchval("SELECT pg_try_advisory_lock($1)", key(shard)):
                    await self._take_over(con, holder, now, shard)
            return con
        except BaseException:
            await con.close()  # frees the locks taken so far
            raise

    async def _take_over(self, con: asyncpg.Connection, holder: str, now: float, shard: int) -> None:
        """A live session holds the shard's lock: end it if its holder is frozen past its takeover time and
        take the lock, else LeaseHeld."""
        current = next((lease for lease in await self.rows.leases() if lease.shard == shard), None)
        if current is not None and current.holder != holder and current.stale(now):
            if await _end_and_take(con, key(shard), await _holding(con, key(shard))):
                return
        raise LeaseHeld(current or unknown(now, shard), now, alive=True)

    async def renew_lease(self, holder: str, now: float | None = None) -> bool:
        """The heartbeat; False if a shard is no longer ours. If the locks' connection was lost (the server
        restarted), they are taken again first, unless another process has taken one meanwhile."""
        async with self._busy:
            return await self._renew(holder, now)

    async def _renew(self, holder: str, now: float | None) -> bool:
        if not self._holding:
            return False
        now = time.time() if now is None else now
        con = self._con
        if con is not None and not con.is_closed():
            try:
                return await self._heartbeat(con, holder, now)
            except Exception as exc:
                if not lost(exc):
                    raise
        lost_session = self._session
        await self._drop_connection()
        con = await self.db.connect()  # unreachable: raises, and the keeper tries again (lease.py)
        for shard in self._shards:
            if not await _relock(con, key(shard), lost_session):
                await con.close()  # another process holds it now
                self._holding = False
                return False
        self._con, self._session = con, con.get_server_pid()
        return await self._heartbeat(con, holder, now)

    async def _heartbeat(self, con: asyncpg.Connection, holder: str, now: float) -> bool:
        """The rows' heartbeat, on the locks' own connection: it proves the locks are still held, and never
        waits behind the game writes for one of the pool's (under load that took seconds, and every
        interaction after a stall waits for the lease: lease.py's still_held)."""
        status = await con.execute(numbered(RENEW), now, holder, timeout=HEARTBEAT_TIMEOUT)
        return status == f"UPDATE {len(self._shards)}"

    async def release_lease(self, holder: str) -> bool:
        async with self._busy:
            released = await self.rows.release_lease(holder)
            if released:
                await self._unlock()
            return released

    async def _unlock(self) -> None:
        self._holding = False
        await self._drop_connection()

    async def _drop_connection(self) -> None:
        con, self._con = self._con, None
        if con is not None:
            with contextlib.suppress(Exception):  # closing the session frees the lock, however it ends
                await con.close(timeout=5)
            con.terminate()

    async def close(self) -> None:
        async with self._busy:
            await self._unlock()


async def _relock(con: asyncpg.Connection, lock: int, lost_session: int) -> bool:
    """Take a lock again after its connection was lost. The server ends the lost connection's session, and
    lets go of its locks, only once it notices the connection gone: at once when it restarted, a moment later
    on a busy machine, not for hours when the network between dropped (TCP keepalive). A lock the lost
    session still holds is this process's: that session is ended and the lock taken. Any other holder is
    another process's, and False."""
    if await con.fetchval("SELECT pg_try_advisory_lock($1)", lock):
        return True
    session = await _holding(con, lock)  # None: let go meanwhile
    return session in (None, lost_session) and await _end_and_take(con, lock, session)


async def _holding(con: asyncpg.Connection, lock: int) -> int | None:
    """The server process whose session holds the lock, if one does."""
    session: int | None = await con.fetchval(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1::bigint::oid"
        " AND objid = $2::bigint::oid AND objsubid = 1"
        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        lock >> 32, lock & 0xFFFFFFFF)
    return session


async def _end_and_take(con: asyncpg.Connection, lock: int, session: int | None) -> bool:
    """End the session holding the lock (None: it let go meanwhile), then take it; False if that did not
    happen within TAKEOVER_WAIT."""
    if session is not None:
        await con.fetchval("SELECT pg_terminate_backend($1)", session)
    until = time.monotonic() + TAKEOVER_WAIT
    while time.monotonic() < until:
        if await con.fetchval("SELECT pg_try_advisory_lock($1)", lock):
            return True
        await asyncio.sleep(0.05)
    return False
