"""Settings (SettingsStore): each player's own (across games), each server's, and small facts about the
deployment (the `meta` table, e.g. what was last synced to Discord).

A player's settings change by merging: the row is read under a lock in the transaction that writes it
(`FOR UPDATE` on PostgreSQL; SQLite's writer holds the whole file), so two changes of one player's
settings at once both land, and a change made only if the settings still say something (`when`) is
decided on what is there at the commit, not on what an earlier read said.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .sql import Database, Transaction, one


class Settings:
    def __init__(self, db: Database):
        self.db = db

    async def player_settings(self, user_id: str) -> dict[str, Any]:
        row = await self.db.fetchone("SELECT settings FROM player_settings WHERE user_id = ?", (user_id,))
        return json.loads(row["settings"]) if row else {}

    async def merge_player_settings(self, user_id: str, changes: dict[str, Any],
                                    when: dict[str, bool] | None = None) -> bool:
        """Merge `changes` into the player's settings, atomically; with `when`, only if each setting named
        there is (as a truth value; a missing one is false) what it says. Whether it merged."""
        if when and not _holds(when, await self.player_settings(user_id)):
            return False  # as if it ran before: nothing to lock, nothing to write (a panel asks at every open)
        now = time.time()

        async def work(tx: Transaction) -> bool:
            await tx.execute("INSERT INTO player_settings (user_id, settings, updated_at) VALUES (?, '{}', ?)"
                             " ON CONFLICT (user_id) DO NOTHING", (user_id, now))
            row = await one(tx, f"SELECT settings FROM player_settings WHERE user_id = ?{self.db.dialect.for_update}",
                            (user_id,))  # there now, if not before
            current: dict[str, Any] = json.loads(row["settings"])
            if when and not _holds(when, current):  # decided on what is there now, under the row's lock
                return False
            await tx.execute("UPDATE player_settings SET settings = ?, updated_at = ? WHERE user_id = ?",
                             (json.dumps(current | changes), now, user_id))
            return True

        return await self.db.transaction(work)

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        row = await self.db.fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row["settings"]) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        async def work(tx: Transaction) -> None:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
                (guild_id, json.dumps(settings), time.time()),
            )

        await self.db.transaction(work)

    async def meta(self, key: str) -> str | None:
        row = await self.db.fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return row["value"] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async def work(tx: Transaction) -> None:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

        await self.db.transaction(work)


def _holds(when: dict[str, bool], settings: dict[str, Any]) -> bool:
    return all(bool(settings.get(key)) == wanted for key, wanted in when.items())
