"""The bot's bookkeeping of a game's public messages, and its durable promise to announce each change.

A write that changes what everybody sees also writes an "announce" row (a
deadline of player '') in the same transaction; the bot drops it once the table,
pings and standings are out (`set_messages(settled=)`). If Discord failed or the
bot died first, the scheduler finds the row and the announcement is made then.
"""

from __future__ import annotations

import json

from .errors import GameNotFound
from .games import OPEN
from .records import TableMessages


class MessagesMixin:
    async def set_messages(self, game_id: int, messages: TableMessages, settled: int | None = None) -> None:
        """Store the bot's bookkeeping of a game's messages; no version bump, never a conflict.

        `settled`: everything up to this version has been announced, so its announcement is dropped.
        """

        async def work(db):
            cur = await db.execute("UPDATE games SET ui = ? WHERE id = ?", (messages.model_dump_json(), game_id))
            if cur.rowcount != 1:
                raise GameNotFound(game_id)
            if settled is not None:
                await db.execute(
                    "DELETE FROM deadlines WHERE game_id = ? AND kind = 'announce' AND player = ''"
                    " AND json_extract(payload, '$.version') <= ?", (game_id, settled))

        await self._transaction(work)

    async def _announce(self, db, game_id: int, version: int, due_at: float | None) -> None:
        """The durable promise to announce `version` (one row per game, the newest version wins)."""
        if due_at is not None:
            await db.execute(
                "INSERT INTO deadlines (game_id, player, kind, due_at, payload) VALUES (?, '', 'announce', ?, ?)"
                " ON CONFLICT (game_id, player, kind) DO UPDATE SET due_at = excluded.due_at,"
                " payload = excluded.payload", (game_id, due_at, json.dumps({"version": version})))

    async def open_channels(self) -> list[tuple[int, int, int]]:
        """(game id, guild id, channel id) of every open game: cheap, nothing is parsed."""
        rows = await self._fetchall(f"SELECT id, guild_id, channel_id FROM games WHERE status IN {OPEN}")
        return [(r["id"], r["guild_id"], r["channel_id"]) for r in rows]
