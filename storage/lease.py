"""The lease: which process serves this database. One row; its holder renews the heartbeat.

A bot keeps open games in memory between moves, so two processes on one file would each answer from
their own copy. The lease lets only one serve: it can be taken when free, or when its heartbeat is older
than the takeover time (the holder died or froze). Times are wall-clock (unix): processes compare them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .errors import LeaseHeld


@dataclass(frozen=True)
class Lease:
    holder: str  # the process's random id
    pid: int
    host: str
    taken_at: float
    heartbeat_at: float


class LeaseMixin:
    async def lease(self) -> Lease | None:
        row = await self._fetchone("SELECT holder, pid, host, taken_at, heartbeat_at FROM lease WHERE id = 1")
        return Lease(*row) if row else None

    async def take_lease(self, holder: str, pid: int, host: str, seconds: float, now: float | None = None) -> Lease:
        """Hold the lease if it is free, already ours, or its heartbeat is more than `seconds` old;
        otherwise raise LeaseHeld with the live holder. One transaction, so two takers cannot both win."""
        now = time.time() if now is None else now

        async def work(db):
            async with db.execute("SELECT holder, pid, host, taken_at, heartbeat_at FROM lease WHERE id = 1") as cur:
                row = await cur.fetchone()
            current = Lease(*row) if row else None
            if current is not None and current.holder != holder and now - current.heartbeat_at < seconds:
                raise LeaseHeld(current, seconds, now)
            taken_at = current.taken_at if current is not None and current.holder == holder else now
            await db.execute(
                "INSERT INTO lease (id, holder, pid, host, taken_at, heartbeat_at) VALUES (1, ?, ?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, pid = excluded.pid, host = excluded.host,"
                " taken_at = excluded.taken_at, heartbeat_at = excluded.heartbeat_at",
                (holder, pid, host, taken_at, now),
            )
            return Lease(holder, pid, host, taken_at, now)

        return await self._transaction(work)

    async def renew_lease(self, holder: str, now: float | None = None) -> bool:
        """Refresh the heartbeat; False if `holder` no longer holds the lease (taken over, or released)."""
        now = time.time() if now is None else now

        async def work(db):
            cur = await db.execute("UPDATE lease SET heartbeat_at = ? WHERE id = 1 AND holder = ?", (now, holder))
            return cur.rowcount == 1

        return await self._transaction(work)

    async def release_lease(self, holder: str) -> bool:
        """Give the lease up (a clean stop), so the next process starts at once; False if it was not ours."""

        async def work(db):
            return (await db.execute("DELETE FROM lease WHERE id = 1 AND holder = ?", (holder,))).rowcount == 1

        return await self._transaction(work)
