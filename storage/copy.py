"""Moving a bot's data from one database to another (`augsburg copy-database --from URL --to URL`), say from
its SQLite file to PostgreSQL: every row of every table, as it is stored, then checked on the target.

Rows are copied as stored, hashes included, so the target's hash chains are the source's; each game is
then checked on the target as loading checks it (its snapshot's checksum and rules, its log's chain and
length), without repairing anything. The target must be empty and the source not served by a live bot
(its lease), so nothing changes under the copy. The whole copy is one transaction on the target: a copy
that fails leaves it empty.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from engine.editions import Library

from . import chain
from .errors import GameNotPlayable, StorageError
from .records import Table
from .repair import examine, playable
from .rows import SELECT_GAME
from .sql import Row, Transaction, one
from .store import Store
from .url import DatabaseURL

OURS = {"schema_version", "games"}  # the tables every database of this bot has, from its first migration

# Each table with its key, parents first. Not copied: the lease (whoever serves the target takes its own)
# and schema_version (each database has its own migrations).
TABLES = (("games", ("id",)), ("actions", ("game_id", "move")), ("table_log", ("game_id", "seq")),
          ("deadlines", ("game_id", "player", "kind")), ("game_notes", ("id",)),
          ("player_results", ("game_id", "player")), ("noble_wins", ("game_id", "player", "noble")),
          ("player_totals", ("guild_id", "player")), ("player_settings", ("user_id",)),
          ("guild_settings", ("guild_id",)), ("meta", ("key",)), ("person_deadlines", ("user_id", "kind")),
          ("ratings", ("guild_id", "season", "player")), ("rated_games", ("game_id",)),
          ("seasons", ("guild_id", "season")), ("departures", ("game_id", "player")),
          ("rating_changes", ("game_id", "player")))
BATCH = 2000
# A column's type (either backend's name for it) as the value the target takes.
AS_PYTHON = {"integer": int, "bigint": int, "double precision": float, "real": float, "text": str, "jsonb": str,
             "bytea": bytes, "blob": bytes}


class CopyRefused(StorageError):
    pass


@dataclass
class Copied:
    source: str
    target: str
    rows: dict[str, int] = field(default_factory=dict)  # per table
    statuses: Counter[str] = field(default_factory=Counter)  # games per status
    checked: int = 0  # games whose snapshot and log were checked on the target
    damaged: list[tuple[int, str]] = field(default_factory=list)  # damaged in the source already: copied as they were
    unchecked: list[tuple[int, str]] = field(default_factory=list)  # their edition is not here: copied, not checked


async def copy_database(source_url: str, target_url: str, *, batch: int = BATCH, editions: Library | None = None,
                        retry_seconds: float | None = None) -> Copied:
    """Copy everything from `source_url` to the empty `target_url` and check it there (CopyRefused: nothing
    copied). `editions`: what the games are checked with (a game of another edition is copied unchecked).
    A source that is not there, or is not this bot's, is refused before it is opened: never created.
    `retry_seconds`: how long a PostgreSQL server out of reach is waited for (default: storage's)."""
    await refuse_foreign(DatabaseURL.parse(source_url))
    source = await Store.open(source_url, editions=editions, retry_seconds=retry_seconds)
    try:
        holder = await source.leases.live_lease()
        if holder is not None:
            raise CopyRefused(f"a bot serves {source.where} (pid {holder.pid} on {holder.host}): stop it first")
        target = await Store.open(target_url, editions=editions, retry_seconds=retry_seconds)
        try:
            return await _copy(source, target, batch)
        finally:
            await target.close()
    finally:
        await source.close()


async def refuse_foreign(url: DatabaseURL) -> None:
    """CopyRefused unless `url` is a database this bot wrote (a SQLite file that is not there, or that is
    another program's, is not one); StorageUnavailable if a PostgreSQL server cannot be asked."""
    if url.kind == "sqlite":
        assert url.path is not None  # a SQLite database is a file
        tables = await asyncio.to_thread(_sqlite_tables, url.path)
    else:
        from .postgres.database import table_names

        assert url.dsn is not None  # a PostgreSQL database is a connection string
        tables = await table_names(url.dsn)
    if not OURS <= tables:
        raise CopyRefused(f"{url.shown} is not a database of this bot (it has no {' or '.join(sorted(OURS - tables))}"
                          " table): name the bot's own database to copy from")


def _sqlite_tables(path: str) -> set[str]:
    """The tables of the SQLite file at `path`, read without writing to it (and without creating it)."""
    if not Path(path).is_file():
        raise CopyRefused(f"{path} does not exist" if not Path(path).exists() else f"{path} is not a file")
    try:
        con = sqlite3.connect(f"file:{quote(str(Path(path).resolve()))}?mode=ro", uri=True)
        try:
            rows = con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:  # "file is not a database"
        raise CopyRefused(f"{path} is not a SQLite database ({exc})") from None
    return {str(name) for (name,) in rows}


async def _copy(source: Store, target: Store, batch: int) -> Copied:
    for table in [t for t, _ in TABLES] + ["lease"]:
        if await target.db.fetchone(f"SELECT 1 AS x FROM {table} LIMIT 1"):
            raise CopyRefused(f"{target.where} is not empty (its {table} table has rows): copy into an empty one")
    types = await target.db.column_types()
    done = Copied(source.where, target.where)

    async def work(tx: Transaction) -> None:
        for table, key in TABLES:
            columns = list(types[table])
            convert = [AS_PYTHON[types[table][c].lower()] for c in columns]
            insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
            done.rows[table] = 0
            async for rows in _batches(source, table, columns, key, batch):
                await tx.executemany(insert, [[None if v is None else f(v) for f, v in zip(convert, r)] for r in rows])
                done.rows[table] += len(rows)
        await target.db.after_copy(tx)

    await target.db.transaction(work, awaits_others=True)  # it reads the source as it writes
    for table, _ in TABLES:
        stored = (await one(target.db, f"SELECT COUNT(*) AS n FROM {table}"))["n"]
        if stored != done.rows[table]:
            raise StorageError(f"{table}: {done.rows[table]} rows copied but {stored} on the target")
    await _check(source, target, done)
    return done


async def _batches(store: Store, table: str, columns: list[str], key: tuple[str, ...],
                   size: int) -> AsyncIterator[Sequence[Row]]:
    """The table's rows in key order, `size` at a time (keyset paging: each page starts after the last)."""
    after: tuple[Any, ...] | None = None
    while True:
        where, params = "", []
        if after is not None:
            where = f" WHERE ({', '.join(key)}) > ({', '.join('?' * len(key))})"
            params = list(after)
        rows = await store.db.fetchall(f"SELECT {', '.join(columns)} FROM {table}{where} ORDER BY"
                                       f" {', '.join(key)} LIMIT ?", [*params, size])
        if not rows:
            return
        yield rows
        after = tuple(rows[-1][columns.index(k)] for k in key)


async def _check(source: Store, target: Store, done: Copied) -> None:
    """Every game loads on the target as it did on the source: its snapshot sound, its hash chain whole."""
    ids = [r["id"] for r in await target.db.fetchall("SELECT id FROM games ORDER BY id")]
    for game_id in ids:
        row = await one(target.db, f"{SELECT_GAME} WHERE id = ?", (game_id,))
        done.statuses[row["status"]] += 1
        try:
            problem = await _problem(target, row)
        except GameNotPlayable as exc:
            done.unchecked.append((game_id, exc.reason))
            continue
        if problem is None:
            done.checked += 1
            continue
        was = await _problem(source, await one(source.db, f"{SELECT_GAME} WHERE id = ?", (game_id,)))
        if was is None:
            raise StorageError(f"game {game_id} does not load on {target.where} as on {source.where}: {problem}")
        done.damaged.append((game_id, was))


async def _problem(store: Store, row: Row) -> str | None:
    """What keeps the stored game from loading as it is (None: nothing), changing nothing."""
    if row["status"] == "quarantined":
        return "quarantined"
    if row["snapshot"] is None:
        return None  # a lobby: no state, no log
    table = Table.model_validate_json(row["setup"])
    edition = playable(store.editions, table, row["id"], row["channel_id"])  # GameNotPlayable: no edition here
    actions = (await store.db.fetchall(chain.SELECT_LOG, (row["id"],)))[:row["logged"]]
    _state, why, damage = examine(row, actions, edition, table.game_rules)
    problems = [p for p in (why, damage) if p]
    return "; ".join(problems) if problems else None
