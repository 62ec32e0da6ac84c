"""PostgreSQL's numbered migrations (postgres/migrations/NNNN_name.sql), applied in order at open, all in one
transaction behind an advisory lock, so two processes starting at once do not both migrate."""

from __future__ import annotations

import re
from importlib import resources

import asyncpg

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
MIGRATING = 0x6175677362757201  # the advisory lock key held while migrating ("augsbur\x01")


def migrations() -> list[tuple[int, str]]:
    found = []
    for entry in resources.files(__package__).joinpath("migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.read_text(encoding="utf-8")))
    found.sort()
    if [n for n, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {[n for n, _ in found]}")
    return found


LATEST = len(migrations())


async def migrate(con: asyncpg.Connection, target: int | None = None) -> int:
    """Bring the schema up to `target` (default: the latest)."""
    target = LATEST if target is None else target
    async with con.transaction():
        await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATING)
        await con.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
        current = await con.fetchval("SELECT version FROM schema_version") or 0
        if current > LATEST:
            raise RuntimeError(f"the database is at schema {current}, newer than this code knows ({LATEST})")
        for number, sql in migrations():
            if current < number <= target:
                await con.execute(sql)
                current = number
        await con.execute("DELETE FROM schema_version")
        await con.execute("INSERT INTO schema_version (version) VALUES ($1)", current)
    return current
