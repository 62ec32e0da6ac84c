"""SQLite's side: one file through aiosqlite, its settings, transactions, and its words of SQL.

WAL mode with synchronous=FULL: a committed action survives a process crash
(kill -9) and a power cut. (NORMAL would survive the crash but could lose the
last commits on a power cut.) Rows come back as sqlite3.Row, read by name.
One connection per process, one transaction at a time on it (BEGIN IMMEDIATE
takes the file's write lock at once, so a transaction never fails half-way
for a lock another process holds).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

import aiosqlite

from ..errors import DatabaseBusy, UniqueViolation
from .migrate import migrate

BUSY_TIMEOUT_MS = 5000


class SQLiteDialect:
    name = "sqlite"
    for_update = key_share = ""  # BEGIN IMMEDIATE has locked the whole file already

    def json_field(self, expr: str, key: str) -> str:
        return f"json_extract({expr}, '$.{key}')"

    def json_int(self, expr: str, key: str) -> str:
        return f"json_extract({expr}, '$.{key}')"

    def json_elements(self, expr: str, alias: str) -> str:
        return f"json_each({expr}) AS {alias}"


class _Connection:
    """Statements on the one aiosqlite connection (inside a transaction, or reads outside one)."""

    def __init__(self, db: aiosqlite.Connection):
        self._db = db

    async def fetchone(self, sql: str, params: Sequence = ()):
        async with self._db.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()

    async def fetchall(self, sql: str, params: Sequence = ()):
        async with self._db.execute(sql, tuple(params)) as cur:
            return await cur.fetchall()

    async def execute(self, sql: str, params: Sequence = ()) -> int:
        try:
            async with self._db.execute(sql, tuple(params)) as cur:
                return cur.rowcount
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise UniqueViolation(str(exc)) from exc
            raise

    async def executemany(self, sql: str, rows: Iterable[Sequence]) -> None:
        await self._db.executemany(sql, [tuple(r) for r in rows])


class SQLiteDatabase(_Connection):
    """One connection to one database file. Safe to share between coroutines."""

    dialect = SQLiteDialect()

    def __init__(self, db: aiosqlite.Connection, path: str):
        super().__init__(db)
        self.path = path
        self._write_lock = asyncio.Lock()  # one transaction at a time on this connection

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL", migrate_to: int | None = None):
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
        return cls(db, str(path))

    async def close(self) -> None:
        await self._db.close()

    async def transaction(self, work):
        """Run `work(tx)` inside BEGIN IMMEDIATE ... COMMIT; roll back on any error."""
        async with self._write_lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise DatabaseBusy(f"another process has held its write lock for over {BUSY_TIMEOUT_MS // 1000} s"
                                       " (stopped or frozen in the middle of a write?)") from None
                raise
            try:
                result = await work(self)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
            return result

    async def compact(self) -> None:
        """Fold the WAL into the main file and reclaim free pages (maintenance; takes the write lock)."""
        async with self._write_lock:
            await (await self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")).close()
            await (await self._db.execute("VACUUM")).close()

    async def integrity_check(self) -> str:
        return (await self.fetchone("PRAGMA integrity_check"))[0]

    async def column_types(self) -> dict[str, dict[str, str]]:
        """Every table's columns, in order, with their declared types (copy.py, the schema test)."""
        tables = await self.fetchall("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        return {t["name"]: {c["name"]: c["type"] for c in await self.fetchall(f"PRAGMA table_info({t['name']})")}
                for t in tables}

    async def after_copy(self, tx) -> None:
        """Rows copied in with their ids: nothing to do (SQLite numbers new rows after the largest id)."""
