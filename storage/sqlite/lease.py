"""The lease on SQLite: the lease row (lease.py), behind the kernel's lock on a file beside the database
(host_lock.py), which the serving process holds: a holder that died on this host is taken over at once;
one elsewhere (a file on a network share), or frozen, once its heartbeat is stale.

SQLite serves one process, so its one row is the whole database, every shard (the bot refuses SHARD_IDS
that leave shards to others on SQLite: bot/shards.py)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterable

from ..lease import Lease, LeaseHeld, Leases
from ..ownership import Ownership
from ..sql import Database
from .host_lock import HostLock, holder_alive


class HostLeases:
    def __init__(self, db: Database, path: str):
        self.rows = Leases(db)
        self.path = path
        self.host_lock = HostLock(path)  # held while this process holds the lease
        self.ownership = Ownership()  # what the game writes are fenced with, once taken

    async def lease(self) -> Lease | None:
        return await self.rows.lease()

    async def live_lease(self, now: float | None = None) -> Lease | None:
        """The lease if its holder lives: its heartbeat is fresh, unless it ran here and the kernel says it
        is dead."""
        lease = await self.rows.live_lease(now)
        if lease is not None and lease.host == socket.gethostname() and holder_alive(self.path) is False:
            return None
        return lease

    async def leases(self) -> list[Lease]:
        return await self.rows.leases()

    async def take_lease(self, holder: str, pid: int, host: str, seconds: float, now: float | None = None, *,
                         shards: Iterable[int] = (0,), count: int = 1) -> Lease:
        """The whole database, whatever `shards` (one process serves them all here)."""
        # Taken only by this call: no live process on this host holds the database (host_lock.py).
        locked_now = self.host_lock.acquire()
        if not locked_now and not self.host_lock.held and holder_alive(self.path):
            # A live process here holds the file's lock: say so from a read, for it may be stopped inside a
            # write (then a write would only wait for SQLite's busy timeout).
            current = await self.rows.lease()
            if current is not None and current.holder != holder and current.host == host and not current.stale(
                    time.time() if now is None else now):
                raise LeaseHeld(current, time.time() if now is None else now, alive=True)
        try:
            taken = await self.rows.take_lease(
                holder, pid, host, seconds, now, gone=lambda current: current.host == host and locked_now,
                alive=lambda current: current.host == host and not self.host_lock.held)
        except BaseException:
            if locked_now:
                self.host_lock.release()
            raise
        self.ownership.claimed(holder, {0}, 1)
        return taken

    async def renew_lease(self, holder: str, now: float | None = None) -> bool:
        held = await self.rows.renew_lease(holder, now)
        if held:
            # Taken over from a frozen holder on this host: its kernel lock is ours once it has gone.
            self.host_lock.acquire()
        else:
            self.host_lock.release()  # lets a successor on this host see that this process no longer serves
        return held

    async def release_lease(self, holder: str) -> bool:
        released = await self.rows.release_lease(holder)
        if released:
            self.host_lock.release()
        return released

    async def close(self) -> None:
        self.host_lock.release()

