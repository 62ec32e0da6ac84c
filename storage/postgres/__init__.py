"""The PostgreSQL backend: asyncpg with a pool, its own migrations, and a lease held by an advisory lock.

asyncpg is imported only when a postgresql:// URL is opened: a bot on SQLite never loads it.
"""

from __future__ import annotations

from ..contract import LeaseStore
from ..sql import Database
from ..url import DatabaseURL
from .database import POOL_SIZE, RETRY_SECONDS, PostgresDatabase
from .lease import AdvisoryLeases


async def open_postgres(url: DatabaseURL, *, migrate_to: int | None = None, retry_seconds: float = RETRY_SECONDS,
                        min_size: int = 1, max_size: int = POOL_SIZE) -> tuple[Database, LeaseStore]:
    """The database at `url` and its lease, as the storage contract takes them (the type checker holds the
    backend to it here, and in conformance.py). `retry_seconds`, `min_size`, `max_size`: database.py's."""
    if url.dsn is None:
        raise ValueError(f"{url.shown} names no PostgreSQL database")
    db = await PostgresDatabase.open(url.dsn, retry_seconds=retry_seconds, min_size=min_size, max_size=max_size,
                                     migrate_to=migrate_to)
    return db, AdvisoryLeases(db)
