"""How a stored game reads: its row as a GameRecord, and the SQL fragments that select it."""

from __future__ import annotations

import hashlib

from engine import GameState

from .records import GameRecord, Table, TableMessages
from .sql import Row

OPEN = "('lobby', 'active')"  # the statuses of an open game, as SQL; one open game per channel
ENDED = "('finished', 'cancelled', 'abandoned')"
META = ("id, guild_id, channel_id, status, version, setup, created_at, updated_at, finished_at, ui,"
        " parent_id")  # no snapshot
# The log length comes along (through the primary-key index) so verifying a snapshot costs no extra query.
SELECT_GAME = "SELECT *, (SELECT COUNT(*) FROM actions WHERE actions.game_id = games.id) AS logged FROM games"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def record_from(row: Row, table: Table, state: GameState | None, messages: TableMessages | None = None) -> GameRecord:
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=row["status"],
        version=row["version"],
        table=table,
        state=state,
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        messages=messages if messages is not None else read_messages(row["ui"]),
        parent_id=row["parent_id"],
    )


def read_messages(text: str | None) -> TableMessages:
    """The bot's bookkeeping; a damaged value only costs message ids, never the game."""
    try:
        return TableMessages.model_validate_json(text or "{}")
    except ValueError:
        return TableMessages()
