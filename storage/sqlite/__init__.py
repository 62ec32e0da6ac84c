"""The SQLite backend: one file, aiosqlite, its own migrations, backups and restore."""

from __future__ import annotations

from ..contract import LeaseStore
from ..sql import Database
from ..url import DatabaseURL
from .database import SQLiteDatabase
from .lease import HostLeases


async def open_sqlite(url: DatabaseURL, *, synchronous: str = "FULL",
                      migrate_to: int | None = None) -> tuple[Database, LeaseStore]:
    """The database at `url` and its lease, as the storage contract takes them (the type checker holds the
    backend to it here, and in conformance.py)."""
    if url.path is None:
        raise ValueError(f"{url.shown} names no SQLite file")
    db = await SQLiteDatabase.open(url.path, synchronous=synchronous, migrate_to=migrate_to)
    return db, HostLeases(db, url.path)
