"""SQLite's side: one file through aiosqlite, its settings, transactions, and its words of SQL.

WAL mode with synchronous=FULL: a committed action survives a process crash
(kill -9) and a power cut. (NORMAL would survive the crash but could lose the
last commits on a power cut.) Rows come back as sqlite3.Row, read by name.

Two connections per process. The writer runs one transaction at a time, each
whole as one call in its thread's queue (BEGIN IMMEDIATE takes the file's write
lock at once, so a transaction never fails half-way for a lock another process
holds). Reads outside a transaction
go to a second, read-only connection: in WAL mode each of its statements reads
the last committed state, never a transaction still under way on the writer
(a read there would run inside it: a game's row already at the next move while
its action row is not yet written, or a change about to be rolled back), and it
reads beside a write instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeVar

import aiosqlite

from ..errors import DatabaseBusy, UniqueViolation
from ..sql import Params, Row, Transaction
from .migrate import migrate

BUSY_TIMEOUT_MS = 5000
T = TypeVar("T")


class SQLiteDialect:
    name = "sqlite"
    for_update = ""  # BEGIN IMMEDIATE has locked the whole file already
    key_share = ""
    writes_in_one_statement = False  # a transaction in the writer's thread costs no round trips

    def json_field(self, expr: str, key: str) -> str:
        return f"json_extract({expr}, '$.{key}')"

    def json_int(self, expr: str, key: str) -> str:
        return f"json_extract({expr}, '$.{key}')"

    def json_elements(self, expr: str, alias: str) -> str:
        return f"json_each({expr}) AS {alias}"


class _Statements:
    """Statements on one aiosqlite connection: the writer's inside a transaction, or the reader's."""

    def __init__(self, con: aiosqlite.Connection):
        self.con = con

    # A read is one trip to the connection's thread (execute and fetch there), not three (execute, fetch, close):
    # each trip waits for a turn of the busy event loop, and the writer's trips hold every other write.
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.con.execute_fetchall(sql, tuple(params))
        return next(iter(rows), None)

    async def fetchall(self, sql: str, params: Params = ()) -> Sequence[Row]:
        return list(await self.con.execute_fetchall(sql, tuple(params)))

    async def execute(self, sql: str, params: Params = ()) -> int:
        # One trip too: aiosqlite's public execute takes two (the statement, then closing its cursor), and a
        # write holds the writer's lock, so every other write, for all of them.
        con, values = self.con, tuple(params)
        try:
            return await _one_trip(con, lambda: _rowcount(con._conn, sql, values))
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise UniqueViolation(str(exc)) from exc
            raise

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self.con.executemany(sql, [tuple(r) for r in rows])


def _rowcount(con: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> int:
    """In the connection's thread: a statement, its cursor closed; the rows it changed."""
    cur = con.execute(sql, params)
    try:
        return cur.rowcount
    finally:
        cur.close()


class _InThread:
    """A transaction's statements in the writer's thread: each completes at once (sqlite3 is synchronous), so
    a transaction's `work`, which awaits nothing but them, runs to its end without suspending (`_whole`)."""

    def __init__(self, con: sqlite3.Connection):
        self.con = con

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = self.con.execute(sql, tuple(params)).fetchall()
        return next(iter(rows), None)

    async def fetchall(self, sql: str, params: Params = ()) -> Sequence[Row]:
        return self.con.execute(sql, tuple(params)).fetchall()

    async def execute(self, sql: str, params: Params = ()) -> int:
        try:
            return _rowcount(self.con, sql, tuple(params))
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc):
                raise UniqueViolation(str(exc)) from exc
            raise

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        self.con.executemany(sql, [tuple(r) for r in rows]).close()


def _whole(con: sqlite3.Connection, work: Callable[[Transaction], Awaitable[T]]) -> T:
    """In the writer's thread: BEGIN IMMEDIATE, `work` run to its end, COMMIT (ROLLBACK on any error)."""
    try:
        con.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise _busy(exc) from None
    try:
        result = _run_through(work(_InThread(con)))
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return result


def _busy(exc: sqlite3.OperationalError) -> Exception:
    """BEGIN IMMEDIATE's refusal: DatabaseBusy when another process holds the file's write lock."""
    if "locked" in str(exc) or "busy" in str(exc):
        return DatabaseBusy(f"another process has held its write lock for over {BUSY_TIMEOUT_MS // 1000} s"
                            " (stopped or frozen in the middle of a write?)")
    return exc


def _run_through(step: Awaitable[T]) -> T:
    """A coroutine that never suspends, run to its end here (no event loop: none is needed)."""
    coroutine = step.__await__()
    try:
        coroutine.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    coroutine.close()
    raise RuntimeError("a transaction's work awaited something other than its statements")


