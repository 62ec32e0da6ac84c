"""SQLite's migrations (sqlite/migrations/NNNN_name.sql, found by ../migrations.py), applied in order at open,
each step one transaction that also records the schema version."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import aiosqlite

from ..chain import CONTENT, GENESIS, link
from ..migrations import Migrations

MIGRATIONS = Migrations(__package__ or "storage.sqlite")
LATEST = MIGRATIONS.latest


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


# What SQL cannot do (hashing, say) runs after a migration's SQL, in the same transaction.
PYTHON_STEPS: dict[int, Callable[[aiosqlite.Connection], Awaitable[None]]] = {5: chain_existing}


async def schema_version(db: aiosqlite.Connection) -> int:
    await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    async with db.execute("SELECT version FROM schema_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(db: aiosqlite.Connection, target: int | None = None) -> int:
    """Bring the schema up to `target` (default: the latest); each step is one transaction."""
    current = await schema_version(db)
    steps = MIGRATIONS.due(current, target)
    if not steps:
        return current
    # A migration may rebuild a table (SQLite's way to change a constraint); with foreign keys on,
    # dropping the old table would cascade-delete its children. They are checked again afterwards.
    await db.execute("PRAGMA foreign_keys = OFF")
    try:
        for step in steps:
            # executescript commits an open transaction before it starts, so after the SQL (which leaves
            # the transaction open) every statement goes through execute until the COMMIT.
            await db.executescript(f"BEGIN IMMEDIATE;\n{step.sql}\n")
            if step.number in PYTHON_STEPS:
                await PYTHON_STEPS[step.number](db)
            await db.execute("DELETE FROM schema_version")
            await db.execute("INSERT INTO schema_version (version) VALUES (?)", (step.number,))
            await db.execute("COMMIT")
            current = step.number
            async with db.execute("PRAGMA foreign_key_check") as cur:
                broken = list(await cur.fetchall())
            if broken:
                raise RuntimeError(f"migration {step.number} left {len(broken)} rows with a broken reference")
    finally:
        await db.execute("PRAGMA foreign_keys = ON")
    return current
