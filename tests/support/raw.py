"""The database behind a store's back, on either backend: for tests that damage rows as a disk, a bug or a
hand-edit would, and for reading rows as they are stored."""

from __future__ import annotations

import contextlib
import sqlite3


async def tamper(store, sql: str, *params) -> None:
    """Run one statement (`?` parameters) on a connection of its own, outside the store."""
    if store.kind == "sqlite":
        with contextlib.closing(sqlite3.connect(store.path, isolation_level=None)) as db:
            db.execute(sql, params)
        return
    con = await _connect(store)
    try:
        await con.execute(_numbered(sql), *params)
    finally:
        await con.close()


async def rows(store, sql: str, *params) -> list:
    """The rows a query reads (by column name, or in order), outside the store."""
    if store.kind == "sqlite":
        with contextlib.closing(sqlite3.connect(store.path)) as db:
            db.row_factory = sqlite3.Row
            return db.execute(sql, params).fetchall()
    con = await _connect(store)
    try:
        return await con.fetch(_numbered(sql), *params)
    finally:
        await con.close()


async def _connect(store):
    import asyncpg

    return await asyncpg.connect(store.db.dsn)


def _numbered(sql: str) -> str:
    from storage.postgres.database import numbered

    return numbered(sql)
