"""What the SQL of storage/ is written against: a database that reads, and runs a piece of work as one
transaction, and the few words of SQL the two backends spell differently.

SQL is written once, with `?` for parameters (the PostgreSQL backend numbers them). Where SQLite and
PostgreSQL disagree, the difference is a method of the backend's `Dialect` (sqlite/database.py,
postgres/database.py), so each backend's differences live in one place.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
Row = Any  # a row read by column name or position (sqlite3.Row, asyncpg.Record)


class Dialect(Protocol):
    name: str  # 'sqlite' | 'postgresql'
    for_update: str  # appended to a SELECT of a row the transaction goes on to change ('' where writes lock all)

    def json_field(self, expr: str, key: str) -> str:
        """The text of `key` in the JSON object `expr` (a column holding JSON text)."""

    def json_int(self, expr: str, key: str) -> str:
        """The integer at `key` in the JSON object `expr`."""

    def json_elements(self, expr: str, alias: str) -> str:
        """A FROM item: one row per element of the JSON array `expr`, its element as `alias`.value."""


class Reader(Protocol):
    async def fetchone(self, sql: str, params: Sequence = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Sequence = ()) -> list[Row]: ...


class Transaction(Reader, Protocol):
    async def execute(self, sql: str, params: Sequence = ()) -> int:
        """Run one statement; how many rows it changed. A unique index's refusal is UniqueViolation."""

    async def executemany(self, sql: str, rows: Iterable[Sequence]) -> None: ...


class Database(Reader, Protocol):
    dialect: Dialect
    path: str | None  # SQLite's file; None on PostgreSQL

    async def transaction(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        """Run `work(tx)` as one transaction: all of it is committed, or (on any error) none of it."""

    async def column_types(self) -> dict[str, dict[str, str]]:
        """Every table's columns, in order, with their types."""

    async def after_copy(self, tx: Transaction) -> None:
        """After rows were copied in with their ids (copy.py): new rows are numbered after them."""

    async def close(self) -> None: ...
