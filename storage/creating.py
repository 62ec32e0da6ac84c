"""A new game's row: a lobby, or a game that starts at once, one open game per channel."""

from __future__ import annotations

import time

from engine import GameState

from .errors import ChannelBusy, CommitUncertain, UniqueViolation
from .ownership import Ownership
from .records import GameRecord, Table
from .rows import OPEN, sha
from .sql import Database, Transaction, one


async def insert(db: Database, ownership: Ownership, guild_id: int, channel_id: int, status: str, table: Table,
                 state: GameState | None, parent_id: int | None = None) -> GameRecord:
    now = time.time()
    snapshot = state.model_dump_json() if state is not None else None

    async def work(tx: Transaction) -> int:
        await ownership.fence(tx, db.dialect, guild_id)
        row = await tx.fetchone(f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN}", (channel_id,))
        if row:
            raise ChannelBusy(channel_id, row["id"])
        made = await one(
            tx, "INSERT INTO games (guild_id, channel_id, parent_id, status, version, setup, snapshot,"
            " snapshot_sha256, created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?) RETURNING id",
            (guild_id, channel_id, parent_id, status, table.model_dump_json(), snapshot,
             snapshot and sha(snapshot), now, now),
        )
        return int(made["id"])

    try:
        game_id = await db.transaction(work)
    except UniqueViolation:
        # Another writer opened a game here between the check and the insert: the unique index of open
        # games per channel refused this one, which is the same refusal.
        row = await db.fetchone(f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN}", (channel_id,))
        raise ChannelBusy(channel_id, row["id"] if row else 0) from None
    except CommitUncertain:
        row = await db.fetchone("SELECT id FROM games WHERE channel_id = ? AND created_at = ?", (channel_id, now))
        if row is None:
            raise
        game_id = row["id"]
    return GameRecord(game_id, guild_id, channel_id, status, 0, table, state, now, now, parent_id=parent_id)
