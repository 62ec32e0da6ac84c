"""What the SQL of storage/ is written against: a database that reads, and runs a piece of work as one
transaction, and the few words of SQL the two backends spell differently.

SQL is written once, with `?` for parameters (the PostgreSQL backend numbers them). Where SQLite and
PostgreSQL disagree, the difference is a member of the backend's `Dialect` (sqlite/database.py,
postgres/database.py), so each backend's differences live in one place.

Every backend is checked against these Protocols by the type checker (conformance.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar, overload

T = TypeVar("T")
Params = Sequence[Any]  # a statement's parameters, in the order of its `?`s


class Row(Protocol):
    """A row read by column name or position (sqlite3.Row, asyncpg.Record). Its values are the database's:
    what a column holds is for the SQL that read it to know, so they are Any."""

    @overload
    def __getitem__(self, key: str, /) -> Any: ...

    @overload
    def __getitem__(self, key: int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Dialect(Protocol):
    @property
    def name(self) -> str:
        """'sqlite' | 'postgresql'"""

    @property
    def for_update(self) -> str:
        """Appended to a SELECT of a row the transaction goes on to change ('' where writes lock all)."""

    @property
    def key_share(self) -> str:
        """Appended to a SELECT of a row the transaction relies on staying as read until its commit, which
        others may still touch in ways that do not change what was read (the shard fence: ownership.py)."""

    @property
    def writes_in_one_statement(self) -> bool:
        """A game's move and its bookkeeping are written as one statement each (onestatement.py: a WITH
        that changes rows), not as transactions of several: a round trip each instead of six and four."""

    def json_field(self, expr: str, key: str) -> str:
        """The text of `key` in the JSON object `expr` (a column holding JSON text)."""

    def json_int(self, expr: str, key: str) -> str:
        """The integer at `key` in the JSON object `expr`."""

    def json_elements(self, expr: str, alias: str) -> str:
        """A FROM item: one row per element of the JSON array `expr`, its element as `alias`.value."""


class Reader(Protocol):
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Params = ()) -> Sequence[Row]: ...


class Transaction(Reader, Protocol):
    """Statements inside one transaction: its reads see its own writes."""

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; how many rows it changed. A unique index's refusal is UniqueViolation."""

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None: ...


class Database(Reader, Protocol):
    """Reads outside a transaction see committed data only (never a transaction still under way, this
    process's included); writes happen in `transaction` alone."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def path(self) -> str | None:
        """SQLite's file; None on PostgreSQL."""

    async def transaction(self, work: Callable[[Transaction], Awaitable[T]], *, awaits_others: bool = False) -> T:
        """Run `work(tx)` as one transaction: all of it is committed, or (on any error) none of it. `work`
        awaits nothing but `tx`'s statements (SQLite runs it whole in its writer's thread), unless
        `awaits_others` (copying from another database: SQLite then holds its writer for it on the loop)."""

    async def statement(self, sql: str, params: Params = ()) -> Row | None:
        """One statement, committed by itself; its first row. If the connection is lost while it runs, it
        may or may not have landed: CommitUncertain (the caller reads what is stored to know)."""

    async def column_types(self) -> dict[str, dict[str, str]]:
        """Every table's columns, in order, with their types."""

    async def after_copy(self, tx: Transaction) -> None:
        """After rows were copied in with their ids (copy.py): new rows are numbered after them."""

    async def close(self) -> None: ...


async def one(reader: Reader, sql: str, params: Params = ()) -> Row:
    """The row of a query that always reads exactly one: an aggregate without GROUP BY (COUNT, MAX...), or a
    row known to be there (inserted or updated in this transaction, say)."""
    row = await reader.fetchone(sql, params)
    if row is None:
        raise RuntimeError(f"no row from a query that always has one: {sql}")
    return row
