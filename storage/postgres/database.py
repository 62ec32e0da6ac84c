"""PostgreSQL's side: asyncpg with a pool, transactions, retries when the server is out of reach, and
PostgreSQL's words of SQL.

Transactions run at READ COMMITTED (PostgreSQL's default). Every write whose correctness needs more than
one statement starts by locking the row it depends on: a game write updates the game's row first, only
if its version is still the one the writer read (a second writer waits for that row, then finds the
version moved: VersionConflict); a settings merge reads the player's row FOR UPDATE; the lease row is
read FOR UPDATE behind an advisory lock; counters add in place (ON CONFLICT DO UPDATE); one open game per
channel is a unique index. So no write rests on a snapshot it read earlier, and none needs SERIALIZABLE's
retries of whole transactions.

A lost connection (a server restart, a network blip) is retried with backoff for up to `retry_seconds`:
reads, and whole transactions that failed before their COMMIT (the server rolled them back). A connection
lost during the COMMIT leaves the outcome unknown: CommitUncertain, which a game write resolves by reading
the game again (games.py). When the time is up: StorageUnavailable, nothing written.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from ..errors import CommitUncertain, StorageUnavailable, UniqueViolation
from ..sql import Params, Row, Transaction
from .thread import LoopThread

log = logging.getLogger(__name__)
RETRY_SECONDS = 10.0  # how long a lost server is waited for before a call gives up
POOL_SIZE = 20  # connections for writes (DATABASE_POOL_SIZE); reads get half as many, at least 2
FIRST_WAIT, MAX_WAIT = 0.05, 2.0  # seconds between tries: doubling from the first up to the cap
CONNECT_TIMEOUT = 5.0
COMMAND_TIMEOUT = 30.0  # a statement that hangs this long (a half-open connection) counts as a lost one
# The connection is gone, or the server will not take one now: worth trying again on a new connection.
LOST = (asyncpg.PostgresConnectionError, asyncpg.CannotConnectNowError, asyncpg.AdminShutdownError,
        asyncpg.CrashShutdownError, asyncpg.TooManyConnectionsError, OSError, TimeoutError)
T = TypeVar("T")


class PostgresDialect:
    name = "postgresql"
    for_update = " FOR UPDATE"
    key_share = " FOR KEY SHARE"  # keeps the row's holder as read until the commit; a heartbeat still goes through
    writes_in_one_statement = True  # a round trip per statement, each a turn of the connections' thread

    def json_field(self, expr: str, key: str) -> str:
        return f"(({expr})::jsonb ->> '{key}')"

    def json_int(self, expr: str, key: str) -> str:
        return f"(({expr})::jsonb ->> '{key}')::bigint"

    def json_elements(self, expr: str, alias: str) -> str:
        return f"jsonb_array_elements(({expr})::jsonb) AS {alias}(value)"


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """SQL written with `?` (outside quotes) as asyncpg takes it: $1, $2, ..."""
    out, n, quoted = [], 0, False
    for ch in sql:
        if ch == "'":
            quoted = not quoted
        if ch == "?" and not quoted:
            n += 1
            out.append(f"${n}")
        else:
            out.append(ch)
    return "".join(out)


async def _nothing_to_reset(con: asyncpg.Connection) -> None:
    """What a connection needs when it goes back to the pool, beyond asyncpg's rollback of a transaction left
    open: nothing. The pool's connections never LISTEN, set session variables or hold session locks (the
    lease's lock has a connection of its own), so asyncpg's default reset query would only cost a round
    trip after every read and every transaction."""


def lost(exc: BaseException) -> bool:
    return isinstance(exc, LOST) or isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc)


class _Connection:
    """Statements on one connection of the pool (inside a transaction)."""

    def __init__(self, con: asyncpg.Connection | PoolConnectionProxy):
        self._con = con

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        try:
            return await self._con.fetchrow(numbered(sql), *params)
        except asyncpg.UniqueViolationError as exc:
            raise UniqueViolation(str(exc)) from exc

    async def fetchall(self, sql: str, params: Params = ()) -> Sequence[Row]:
        return await self._con.fetch(numbered(sql), *params)

    async def execute(self, sql: str, params: Params = ()) -> int:
        try:
            status = await self._con.execute(numbered(sql), *params)
        except asyncpg.UniqueViolationError as exc:
            raise UniqueViolation(str(exc)) from exc
        count = status.rpartition(" ")[2]
        return int(count) if count.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self._con.executemany(numbered(sql), [tuple(r) for r in rows])


class PostgresDatabase:
    """A pool of connections to one database. Safe to share between coroutines."""

    dialect = PostgresDialect()

    def __init__(self, pool: asyncpg.Pool, dsn: str, retry_seconds: float, reads: asyncpg.Pool,
                 thread: LoopThread):
        # Both pools live on a loop of their own (thread.py), where a round trip does not wait for a turn of
        # the bot's busy loop; the caller's loop sees only each call's end.
        self._thread = thread
        self._pool = pool  # transactions
        self._reads = reads  # reads outside a transaction: never waiting for a connection behind the writes
        self.dsn = dsn
        self.retry_seconds = retry_seconds
        self.path: str | None = None  # a file only on SQLite

    @classmethod
    async def open(cls, dsn: str, *, retry_seconds: float = RETRY_SECONDS, min_size: int = 1,
                   max_size: int = POOL_SIZE, migrate_to: int | None = None) -> PostgresDatabase:
        from .migrate import migrate

        def start(size: int) -> Callable[[], Awaitable[asyncpg.Pool]]:
            return lambda: asyncpg.create_pool(dsn, min_size=min(min_size, size), max_size=size,
                                               timeout=CONNECT_TIMEOUT, command_timeout=COMMAND_TIMEOUT,
                                               reset=_nothing_to_reset)

        async def pools() -> tuple[asyncpg.Pool, asyncpg.Pool]:  # on the thread's loop
            pool = await retrying(start(max_size), retry_seconds, "connect to PostgreSQL")
            try:
                async with pool.acquire() as con:
                    await migrate(con, migrate_to)
                reads = await retrying(start(max(2, max_size // 2)), retry_seconds, "connect to PostgreSQL")
            except BaseException:
                await _closed(pool)
                raise
            return pool, reads

        thread = LoopThread()
        try:
            pool, reads = await thread.run(pools())
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:  # a wrong password, no such database
            thread.stop()
            raise StorageUnavailable(f"PostgreSQL refused the connection: {exc}") from exc
        except BaseException:
            thread.stop()
            raise
        return cls(pool, dsn, retry_seconds, reads, thread)

    async def connect(self) -> asyncpg.Connection:
        """A connection of its own, outside the pool (the lease's)."""
        return await asyncpg.connect(self.dsn, timeout=CONNECT_TIMEOUT)

    async def close(self) -> None:
        for pool in (self._pool, self._reads):
            with contextlib.suppress(Exception):
                await self._thread.run(_closed(pool))
        self._thread.stop()

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await self._thread.run(
            retrying(lambda: self._reads.fetchrow(numbered(sql), *params), self.retry_seconds, "read"))

    async def fetchall(self, sql: str, params: Params = ()) -> Sequence[Row]:
        return await self._thread.run(
            retrying(lambda: self._reads.fetch(numbered(sql), *params), self.retry_seconds, "read"))

    async def transaction(self, work: Callable[[Transaction], Awaitable[T]], *, awaits_others: bool = False) -> T:
        """Run `work(tx)` as one transaction (READ COMMITTED) on the thread's loop; retried whole if the
        connection was lost before its COMMIT. `awaits_others` (a copy reading another database as it
        writes, on the caller's loop): on a connection of its own on the caller's loop."""
        if awaits_others:
            async def here() -> T:
                con = await asyncpg.connect(self.dsn, timeout=CONNECT_TIMEOUT, command_timeout=COMMAND_TIMEOUT)
                try:
                    return await _whole(con, work)
                finally:
                    await con.close()

            return await retrying(here, self.retry_seconds, "write")

        async def attempt() -> T:
            async with self._pool.acquire() as con:
                return await _whole(con, work)

        return await self._thread.run(retrying(attempt, self.retry_seconds, "write"))

    async def statement(self, sql: str, params: Params = ()) -> Row | None:
        """One statement on a connection of the pool, its own transaction (no BEGIN, no COMMIT: one round
        trip). Retried while no connection can be had; lost while it ran: CommitUncertain."""

        async def attempt() -> Row | None:
            async with self._pool.acquire() as con:
                try:
                    return await con.fetchrow(numbered(sql), *params)
                except asyncpg.UniqueViolationError as exc:
                    raise UniqueViolation(str(exc)) from exc
                except Exception as exc:
                    if lost(exc):
                        raise CommitUncertain(f"the connection was lost during a write: {exc}") from exc
                    raise

        return await self._thread.run(retrying(attempt, self.retry_seconds, "write"))

    async def column_types(self) -> dict[str, dict[str, str]]:
        """Every table's columns, in order, with their types (copy.py, the schema test)."""
        rows = await self.fetchall(
            "SELECT table_name, column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position")
        found: dict[str, dict[str, str]] = {}
        for r in rows:
            found.setdefault(r["table_name"], {})[r["column_name"]] = r["data_type"]
        return found

    async def after_copy(self, tx: Transaction) -> None:
        """Rows copied in with their ids: new ones are numbered after the largest (identity columns)."""
        for table in ("games", "game_notes"):
            await tx.fetchone(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                              f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")


async def _whole(con: asyncpg.Connection | PoolConnectionProxy, work: Callable[[Transaction], Awaitable[T]]) -> T:
    """BEGIN, `work`, COMMIT on `con` (rolled back on any error). A connection lost during the COMMIT leaves
    the outcome unknown: CommitUncertain."""
    tx = con.transaction()
    await tx.start()
    try:
        result = await work(_Connection(con))
    except BaseException:
        with contextlib.suppress(Exception):  # a lost connection rolled back already
            await tx.rollback()
        raise
    try:
        await tx.commit()
    except Exception as exc:
        if lost(exc):
            raise CommitUncertain(f"the connection was lost during a commit: {exc}") from exc
        raise
    return result


async def _closed(pool: asyncpg.Pool) -> None:
    """Close `pool` (on its own loop): gracefully for up to 10 s, then at once."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(pool.close(), 10)
    pool.terminate()


async def table_names(dsn: str) -> set[str]:
    """The tables in the database's schema (one connection, tried once): is it this bot's? (copy.py asks
    before it opens a source, which would create the tables)."""
    try:
        con = await asyncpg.connect(dsn, timeout=CONNECT_TIMEOUT)
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as exc:
        raise StorageUnavailable(f"PostgreSQL could not be reached: {exc}") from exc
    try:
        rows = await con.fetch("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
    finally:
        await con.close()
    return {str(row["table_name"]) for row in rows}


async def retrying(call: Callable[[], Awaitable[T]], seconds: float, what: str) -> T:
    """`call()`, tried again with backoff while the server is out of reach, for up to `seconds`."""
    deadline, wait, failures = time.monotonic() + seconds, FIRST_WAIT, 0
    while True:
        try:
            result = await call()
        except CommitUncertain:
            raise
        except Exception as exc:
            if not lost(exc):
                raise
            failures += 1
            if time.monotonic() + wait > deadline:
                log.error("PostgreSQL out of reach for %.0f s (%s): could not %s", seconds, exc, what)
                raise StorageUnavailable(f"PostgreSQL could not be reached: {exc}") from exc
            log.warning("PostgreSQL out of reach (%s); trying to %s again in %.2f s", exc, what, wait)
            await asyncio.sleep(wait)
            wait = min(wait * 2, MAX_WAIT)
            continue
        if failures:
            log.info("PostgreSQL reached again after %d failed tries", failures)
        return result
