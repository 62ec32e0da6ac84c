"""The connection: one SQLite file through aiosqlite, its settings, and transactions.

WAL mode with synchronous=FULL: a committed action survives a process crash
(kill -9) and a power cut. (NORMAL would survive the crash but could lose the
last commits on a power cut.) Rows come back as sqlite3.Row, read by name.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path

import aiosqlite

from engine.editions import Library

from .host_lock import HostLock
from .migrate import migrate

BUSY_TIMEOUT_MS = 5000


class Database:
    """One connection to one database file. Safe to share between coroutines."""

    def __init__(self, db: aiosqlite.Connection, path: str, editions: Library | None = None):
        self._db = db
        self.path = path
        # The editions games may be loaded and replayed with: a game whose edition is not among them is refused.
        self.editions = editions or Library()
        self._write_lock = asyncio.Lock()  # one transaction at a time on this connection
        self.host_lock = HostLock(path)  # held while this process holds the lease (lease.py)

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL", migrate_to: int | None = None,
                   editions: Library | None = None):
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            db.row_factory = aiosqlite.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute(f"PRAGMA synchronous = {synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            try:
                await migrate(db, migrate_to)
            except Exception:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
        except BaseException:
            await db.close()
            raise
        return cls(db, str(path), editions)

    async def close(self) -> None:
        self.host_lock.release()
        await self._db.close()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def _transaction(self, work):
        """Run `work(db)` inside BEGIN IMMEDIATE ... COMMIT; roll back on any error."""
        async with self._write_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                result = await work(self._db)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
            return result

    async def _fetchone(self, sql: str, params: Iterable = ()):
        async with self._db.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()

    async def _fetchall(self, sql: str, params: Iterable = ()):
        async with self._db.execute(sql, tuple(params)) as cur:
            return await cur.fetchall()

    async def compact(self) -> None:
        """Fold the WAL into the main file and reclaim free pages (maintenance; takes the write lock)."""
        async with self._write_lock:
            await (await self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")).close()
            await (await self._db.execute("VACUUM")).close()

    async def integrity_check(self) -> str:
        return (await self._fetchone("PRAGMA integrity_check"))[0]
