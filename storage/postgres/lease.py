"""The lease on PostgreSQL: the lease row (lease.py), behind a session-level advisory lock that the holder
keeps on a connection of its own, outside the pool.

PostgreSQL frees an advisory lock when its session ends, so a holder that dies (kill -9, a crash, its
machine gone) frees the lease as soon as its connection is gone: the next process takes over at once,
whatever the row's heartbeat says. A holder that is alive but frozen keeps its connection, and so the
lock: once its heartbeat is older than its takeover time, a taker ends that session
(`pg_terminate_backend`), which frees the lock, and takes the lease; the frozen process finds it gone
at its next heartbeat. The row keeps saying who holds the lease (pid, host, since) for messages.

(Several processes each owning some shards will each hold a lock per shard: the key names the shard.)
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import asyncpg

from ..lease import Lease, LeaseHeld, Leases
from .database import PostgresDatabase, lost

KEY = 0x6175677362757202  # the advisory lock key of the whole database's lease ("augsbur\x02")
TAKEOVER_WAIT = 5.0  # seconds to wait for a frozen holder's session to end once it was told to


class AdvisoryLeases:
    def __init__(self, db: PostgresDatabase):
        self.db = db
        self.rows = Leases(db)
        self._con: asyncpg.Connection | None = None  # the connection holding the lock
        self._holding = False  # from taking the lease to giving it up (or finding it gone): its connection may drop
        self._busy = asyncio.Lock()  # that connection runs one statement at a time (renewals can overlap)

    async def lease(self) -> Lease | None:
        return await self.rows.lease()

    async def live_lease(self, now: float | None = None) -> Lease | None:
        """The lease if a live process holds it: one whose session holds the lock."""
        if self._holding:
            return await self.rows.lease()
        con = await self.db.connect()
        try:
            if await con.fetchval("SELECT pg_try_advisory_lock($1)", KEY):
                return None  # nobody holds it (closing this connection frees it again)
        finally:
            await con.close()
        now = time.time() if now is None else now
        return await self.rows.lease() or Lease("", 0, "an unknown host", now, now, 0.0)

    async def take_lease(self, holder: str, pid: int, host: str, seconds: float, now: float | None = None) -> Lease:
        async with self._busy:
            return await self._take(holder, pid, host, seconds, now)

    async def _take(self, holder: str, pid: int, host: str, seconds: float, now: float | None) -> Lease:
        now = time.time() if now is None else now
        fresh = False
        if self._con is None or self._con.is_closed():
            self._con = await self._lock(holder, now)
            fresh = True
        try:
            # Locked by this call: whoever the row names is gone. Otherwise the lock is this process's already
            # (one process, several holder ids: tests), and the row decides.
            taken = await self.rows.take_lease(holder, pid, host, seconds, now, gone=lambda current: fresh)
        except BaseException:
            if fresh:
                await self._unlock()
            raise
        self._holding = True
        return taken

    async def _lock(self, holder: str, now: float) -> asyncpg.Connection:
        con = await self.db.connect()
        try:
            if await con.fetchval("SELECT pg_try_advisory_lock($1)", KEY):
                return con
            current = await self.rows.lease()  # a live session holds the lock
            if current is not None and current.holder != holder and current.stale(now):
                await con.fetch(  # frozen past its takeover time: end the session that holds the lock
                    "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                    " AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 1"
                    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                    KEY >> 32, KEY & 0xFFFFFFFF)
                until = time.monotonic() + TAKEOVER_WAIT
                while time.monotonic() < until:
                    if await con.fetchval("SELECT pg_try_advisory_lock($1)", KEY):
                        return con
                    await asyncio.sleep(0.05)
            raise LeaseHeld(current or Lease("", 0, "an unknown host", now, now, 0.0), now, alive=True)
        except BaseException:
            await con.close()
            raise

    async def renew_lease(self, holder: str, now: float | None = None) -> bool:
        """The heartbeat; False if the lease is no longer ours. If the lock's connection was lost (the server
        restarted), the lock is taken again first, unless another process has taken it meanwhile."""
        async with self._busy:
            return await self._renew(holder, now)

    async def _renew(self, holder: str, now: float | None) -> bool:
        if not self._holding:
            return False
        if self._con is None or not await self._still_locked():
            await self._drop_connection()
            con = await self.db.connect()  # unreachable: raises, and the keeper tries again (lease.py)
            if not await con.fetchval("SELECT pg_try_advisory_lock($1)", KEY):
                await con.close()  # another process holds it now
                self._holding = False
                return False
            self._con = con
        return await self.rows.renew_lease(holder, now)

    async def _still_locked(self) -> bool:
        if self._con.is_closed():
            return False
        try:
            await self._con.fetchval("SELECT 1", timeout=5)
        except Exception as exc:
            if lost(exc):
                return False
            raise
        return True

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

