"""What a game write brings along in its transaction: table events for the log, the game's deadlines, and
the durable promise to announce the change.

A write that changes what everybody sees also writes an "announce" row (a deadline of player '') in the
same transaction; the bot drops it once the table, pings and standings are out (`set_messages(settled=)`).
If Discord failed or the bot died first, the scheduler finds the row and the announcement is made then.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .errors import GameNotFound
from .ownership import Ownership
from .records import ENTRY, DeadlinePlan, LogEntry, TableMessages
from .sql import Dialect, Transaction

ON_CONFLICT_DEADLINE = (" ON CONFLICT (game_id, player, kind) DO UPDATE SET due_at = excluded.due_at,"
                        " payload = excluded.payload")  # a game's one row of a person and kind, replaced
UPSERT_DEADLINE = ("INSERT INTO deadlines (game_id, player, kind, due_at, payload) VALUES (?, ?, ?, ?, ?)"
                   + ON_CONFLICT_DEADLINE)


def entry_bodies(entries: Sequence[LogEntry]) -> list[str]:
    """Table events as the log keeps them (JSON)."""
    return [ENTRY.dump_json(entry).decode() for entry in entries]


async def log_entries(tx: Transaction, game_id: int, move: int, bodies: Sequence[str], now: float) -> None:
    """Table events (or the deal's events; `entry_bodies`) that follow `move` in the game's log (numbered
    under the game's row lock, which the write holds)."""
    for body in bodies:
        await tx.execute(
            "INSERT INTO table_log (game_id, seq, move, at, entry) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1"
            " FROM table_log WHERE game_id = ?), ?, ?, ?)",
            (game_id, game_id, move, now, body),
        )


async def plan(tx: Transaction, game_id: int, deadlines: DeadlinePlan | None, version: int,
               announce_at: float | None) -> None:
    """Make the game's deadlines what the plan says (None: leave them as they are), and promise to announce
    `version` at `announce_at` (None: no promise; one row per game, the newest version wins). The new rows
    go in one statement with the promise: one round trip to PostgreSQL, not one per row."""
    if deadlines is not None:
        keep = sorted(deadlines.keep)
        sql = "DELETE FROM deadlines WHERE game_id = ? AND kind != 'announce'"  # that one goes once it is done
        if keep:
            sql += f" AND player NOT IN ({', '.join('?' * len(keep))})"
        await tx.execute(sql, (game_id, *keep))
    if rows := deadline_rows(game_id, deadlines, version, announce_at):
        await tx.executemany(UPSERT_DEADLINE, rows)


def deadline_rows(game_id: int, deadlines: DeadlinePlan | None, version: int,
                  announce_at: float | None) -> list[tuple[int, str, str, float, str]]:
    """The deadline rows `plan` upserts: the plan's new ones, and the promise to announce `version`."""
    rows = [(game_id, d.player, d.kind, float(d.due_at), json.dumps(d.payload))
            for d in (deadlines.new if deadlines is not None else ())]
    if announce_at is not None:
        rows.append((game_id, "", "announce", float(announce_at), json.dumps({"version": version})))
    return rows


async def bookkeeping(tx: Transaction, dialect: Dialect, ownership: Ownership, game_id: int, messages: TableMessages,
                      settled: int | None) -> None:
    """The bot's bookkeeping of a game's messages, stored with no version bump (never a conflict). `settled`:
    everything up to this version has been announced, so its announcement is dropped."""
    fence, fenced = ownership.returning(dialect)  # the lease read by this one statement
    row = await tx.fetchone(f"UPDATE games SET ui = ? WHERE id = ? RETURNING guild_id{fence}",
                            (messages.model_dump_json(), game_id, *fenced))
    if row is None:
        raise GameNotFound(game_id)
    if fence:
        ownership.passed(row["guild_id"], row["fence_holder"])
    if settled is not None:
        version = dialect.json_int("payload", "version")
        await tx.execute("DELETE FROM deadlines WHERE game_id = ? AND kind = 'announce' AND player = ''"
                         f" AND {version} <= ?", (game_id, settled))
