"""Numbered SQL migrations (migrations/NNNN_name.sql), applied in order at open."""

from __future__ import annotations

import re
from importlib import resources

import aiosqlite

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str]]:
    """(number, sql) for every migration file, in order."""
    found = []
    for entry in resources.files(__package__).joinpath("migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found


LATEST = len(migrations())


async def schema_version(db: aiosqlite.Connection) -> int:
    await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    async with db.execute("SELECT version FROM schema_version") as cur:
        row = await cur.fetchone()
    return row[0] if row else 0


async def migrate(db: aiosqlite.Connection, target: int | None = None) -> int:
    """Bring the schema up to `target` (default: the latest); each step is one transaction."""
    current = await schema_version(db)
    target = LATEST if target is None else target
    if current > LATEST:
        raise RuntimeError(f"the database is at schema {current}, newer than this code knows ({LATEST})")
    for number, sql in migrations():
        if current < number <= target:
            await db.executescript(
                "BEGIN IMMEDIATE;\n"
                f"{sql}\n"
                "DELETE FROM schema_version;\n"
                f"INSERT INTO schema_version (version) VALUES ({number});\n"
                "COMMIT;"
            )
            current = number
    return current
