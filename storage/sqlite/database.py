"""SQLite's side: one file through aiosqlite, its settings, transactions, and its words of SQL.

WAL mode with synchronous=FULL: a committed action survives a process crash
(kill -9) and a power cut. (NORMAL would survive the crash but could lose the
last commits on a power cut.) Rows come back as sqlite3.Row, read by name.
One connection per process, one transaction at a time on it (BEGIN IMMEDIATE
takes the file's write lock at once, so a transaction never fails half-way
for a lock another process holds); transactions asked for meanwhile are then
committed together (`transaction`: group commit).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

import aiosqlite

from ..errors import DatabaseBusy, StorageUnavailable, UniqueViolation
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
        self._waiting: list[tuple] = []  # transactions waiting to be written, with their callers' futures
        self._writer: asyncio.Task | None = None  # the task writing them, a batch at a time

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
        if self._writer is not None:  # the writes already asked for are finished first
            await asyncio.gather(self._writer, return_exceptions=True)
        await self._db.close()

    async def transaction(self, work):
        """Run `work(tx)` atomically and durably: it is committed, or rolled back on any error it raises.

        Group commit: transactions that come while others are being written wait and then go together, each in
        a savepoint of one BEGIN IMMEDIATE ... COMMIT. Each still succeeds or fails alone, and its caller hears
        of success only once the COMMIT is done, but a busy bot's many moves share one synchronous write of
        the file instead of queueing for one each (at 1,000 live games that queue reached two seconds)."""
        future = asyncio.get_running_loop().create_future()
        self._waiting.append((work, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches())
        return await future

    async def _write_batches(self) -> None:
        while self._waiting:
            batch, self._waiting = [w for w in self._waiting if not w[1].cancelled()], []
            if batch:
                async with self._write_lock:
                    await self._write(batch)

    async def _write(self, batch: list) -> None:
        outcomes = []
        try:
            await self._begin()
            try:
                for work, future in batch:
                    await self._db.execute("SAVEPOINT work")
                    try:
                        outcomes.append((future, await work(self), None))
                    except Exception as exc:  # this work's changes go; the others' stay
                        await self._db.execute("ROLLBACK TO work")
                        outcomes.append((future, None, exc))
                    await self._db.execute("RELEASE work")
                await self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise
        except BaseException as exc:  # nothing of the batch was written: every caller hears why
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc if isinstance(exc, Exception) else StorageUnavailable("the write was stopped"))
            if not isinstance(exc, Exception):
                raise
            return
        for future, result, exc in outcomes:
            if future.done():
                continue  # its caller gave up waiting: the work was done all the same
            if exc is None:
                future.set_result(result)
            else:
                future.set_exception(exc)

    async def _begin(self) -> None:
        try:
            await self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise DatabaseBusy(f"another process has held its write lock for over {BUSY_TIMEOUT_MS // 1000} s"
                                   " (stopped or frozen in the middle of a write?)") from None
            raise

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
