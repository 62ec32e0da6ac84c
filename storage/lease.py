"""The lease: which process serves this database. One row; its holder renews the heartbeat.

A bot keeps open games in memory between moves, so two processes on one file would each answer from
their own copy. The lease lets only one serve: it can be taken when free, when its holder ran on this host
and the kernel says it is dead (host_lock.py: the lock it held is free), or when its heartbeat is older
than the holder's takeover time (it froze, or ran on another host). Times are wall-clock (unix).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .errors import StorageError

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
        self.alive = alive  # known alive: it runs on this host and holds the kernel's lock
        self.age = max(0.0, now - lease.heartbeat_at)  # seconds since its last heartbeat
        self.wait = max(0.0, lease.seconds - self.age)  # until it may be taken over, if it stays silent
        super().__init__(f"pid {lease.pid} on {lease.host} holds the lease (heartbeat {self.age:.0f} s ago)")


class LeaseMixin:
    async def lease(self) -> Lease | None:
        row = await self._fetchone(f"SELECT {_COLUMNS} FROM lease WHERE id = 1")
        return Lease(*row) if row else None

    async def take_lease(self, holder: str, pid: int, host: str, seconds: float, now: float | None = None) -> Lease:
        """Hold the lease (promising a heartbeat well within `seconds`) if it is free, already ours, stale, or
        its holder ran on this host and is dead; otherwise raise LeaseHeld. One transaction, so two takers
        cannot both win."""
        now = time.time() if now is None else now
        # Taken only by this call: no live process on this host holds the database (host_lock.py).
        locked_now = self.host_lock.acquire()

        async def work(db):
            async with db.execute(f"SELECT {_COLUMNS} FROM lease WHERE id = 1") as cur:
                row = await cur.fetchone()
            current = Lease(*row) if row else None
            ours = current is not None and current.holder == holder
            dead = current is not None and current.host == host and locked_now
            if current is not None and not (ours or dead or current.stale(now)):
                raise LeaseHeld(current, now, alive=current.host == host and not self.host_lock.held)
            lease = Lease(holder, pid, host, current.taken_at if ours else now, now, seconds)
            await db.execute(
                f"INSERT OR REPLACE INTO lease (id, {_COLUMNS}) VALUES (1, ?, ?, ?, ?, ?, ?)",
                (lease.holder, lease.pid, lease.host, lease.taken_at, lease.heartbeat_at, lease.seconds),
            )
            return lease

        try:
            return await self._transaction(work)
        except BaseException:
            if locked_now:
                self.host_lock.release()
            raise

    async def renew_lease(self, holder: str, now: float | None = None) -> bool:
        """Refresh the heartbeat; False if `holder` no longer holds the lease (taken over, or released)."""
        now = time.time() if now is None else now

        async def work(db):
            cur = await db.execute("UPDATE lease SET heartbeat_at = ? WHERE id = 1 AND holder = ?", (now, holder))
            return cur.rowcount == 1

        held = await self._transaction(work)
        if held:
            # Taken over from a frozen holder on this host: its kernel lock is ours once it has gone.
            self.host_lock.acquire()
        else:
            self.host_lock.release()  # lets a successor on this host see that this process no longer serves
        return held

    async def release_lease(self, holder: str) -> bool:
        """Give the lease up (a clean stop), so the next process starts at once; False if it was not ours."""

        async def work(db):
            return (await db.execute("DELETE FROM lease WHERE id = 1 AND holder = ?", (holder,))).rowcount == 1

        released = await self._transaction(work)
        if released:
            self.host_lock.release()
        return released
