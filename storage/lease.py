"""The lease (LeaseStore): which process serves this database. One row; its holder renews the heartbeat.

A bot keeps open games in memory between moves, so two processes on one database would each answer from
their own copy. The lease lets only one serve: it can be taken when free, when a lock beside the row says
its holder is dead, or when its heartbeat is older than the holder's takeover time (it froze, or ran where
no lock can tell). Times are wall-clock (unix): processes compare them.

The row is written once here; each backend puts its lock in front of it: on SQLite the kernel's lock on a
file beside the database (sqlite/lease.py: a dead holder on this host), on PostgreSQL an advisory lock
held by the holder's own connection (postgres/lease.py: a dead holder anywhere).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .errors import StorageError
from .sql import Database

_COLUMNS = "holder, pid, host, taken_at, heartbeat_at, seconds"


@dataclass(frozen=True)
class Lease:
    holder: str  # the process's random id
    pid: int
    host: str
    taken_at: float
    heartbeat_at: float
    seconds: float  # the holder's takeover time: it renews well within it

    def stale(self, now: float) -> bool:
        return now - self.heartbeat_at >= self.seconds


class LeaseHeld(StorageError):
    """Another live process serves this database (its heartbeat is younger than its takeover time)."""

    def __init__(self, lease: Lease, now: float, alive: bool = False):
        self.lease = lease
        self.alive = alive  # known alive (its lock is held): waiting would not help
        self.age = max(0.0, now - lease.heartbeat_at)  # seconds since its last heartbeat
        self.wait = max(0.0, lease.seconds - self.age)  # until it may be taken over, if it stays silent
        super().__init__(f"pid {lease.pid} on {lease.host} holds the lease (heartbeat {self.age:.0f} s ago)")


def never(lease: Lease) -> bool:
    return False


class Leases:
    """The lease row alone (what each backend's lock stands in front of)."""

    def __init__(self, db: Database):
        self.db = db

    async def lease(self) -> Lease | None:
        row = await self.db.fetchone(f"SELECT {_COLUMNS} FROM lease WHERE id = 1")
        return Lease(*row) if row else None

    async def live_lease(self, now: float | None = None) -> Lease | None:
        """The lease if a live process holds it (its heartbeat is fresh); None if nobody serves the database."""
        lease = await self.lease()
        return lease if lease is not None and not lease.stale(time.time() if now is None else now) else None

    async def take_lease(self, holder: str, pid: int, host: str, seconds: float, now: float | None = None, *,
                         gone: Callable[[Lease], bool] = never, alive: Callable[[Lease], bool] = never) -> Lease:
        """Hold the lease (promising a heartbeat well within `seconds`) if it is free, already ours, stale, or
        its holder is `gone` (the backend's lock says so); otherwise raise LeaseHeld (`alive`: the lock says
        the holder lives). One transaction, so two takers cannot both win."""
        now = time.time() if now is None else now

        async def work(tx):
            row = await tx.fetchone(f"SELECT {_COLUMNS} FROM lease WHERE id = 1{self.db.dialect.for_update}")
            current = Lease(*row) if row else None
            ours = current is not None and current.holder == holder
            if current is not None and not (ours or gone(current) or current.stale(now)):
                raise LeaseHeld(current, now, alive=alive(current))
            lease = Lease(holder, pid, host, current.taken_at if ours else now, now, float(seconds))
            await tx.execute(
                f"INSERT INTO lease (id, {_COLUMNS}) VALUES (1, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET"
                " holder = excluded.holder, pid = excluded.pid, host = excluded.host, taken_at = excluded.taken_at,"
                " heartbeat_at = excluded.heartbeat_at, seconds = excluded.seconds",
                (lease.holder, lease.pid, lease.host, lease.taken_at, lease.heartbeat_at, lease.seconds),
            )
            return lease

        return await self.db.transaction(work)

    async def renew_lease(self, holder: str, now: float | None = None) -> bool:
        """Refresh the heartbeat; False if `holder` no longer holds the lease (taken over, or released)."""
        now = time.time() if now is None else now

        async def work(tx):
            return await tx.execute("UPDATE lease SET heartbeat_at = ? WHERE id = 1 AND holder = ?", (now, holder)) == 1

        return await self.db.transaction(work)

    async def release_lease(self, holder: str) -> bool:
        """Give the lease up (a clean stop), so the next process starts at once; False if it was not ours."""

        async def work(tx):
            return await tx.execute("DELETE FROM lease WHERE id = 1 AND holder = ?", (holder,)) == 1

        return await self.db.transaction(work)
