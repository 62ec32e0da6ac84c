"""Small named facts about the deployment (the `meta` table), e.g. what was last synced to Discord."""

from __future__ import annotations


class MetaMixin:
    async def meta(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return row["value"] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        async def work(db):
            await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

        await self._transaction(work)
