"""How a stored game reads: its row as a GameRecord, the SQL fragments that select it, and why a versioned
write missed it."""

from __future__ import annotations

import hashlib
from typing import NoReturn

from engine import GameState

from .errors import GameNotFound, VersionConflict, WrongStatus
from .records import GameRecord, Table, TableMessages
from .sql import Row, Transaction

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


async def explain_miss(tx: Transaction, game_id: int, expected_version: int, wanted: str) -> NoReturn:
    """A versioned write matched no row: why (the game is gone, has another status, or another version)."""
    row = await tx.fetchone("SELECT version, status FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise GameNotFound(game_id)
    if row["status"] != wanted:
        raise WrongStatus(game_id, row["status"], wanted)
    raise VersionConflict(game_id, expected_version)
