"""Numbered SQL migrations (migrations/NNNN_name.sql), applied in order at open."""

from __future__ import annotations

import re
from importlib import resources

import aiosqlite

from ..chain import CONTENT, GENESIS, link

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


async def chain_existing(db: aiosqlite.Connection) -> None:
    """Migration 5's Python step: chain the rows written before the log had hashes, game by game."""
    async with db.execute("SELECT DISTINCT game_id FROM actions") as cur:
        games = [row[0] for row in await cur.fetchall()]
    for game_id in games:
        async with db.execute(f"SELECT {CONTENT} FROM actions WHERE game_id = ? ORDER BY move", (game_id,)) as cur:
            rows = await cur.fetchall()
        previous, hashes = GENESIS, []
        for row in rows:
            previous = link(previous, tuple(row))
            hashes.append((previous, game_id, row[1]))
        await db.executemany("UPDATE actions SET hash = ? WHERE game_id = ? AND move = ?", hashes)


LATEST = len(migrations())
# What SQL cannot do (hashing, say) runs after a migration's SQL, in the same transaction.
PYTHON_STEPS = {5: chain_existing}


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
    steps = [(n, sql) for n, sql in migrations() if current < n <= target]
    if not steps:
        return current
    # A migration may rebuild a table (SQLite's way to change a constraint); with foreign keys on,
    # dropping the old table would cascade-delete its children. They are checked again afterwards.
    await db.execute("PRAGMA foreign_keys = OFF")
    try:
        for number, sql in steps:
            # executescript commits an open transaction before it starts, so after the SQL (which leaves
            # the transaction open) every statement goes through execute until the COMMIT.
            await db.executescript(f"BEGIN IMMEDIATE;\n{sql}\n")
            if number in PYTHON_STEPS:
                await PYTHON_STEPS[number](db)
            await db.execute("DELETE FROM schema_version")
            await db.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
            await db.execute("COMMIT")
            current = number
            async with db.execute("PRAGMA foreign_key_check") as cur:
                broken = await cur.fetchall()
            if broken:
                raise RuntimeError(f"migration {number} left {len(broken)} rows with a broken reference")
    finally:
        await db.execute("PRAGMA foreign_keys = ON")
    return current
