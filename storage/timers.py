"""Deadlines (re-armed by the bot at start-up: the durable-timer pattern) and per-server settings."""

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

    async def deadlines(self, due_before: float | None = None) -> list[Deadline]:
        sql = "SELECT game_id, player, kind, due_at, payload FROM deadlines"
        params: tuple = ()
        if due_before is not None:
            sql, params = sql + " WHERE due_at <= ?", (due_before,)
        rows = await self._fetchall(sql + " ORDER BY due_at", params)
        return [Deadline(r["game_id"], r["player"], r["kind"], r["due_at"], json.loads(r["payload"])) for r in rows]

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
