"""The SQLite backend: one file, aiosqlite, its own migrations, backups and restore."""

from __future__ import annotations

from .database import SQLiteDatabase
from .lease import HostLeases


async def open_sqlite(store_class, url, editions, *, synchronous: str = "FULL", migrate_to: int | None = None):
    db = await SQLiteDatabase.open(url.path, synchronous=synchronous, migrate_to=migrate_to)
    return store_class(db, url, HostLeases(db, url.path), editions)
