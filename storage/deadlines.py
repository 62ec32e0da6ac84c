"""Deadlines (DeadlineStore): rows the bot re-arms at start-up (the durable-timer pattern).

A deadline is claimed by its exact due time: dropping or postponing one changes the row only if it is
still due when the caller read it (`AND due_at = ?`), so of two schedulers acting on one deadline exactly
one wins, and one re-armed meanwhile (a later due time) is left alone. The move a timeout makes is a
version-checked game write besides. With several processes, each reads and claims only the deadlines of
its own shards' games (ownership.py), and a claim is fenced like a game write: a process that lost the
shard claims nothing. A person's own deadlines (people.py: game id 0, the daily word) come along in the
process that holds shard 0, and are claimed the same way.
"""

from __future__ import annotations

import json
from typing import Any

from . import people
from .ownership import Ownership
from .records import Deadline
from .rows import OPEN
from .sql import Database, Transaction, one
from .writes import UPSERT_DEADLINE


class Deadlines:
    def __init__(self, db: Database, ownership: Ownership | None = None):
        self.db = db
        self.ownership = ownership or Ownership()

    async def set_deadline(self, game_id: int, player: str, kind: str, due_at: float,
                           payload: dict[str, Any] | None = None) -> None:
        # One statement, no transaction around it: on PostgreSQL one round trip, not three (BEGIN, COMMIT).
        await self.db.statement(UPSERT_DEADLINE, (game_id, player, kind, float(due_at), json.dumps(payload or {})))

    async def clear_deadlines(self, game_id: int, player: str | None = None, kind: str | None = None) -> int:
        sql = "DELETE FROM deadlines WHERE game_id = ?"
        params: list[Any] = [game_id]
        if player is not None:
            sql, params = sql + " AND player = ?", params + [player]
        if kind is not None:
            sql, params = sql + " AND kind = ?", params + [kind]

        async def work(tx: Transaction) -> int:
            return await tx.execute(sql, params)

        return await self.db.transaction(work)

    async def deadlines(self, due_before: float | None = None, limit: int | None = None) -> list[Deadline]:
        """Deadlines of open games, and announcements of any game (its end is announced too), of this
        process's shards, the earliest first; `due_before`: only those due by then."""
        owned, params = self.ownership.only_owned("g.guild_id")
        sql = ("SELECT d.game_id, d.player, d.kind, d.due_at, d.payload, g.channel_id FROM deadlines d"
               f" JOIN games g ON g.id = d.game_id WHERE (g.status IN {OPEN} OR d.kind = 'announce'){owned}")
        if due_before is not None:
            sql, params = sql + " AND d.due_at <= ?", [*params, float(due_before)]
        sql += " ORDER BY d.due_at"
        if limit is not None:
            sql, params = sql + " LIMIT ?", [*params, limit]
        rows = await self.db.fetchall(sql, params)
        found = [Deadline(r["game_id"], r["player"], r["kind"], r["due_at"], json.loads(r["payload"]), r["channel_id"])
                 for r in rows]
        if 0 in self.ownership.shards or self.ownership.count == 1:  # people's own: shard 0's process
            found = sorted(found + await people.person_deadlines(self.db, due_before, limit), key=lambda d: d.due_at)
        return found[:limit] if limit is not None else found

    async def count_pending(self) -> int:
        """How many deadlines `deadlines()` would list (a gauge): counted, none read."""
        owned, params = self.ownership.only_owned("g.guild_id")
        row = await one(self.db, "SELECT COUNT(*) AS n FROM deadlines d JOIN games g ON g.id = d.game_id"
                        f" WHERE (g.status IN {OPEN} OR d.kind = 'announce'){owned}", params)
        count: int = row["n"]
        if 0 in self.ownership.shards or self.ownership.count == 1:
            count += (await one(self.db, "SELECT COUNT(*) AS n FROM person_deadlines"))["n"]
        return count

    async def set_person_deadline(self, user: str, kind: str, due_at: float | None) -> None:
        """A person's own deadline (game id 0): set to `due_at`, or (None) gone."""
        if due_at is None:
            await people.clear_person_deadline(self.db, user, kind)
        else:
            await people.set_person_deadline(self.db, user, kind, due_at)

    async def deadlines_of(self, game_id: int) -> list[Deadline]:
        rows = await self.db.fetchall(
            "SELECT game_id, player, kind, due_at, payload FROM deadlines WHERE game_id = ? ORDER BY due_at", (game_id,)
        )
        return [Deadline(r["game_id"], r["player"], r["kind"], r["due_at"], json.loads(r["payload"])) for r in rows]

    async def drop_deadline(self, deadline: Deadline) -> bool:
        """Remove a deadline that has been dealt with, unless it was re-armed meanwhile (a later due time)."""
        if deadline.game_id == people.PERSON:
            return await people.claim(self.db, deadline, None)

        fence, fenced = self._fence()
        return await self.db.statement(
            f"DELETE FROM deadlines WHERE game_id = ? AND player = ? AND kind = ? AND due_at = ?{fence} RETURNING kind",
            (deadline.game_id, deadline.player, deadline.kind, float(deadline.due_at), *fenced),
        ) is not None

    async def postpone_deadline(self, deadline: Deadline, until: float) -> bool:
        """Move a deadline to `until`, unless it was re-armed (or claimed by another scheduler) meanwhile."""
        if deadline.game_id == people.PERSON:
            return await people.claim(self.db, deadline, until)

        fence, fenced = self._fence()
        return await self.db.statement(
            f"UPDATE deadlines SET due_at = ? WHERE game_id = ? AND player = ? AND kind = ? AND due_at = ?{fence}"
            " RETURNING kind",
            (float(until), deadline.game_id, deadline.player, deadline.kind, float(deadline.due_at), *fenced),
        ) is not None

    def _fence(self) -> tuple[str, list[Any]]:
        """A claim's condition that its game's shard is still this process's (nothing before a claim)."""
        owner = self.ownership
        if owner.holder is None:
            return "", []
        # The shard's lease row: row_of(shard) = shard + 1.
        return (" AND EXISTS (SELECT 1 FROM games g JOIN lease l ON l.id = ((g.guild_id >> 22) % ?) + 1"
                " WHERE g.id = deadlines.game_id AND l.holder = ?)", [owner.count, owner.holder])
