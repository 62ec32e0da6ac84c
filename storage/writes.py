"""What a game write brings along in its transaction: table events for the log, the game's deadlines, and
the durable promise to announce the change.

A write that changes what everybody sees also writes an "announce" row (a deadline of player '') in the
same transaction; the bot drops it once the table, pings and standings are out (`set_messages(settled=)`).
If Discord failed or the bot died first, the scheduler finds the row and the announcement is made then.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .records import ENTRY, DeadlinePlan, LogEntry
from .sql import Transaction

UPSERT_DEADLINE = ("INSERT INTO deadlines (game_id, player, kind, due_at, payload) VALUES (?, ?, ?, ?, ?)"
                   " ON CONFLICT (game_id, player, kind) DO UPDATE SET due_at = excluded.due_at,"
                   " payload = excluded.payload")


async def log_entries(tx: Transaction, game_id: int, move: int, entries: Sequence[LogEntry], now: float) -> None:
    """Table events (or the deal's events) that follow `move` in the game's log (numbered under the game's
    row lock, which the write holds)."""
    for entry in entries:
        await tx.execute(
            "INSERT INTO table_log (game_id, seq, move, at, entry) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1"
            " FROM table_log WHERE game_id = ?), ?, ?, ?)",
            (game_id, game_id, move, now, ENTRY.dump_json(entry).decode()),
        )


async def plan(tx: Transaction, game_id: int, deadlines: DeadlinePlan | None) -> None:
    """Make the game's deadlines what the plan says (None: leave them as they are)."""
    if deadlines is None:
        return
    keep = sorted(deadlines.keep)
    sql = "DELETE FROM deadlines WHERE game_id = ? AND kind != 'announce'"  # that one goes once it is done
    if keep:
        sql += f" AND player NOT IN ({', '.join('?' * len(keep))})"
    await tx.execute(sql, (game_id, *keep))
    if deadlines.new:  # all at once: one round trip to PostgreSQL, not one per deadline
        await tx.executemany(UPSERT_DEADLINE, [(game_id, d.player, d.kind, float(d.due_at), json.dumps(d.payload))
                                               for d in deadlines.new])


async def announce(tx: Transaction, game_id: int, version: int, due_at: float | None) -> None:
    """The durable promise to announce `version` (one row per game, the newest version wins)."""
    if due_at is not None:
        await tx.execute(UPSERT_DEADLINE, (game_id, "", "announce", float(due_at), json.dumps({"version": version})))
