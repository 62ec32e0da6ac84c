"""Deadlines (re-armed by the bot at start-up: the durable-timer pattern), per-player and per-server settings."""

from __future__ import annotations

import json
import time

from .records import Deadline


class TimersMixin:
    async def set_deadline(self, game_id: int, player: str, kind: str, due_at: float, payload: dict | None = None):
        async def work(db):
            await db.execute(
                "INSERT INTO deadlines (game_id, player, kind, due_at, payload) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, player, kind) DO UPDATE SET due_at = excluded.due_at,"
                " payload = excluded.payload",
                (game_id, player, kind, due_at, json.dumps(payload or {})),
            )

        await self._transaction(work)

    async def clear_deadlines(self, game_id: int, player: str | None = None, kind: str | None = None) -> int:
        sql, params = "DELETE FROM deadlines WHERE game_id = ?", [game_id]
        if player is not None:
            sql, params = sql + " AND player = ?", params + [player]
        if kind is not None:
            sql, params = sql + " AND kind = ?", params + [kind]

        async def work(db):
            return (await db.execute(sql, params)).rowcount

        return await self._transaction(work)

    async def deadlines(self, due_before: float | None = None, limit: int | None = None) -> list[Deadline]:
        """Deadlines of open games, and announcements of any game (its end is announced too), the earliest
        first; `due_before`: only those due by then."""
        sql = ("SELECT d.game_id, d.player, d.kind, d.due_at, d.payload, g.channel_id FROM deadlines d"
               " JOIN games g ON g.id = d.game_id WHERE (g.status IN ('lobby', 'active') OR d.kind = 'announce')")
        params: list = []
        if due_before is not None:
            sql, params = sql + " AND d.due_at <= ?", [due_before]
        sql += " ORDER BY d.due_at"
        if limit is not None:
            sql, params = sql + " LIMIT ?", [*params, limit]
        rows = await self._fetchall(sql, params)
        return [Deadline(r["game_id"], r["player"], r["kind"], r["due_at"], json.loads(r["payload"]), r["channel_id"])
                for r in rows]

    async def deadlines_of(self, game_id: int) -> list[Deadline]:
        rows = await self._fetchall(
            "SELECT game_id, player, kind, due_at, payload FROM deadlines WHERE game_id = ? ORDER BY due_at", (game_id,)
        )
        return [Deadline(r["game_id"], r["player"], r["kind"], r["due_at"], json.loads(r["payload"])) for r in rows]

    async def drop_deadline(self, deadline: Deadline) -> bool:
        """Remove a deadline that has been dealt with, unless it was re-armed meanwhile (a later due time)."""

        async def work(db):
            cur = await db.execute(
                "DELETE FROM deadlines WHERE game_id = ? AND player = ? AND kind = ? AND due_at = ?",
                (deadline.game_id, deadline.player, deadline.kind, deadline.due_at),
            )
            return cur.rowcount == 1

        return await self._transaction(work)

    async def postpone_deadline(self, deadline: Deadline, until: float) -> bool:
        """Move a deadline to `until`, unless it was re-armed meanwhile."""

        async def work(db):
            cur = await db.execute(
                "UPDATE deadlines SET due_at = ? WHERE game_id = ? AND player = ? AND kind = ? AND due_at = ?",
                (until, deadline.game_id, deadline.player, deadline.kind, deadline.due_at),
            )
            return cur.rowcount == 1

        return await self._transaction(work)

    async def player_settings(self, user_id: str) -> dict:
        row = await self._fetchone("SELECT settings FROM player_settings WHERE user_id = ?", (user_id,))
        return json.loads(row["settings"]) if row else {}

    async def set_player_settings(self, user_id: str, settings: dict) -> None:
        async def work(db):
            await db.execute(
                "INSERT INTO player_settings (user_id, settings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
                (user_id, json.dumps(settings), time.time()),
            )

        await self._transaction(work)

    async def guild_settings(self, guild_id: int) -> dict:
        row = await self._fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row["settings"]) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict) -> None:
        async def work(db):
            await db.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
                (guild_id, json.dumps(settings), time.time()),
            )

        await self._transaction(work)
