"""The lease (LeaseStore): which process serves which of the bot's Discord shards in this database. A row
per shard claimed (ownership.py: row 1 is shard 0, the whole database when SHARD_COUNT=1); its holder
renews the heartbeat of all its rows at once.

A bot keeps open games in memory between moves, so two processes serving one shard would each answer from
their own copy. The lease lets only one serve each shard: it can be taken when free, when a lock beside
the row says its holder is dead, or when its heartbeat is older than the holder's takeover time (it froze,
or ran where no lock can tell). A process claims all its shards or none. Every process on a database must
count the shards alike (SHARD_COUNT): a live holder counting them otherwise is in the way of any claim.
Times are wall-clock (unix): processes compare them.

The rows are written here; each backend puts its lock in front of them: on SQLite the kernel's lock on a
file beside the database (sqlite/lease.py: a dead holder on this host; one process, the whole database),
on PostgreSQL an advisory lock per shard held by the holder's own connection (postgres/lease.py: a dead
holder anywhere).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .errors import StorageError
from .ownership import row_of
from .sql import Database, Transaction

_COLUMNS = "holder, pid, host, taken_at, heartbeat_at, seconds"
_SELECT = f"SELECT {_COLUMNS}, id - 1 AS shard, shard_count FROM lease"


@dataclass(frozen=True)
class Lease:
    holder: str  # the process's random id
    pid: int
    host: str
    taken_at: float
    heartbeat_at: float
    seconds: float  # the holder's takeover time: it renews well within it
    shard: int = 0
    shard_count: int = 1

    def stale(self, now: float) -> bool:
        return now - self.heartbeat_at >= self.seconds


class LeaseHeld(StorageError):
    """Another live process serves this database (its heartbeat is younger than its takeover time)."""

    def __init__(self, lease: Lease, now: float, alive: bool = False):
        self.lease = lease
        self.alive = alive  # known alive (its lock is held): waiting would not help
        self.age = max(0.0, now - lease.heartbeat_at)  # seconds since its last heartbeat
        self.wait = max(0.0, lease.seconds - self.age)  # until it may be taken over, if it stays silent
        super().__init__(f"pid {lease.pid} on {lease.host} holds the lease of shard {lease.shard} of"
                         f" {lease.shard_count} (heartbeat {self.age:.0f} s ago)")


def never(lease: Lease) -> bool:
    return False


RENEW = "UPDATE lease SET heartbeat_at = ? WHERE holder = ?"


class Leases:
    """The lease rows alone (what each backend's lock stands in front of)."""

    def __init__(self, db: Database):
        self.db = db

    async def leases(self) -> list[Lease]:
        return [Lease(*row) for row in await self.db.fetchall(f"{_SELECT} ORDER BY id")]

    async def lease(self) -> Lease | None:
        """The first shard's lease (the whole database's with SHARD_COUNT=1)."""
        held = await self.leases()
        return held[0] if held else None

    async def live_lease(self, now: float | None = None) -> Lease | None:
        """A lease a live process holds (its heartbeat is fresh); None if nobody serves the database."""
        now = time.time() if now is None else now
        return next((lease for lease in await self.leases() if not lease.stale(now)), None)

    async def take_lease(self, holder: str, pid: int, host: str, seconds: float, now: float | None = None, *,
                         shards: Iterable[int] = (0,), count: int = 1, gone: Callable[[Lease], bool] = never,
                         alive: Callable[[Lease], bool] = never) -> Lease:
        """Hold the lease of each of `shards` (of `count`), promising a heartbeat well within `seconds`, if
        every row in the way is free, already ours, stale, or its holder is `gone` (the backend's lock says
        so); otherwise raise LeaseHeld naming one holder in the way (`alive`: the lock says it lives) and take
        none. In the way: the rows of these shards, and any row of a holder counting the shards otherwise.
        One transaction, so two takers cannot both win."""
        now = time.time() if now is None else now
        wanted = sorted(set(shards))

        async def work(tx: Transaction) -> Lease:
            rows = await tx.fetchall(f"{_SELECT} ORDER BY id{self.db.dialect.for_update}")
            held = {lease.shard: lease for lease in (Lease(*row) for row in rows)}
            for current in held.values():
                in_the_way = current.shard in wanted or current.shard_count != count
                if in_the_way and current.holder != holder and not (gone(current) or current.stale(now)):
                    raise LeaseHeld(current, now, alive=alive(current))
            await tx.execute("DELETE FROM lease WHERE shard_count != ?", (count,))
            taken = []
            for shard in wanted:
                mine = held.get(shard)
                since = mine.taken_at if mine is not None and mine.holder == holder else now
                lease = Lease(holder, pid, host, since, now, float(seconds), shard, count)
                await tx.execute(
                    f"INSERT INTO lease (id, {_COLUMNS}, shard_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id)"
                    " DO UPDATE SET holder = excluded.holder, pid = excluded.pid, host = excluded.host, taken_at ="
                    " excluded.taken_at, heartbeat_at = excluded.heartbeat_at, seconds = excluded.seconds,"
                    " shard_count = excluded.shard_count",
                    (row_of(shard), lease.holder, lease.pid, lease.host, lease.taken_at, lease.heartbeat_at,
                     lease.seconds, count),
                )
                taken.append(lease)
            return taken[0]

        return await self.db.transaction(work)

    async def renew_lease(self, holder: str, now: float | None = None, *, rows: int = 1) -> bool:
        """Refresh the heartbeat of `holder`'s `rows` leases; False if any is no longer its (taken over, or
        released)."""
        now = time.time() if now is None else now

        async def work(tx: Transaction) -> bool:
            return await tx.execute(RENEW, (now, holder)) == rows

        return await self.db.transaction(work)

    async def release_lease(self, holder: str) -> bool:
        """Give the leases up (a clean stop), so the next process starts at once; False if none was ours."""

        async def work(tx: Transaction) -> bool:
            return await tx.execute("DELETE FROM lease WHERE holder = ?", (holder,)) >= 1

        return await self.db.transaction(work)
