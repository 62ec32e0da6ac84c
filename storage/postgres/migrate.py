"""PostgreSQL's migrations (postgres/migrations/NNNN_name.sql, found by ../migrations.py), applied in order at
open, all in one transaction behind an advisory lock, so two processes starting at once do not both migrate."""

from __future__ import annotations

import asyncpg

from ..migrations import Migrations

MIGRATIONS = Migrations(__package__ or "storage.postgres")
LATEST = MIGRATIONS.latest
MIGRATING = 0x6175677362757201  # the advisory lock key held while migrating ("augsbur\x01")


async def migrate(con: asyncpg.Connection | asyncpg.pool.PoolConnectionProxy, target: int | None = None) -> int:
    """Bring the schema up to `target` (default: the latest)."""
    async with con.transaction():
        await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATING)
        await con.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
        current: int = await con.fetchval("SELECT version FROM schema_version") or 0
        for step in MIGRATIONS.due(current, target):
            await con.execute(step.sql)
            current = step.number
        await con.execute("DELETE FROM schema_version")
        await con.execute("INSERT INTO schema_version (version) VALUES ($1)", current)
    return current
