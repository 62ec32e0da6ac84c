"""A move's write, and the bookkeeping after it, as one statement each where the database can (PostgreSQL's
data-modifying WITH; the dialect says `writes_in_one_statement`).

On PostgreSQL a transaction is a round trip per statement: a move was BEGIN, the game's row, the action,
the deadlines' delete and their rows, COMMIT, and its bookkeeping four more. Each trip wakes the
connections' thread, which then waits for the interpreter's lock the bot's loop holds (postgres/thread.py).
As one statement each, a move is one trip and its bookkeeping another, each its own transaction.

Everything after the game's row hangs on it (`FROM g`, `EXISTS (SELECT 1 FROM g)`): when the row does not
match (its version moved, another status, the shard no longer this process's: the fence is part of the
WHERE here), nothing at all is written, and the caller asks why (`why_not`). The statements of one WITH
see one snapshot, so the deadlines' delete leaves alone the rows the same statement upserts (a row both
deleted and updated by one statement is not defined).
"""

from __future__ import annotations

from typing import Any, NoReturn

from .chain import CONTENT
from .errors import GameNotFound, StorageUnavailable
from .ownership import Ownership
from .records import DeadlinePlan
from .rows import META, explain_miss
from .sql import Database, Transaction
from .writes import ON_CONFLICT_DEADLINE, deadline_rows

_ACTION = (f"INSERT INTO actions ({CONTENT}, hash) SELECT ?::bigint, ?::integer, ?::integer, ?::text, ?::text,"
           " ?::text, ?::text, ?::float8, ?::bytea FROM g")
_DROP = ("DELETE FROM deadlines WHERE game_id = ? AND kind != 'announce' AND player <> ALL(?::text[])"
         " AND (player, kind) NOT IN (SELECT * FROM unnest(?::text[], ?::text[])) AND EXISTS (SELECT 1 FROM g)")
_NEW = ("INSERT INTO deadlines (game_id, player, kind, due_at, payload) SELECT ?::bigint, r.p, r.k, r.t, r.x::jsonb"
        " FROM g, unnest(?::text[], ?::text[], ?::float8[], ?::text[]) AS r(p, k, t, x)"
        + ON_CONFLICT_DEADLINE)


def move(db: Database, ownership: Ownership, game_id: int, expected_version: int, sets: dict[str, Any],
         content: tuple[Any, ...], hashed: bytes, deadlines: DeadlinePlan | None,
         announce_at: float | None) -> tuple[str, list[Any]]:
    """The statement of an active game's move: the row (`sets`, version bumped, fenced), the action row
    (`content`, `hashed`: chain.py), and the deadlines as writes.plan makes them. It returns the game's META,
    or no row if nothing was written."""
    fence, fenced = ownership.condition(db.dialect)
    rows = deadline_rows(game_id, deadlines, expected_version + 1, announce_at)
    parts = [f"g AS (UPDATE games SET version = version + 1, {', '.join(f'{c} = ?' for c in sets)}"
             f" WHERE id = ? AND version = ? AND status = 'active'{fence} RETURNING {META})", f"a AS ({_ACTION})"]
    params: list[Any] = [*sets.values(), game_id, expected_version, *fenced, *content, hashed]
    latest = {(r[1], r[2]): r for r in rows}  # one row a key (the last, as upserts one after another leave it)
    if deadlines is not None:
        parts.append(f"d AS ({_DROP})")
        params += [game_id, sorted(deadlines.keep), [k[0] for k in latest], [k[1] for k in latest]]
    if latest:
        parts.append(f"n AS ({_NEW})")
        params += [game_id, *([r[i] for r in latest.values()] for i in range(1, 5))]
    return f"WITH {', '.join(parts)} SELECT * FROM g", params


def bookkeeping(db: Database, ownership: Ownership, game_id: int, ui: str,
                settled: int | None) -> tuple[str, list[Any]]:
    """The statement of writes.bookkeeping: the game's `ui`, and its announcement of versions up to `settled`
    dropped. It returns the game's id, or no row if nothing was written."""
    fence, fenced = ownership.condition(db.dialect)
    sql = f"WITH g AS (UPDATE games SET ui = ? WHERE id = ?{fence} RETURNING id)"
    params: list[Any] = [ui, game_id, *fenced]
    if settled is not None:
        sql += (", d AS (DELETE FROM deadlines WHERE game_id = ? AND kind = 'announce' AND player = ''"
                f" AND {db.dialect.json_int('payload', 'version')} <= ? AND EXISTS (SELECT 1 FROM g))")
        params += [game_id, settled]
    return sql + " SELECT * FROM g", params


async def why_not(db: Database, ownership: Ownership, game_id: int, expected_version: int | None) -> NoReturn:
    """A statement of this module wrote nothing: GameNotFound, WrongStatus or VersionConflict (a move's,
    `expected_version`), else ShardLost (the fence)."""

    async def explain(tx: Transaction) -> NoReturn:
        row = await tx.fetchone("SELECT guild_id, version, status FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        if expected_version is not None and (row["version"], row["status"]) != (expected_version, "active"):
            await explain_miss(tx, game_id, expected_version, "active")
        await ownership.fence(tx, db.dialect, row["guild_id"])
        raise StorageUnavailable(f"game {game_id}: the write was not stored")  # the shard left and came back

    await db.transaction(explain)
    raise AssertionError("why_not always raises")
