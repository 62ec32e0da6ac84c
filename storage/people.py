"""What storage keeps of a person across servers: the open games they sit at, in every server (issue 43's
`/augsburg me games`, and their daily word), and their own deadlines (the daily word), which belong to no
game.

Open games are found by the `games_by_status` index and their seats read from the table's JSON: their number
is bounded by the channels in use, so no index of seats is kept (it would be one more thing every lobby
write must keep true). Person deadlines are rows of `person_deadlines` (migrations 11 / 5), fired by the
scheduler with the games' deadlines (deadlines.py) by the process that holds shard 0, and claimed alike.
"""

from __future__ import annotations

import json
from typing import Any

from engine.editions import Library

from . import repair
from .records import Deadline, GameRecord
from .rows import OPEN, SELECT_GAME
from .sql import Database, Transaction

PERSON = 0  # the game id a person's own deadline carries (no game has it: ids start at 1)


async def seated_games(db: Database, editions: Library, player: str) -> list[GameRecord]:
    """Every open game (lobby or under way) in any server with a seat of `player` they have not left, newest
    first; a damaged game, or one this bot cannot load, is left out."""
    d = db.dialect
    seats = d.json_elements(d.json_field("games.setup", "seats"), "s")
    rows = await db.fetchall(f"{SELECT_GAME} WHERE status IN {OPEN} AND EXISTS (SELECT 1 FROM {seats}"
                             f" WHERE {d.json_field('s.value', 'id')} = ?) ORDER BY id DESC", (player,))
    games, _lost = await repair.verify_all(db, rows, editions)
    return [g for g in games if (seat := g.table.seat(player)) is not None and not seat.left]


async def set_person_deadline(db: Database, user: str, kind: str, due_at: float,
                              payload: dict[str, Any] | None = None) -> None:
    async def work(tx: Transaction) -> None:
        await tx.execute("INSERT INTO person_deadlines (user_id, kind, due_at, payload) VALUES (?, ?, ?, ?)"
                         " ON CONFLICT (user_id, kind) DO UPDATE SET due_at = excluded.due_at,"
                         " payload = excluded.payload", (user, kind, float(due_at), json.dumps(payload or {})))

    await db.transaction(work)


async def clear_person_deadline(db: Database, user: str, kind: str) -> None:
    async def work(tx: Transaction) -> None:
        await tx.execute("DELETE FROM person_deadlines WHERE user_id = ? AND kind = ?", (user, kind))

    await db.transaction(work)


async def person_deadlines(db: Database, due_before: float | None, limit: int | None) -> list[Deadline]:
    sql, params = "SELECT user_id, kind, due_at, payload FROM person_deadlines", list[Any]()
    if due_before is not None:
        sql, params = sql + " WHERE due_at <= ?", [float(due_before)]
    sql += " ORDER BY due_at"
    if limit is not None:
        sql, params = sql + " LIMIT ?", [*params, limit]
    return [Deadline(PERSON, r["user_id"], r["kind"], r["due_at"], _payload(r["payload"]))
            for r in await db.fetchall(sql, params)]


def _payload(value: Any) -> dict[str, Any]:
    loaded = json.loads(value) if isinstance(value, str) else value
    return dict(loaded or {})


async def claim(db: Database, deadline: Deadline, until: float | None) -> bool:
    """Drop (`until` None) or postpone a person's deadline, unless it was re-armed (or claimed) meanwhile."""
    where = "WHERE user_id = ? AND kind = ? AND due_at = ?"
    key = (deadline.player, deadline.kind, float(deadline.due_at))

    async def work(tx: Transaction) -> bool:
        if until is None:
            return await tx.execute(f"DELETE FROM person_deadlines {where}", key) == 1
        return await tx.execute(f"UPDATE person_deadlines SET due_at = ? {where}", (float(until), *key)) == 1

    return await db.transaction(work)
