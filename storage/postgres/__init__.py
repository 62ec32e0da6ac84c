"""The PostgreSQL backend: asyncpg with a pool, its own migrations, and a lease held by an advisory lock.

asyncpg is imported only when a postgresql:// URL is opened: a bot on SQLite never loads it.
"""

from __future__ import annotations

from .database import PostgresDatabase
from .lease import AdvisoryLeases


async def open_postgres(store_class, url, editions, *, migrate_to: int | None = None, **pool):
    """`pool`: retry_seconds, min_size, max_size (postgres/database.py)."""
    db = await PostgresDatabase.open(url.dsn, migrate_to=migrate_to, **pool)
    return store_class(db, url, AdvisoryLeases(db), editions)