def _one_trip(con: aiosqlite.Connection, fn: Callable[[], T]) -> Awaitable[T]:
    """`fn` run in the connection's thread, in its queue: one trip. aiosqlite's `_execute` is private (its
    public calls are each a trip of their own), and has been there unchanged since 0.17."""
    run: Callable[[Callable[[], T]], Awaitable[T]] = con._execute
    return run(fn)


async def _connect(path: str | Path, *pragmas: str) -> aiosqlite.Connection:
    con = await aiosqlite.connect(str(path), isolation_level=None)  # autocommit: transactions are explicit
    try:
        con.row_factory = aiosqlite.Row
        await con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        for pragma in pragmas:
            await con.execute(f"PRAGMA {pragma}")
    except BaseException:
        await con.close()
        raise
    return con


class SQLiteDatabase:
    """Two connections to one database file (the writer's and the reader's). Safe to share between coroutines."""

    dialect = SQLiteDialect()

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection, path: str):
        self._writer = _Statements(writer)  # transactions only, one at a time
        self._reader = _Statements(reader)  # reads outside a transaction: committed data only
        self.path = path
        self._write_lock = asyncio.Lock()  # maintenance's statements together (a transaction is one queued call)
        self._long = asyncio.Lock()  # held by a transaction run from the loop: the others wait for its end

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL",
                   migrate_to: int | None = None) -> SQLiteDatabase:
        if str(path) in ("", ":memory:") or str(path).startswith("file::memory:"):
            raise ValueError("SQLite needs a file here: its reader is a connection of its own (not a temporary or"
                             " in-memory database)")
        writer = await _connect(path, "journal_mode = WAL", f"synchronous = {synchronous}", "foreign_keys = ON")
        try:
            try:
                await migrate(writer, migrate_to)
            except Exception:
                if writer.in_transaction:
                    await writer.execute("ROLLBACK")
                raise
            # Opened once the schema is migrated; query_only: nothing is ever written through it.
            reader = await _connect(path, "foreign_keys = ON", "query_only = ON")
        except BaseException:
            await writer.close()
            raise
        return cls(writer, reader, str(path))

    async def close(self) -> None:
        try:
            await self._reader.con.close()
        finally:
            await self._writer.con.close()

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await self._reader.fetchone(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> Sequence[Row]:
        return await self._reader.fetchall(sql, params)

    async def transaction(self, work: Callable[[Transaction], Awaitable[T]], *, awaits_others: bool = False) -> T:
        """Run `work(tx)` inside BEGIN IMMEDIATE ... COMMIT on the writer; roll back on any error.

        The whole transaction runs in the writer's thread, in one trip (`_InThread`): its statements are
        plain sqlite3 calls there, so a transaction holds the write lock for the time its SQL takes, not for
        a turn of the event loop per statement (under load those turns were 13 ms a transaction, and every
        write of the bot queued behind them for seconds). Nor does a transaction wait for the one before it on
        the event loop: the thread's queue runs them one at a time, back to back (a lock on the loop would hand
        the writer on only at the loop's next turn). `awaits_others` (a copy reading another database as it
        writes): statement by statement from the loop, the others waiting meanwhile (`_long`)."""
        con = self._writer.con
        if awaits_others:
            return await self._on_the_loop(work)
        if self._long.locked():  # (checked and queued with no await between: none slips into a long one)
            async with self._long:
                return await _one_trip(con, lambda: _whole(con._conn, work))
        return await _one_trip(con, lambda: _whole(con._conn, work))

    async def _on_the_loop(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        async with self._long:
            con = self._writer.con
            try:
                await con.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise _busy(exc) from None
            try:
                result = await work(self._writer)
            except BaseException:
                await con.execute("ROLLBACK")
                raise
            await con.execute("COMMIT")
            return result

    async def statement(self, sql: str, params: Params = ()) -> Row | None:
        return await self.transaction(lambda tx: tx.fetchone(sql, params))

    async def compact(self) -> None:
        """Fold the WAL into the main file and reclaim free pages (maintenance; takes the write lock)."""
        async with self._write_lock:
            await (await self._writer.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")).close()
            await (await self._writer.con.execute("VACUUM")).close()

    async def integrity_check(self) -> str:
        row = await self.fetchone("PRAGMA integrity_check")
        return str(row[0]) if row is not None else "no answer"

    async def column_types(self) -> dict[str, dict[str, str]]:
        """Every table's columns, in order, with their declared types (copy.py, the schema test)."""
        tables = await self.fetchall("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        return {t["name"]: {c["name"]: c["type"] for c in await self.fetchall(f"PRAGMA table_info({t['name']})")}
                for t in tables}

    async def after_copy(self, tx: Transaction) -> None:
        """Rows copied in with their ids: nothing to do (SQLite numbers new rows after the largest id)."""
