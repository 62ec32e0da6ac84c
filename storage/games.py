"""Games per channel: creating them, each kind of write, and loading them verified.

Every write that changes a game is guarded by its version: a stale writer gets
VersionConflict and nothing is written. An action and the snapshot it produced
are committed in one transaction, and so is the end of the game: a crash can
never leave a game over but still open.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from engine import EVENTS, GameState

from . import chain
from .errors import ChannelBusy, GameNotFound, GameNotPlayable, GameQuarantined, VersionConflict, WrongStatus
from .records import ENTRY, Actor, DeadlinePlan, GameRecord, Table, TableMessages

OPEN = "('lobby', 'active')"  # the statuses of an open game, as SQL; one open game per channel

_META = "id, guild_id, channel_id, status, version, setup, created_at, updated_at, finished_at, ui"  # no snapshot


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class GamesMixin:
    # --- creating

    async def open_lobby(self, guild_id: int, channel_id: int, table: Table) -> GameRecord:
        """A table waiting for players. Raises ChannelBusy if the channel has an open game."""
        return await self._insert(guild_id, channel_id, "lobby", table, None)

    async def create_game(self, guild_id: int, channel_id: int, table: Table, state: GameState) -> GameRecord:
        """A game that starts at once (the terminal game, tests, benchmarks)."""
        return await self._insert(guild_id, channel_id, "active", table, state)

    async def _insert(self, guild_id, channel_id, status, table: Table, state: GameState | None) -> GameRecord:
        now = time.time()
        snapshot = state.model_dump_json() if state is not None else None

        async def work(db):
            row = await self._fetchone(
                f"SELECT id FROM games WHERE channel_id = ? AND status IN {OPEN}", (channel_id,)
            )
            if row:
                raise ChannelBusy(channel_id, row["id"])
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, status, version, setup, snapshot, snapshot_sha256,"
                " created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, status, table.model_dump_json(), snapshot, snapshot and sha(snapshot), now, now),
            )
            return cur.lastrowid

        game_id = await self._transaction(work)
        return GameRecord(game_id, guild_id, channel_id, status, 0, table, state, now, now)

    # --- each kind of write

    async def update_lobby(self, game_id: int, expected_version: int, table: Table) -> GameRecord:
        sets = {"setup": table.model_dump_json(), "updated_at": time.time()}
        return await self._write(game_id, expected_version, "lobby", sets, None, table=table)

    async def start_game(self, game_id: int, expected_version: int, table: Table, state: GameState, *,
                         log: list = (), deadlines: DeadlinePlan | None = None,
                         announce_at: float | None = None) -> GameRecord:
        """Lobby to active: `table` now holds what replay needs (seats in order, seed, start player).

        `log`: what the deal told (the events of new_game), kept before the first move.
        """
        now = time.time()
        snapshot = state.model_dump_json()
        sets = {"status": "active", "setup": table.model_dump_json(), "snapshot": snapshot,
                "snapshot_sha256": sha(snapshot), "updated_at": now}

        async def also(db):
            await self._log(db, game_id, 0, log, now)
            await self._plan(db, game_id, deadlines)
            await self._announce(db, game_id, expected_version + 1, announce_at)

        return await self._write(game_id, expected_version, "lobby", sets, state, also, table=table)

    async def commit_action(
        self,
        game_id: int,
        expected_version: int,
        player: str,
        action: dict,
        state: GameState,
        *,
        events: list = (),
        actor: Actor = "player",
        table: Table | None = None,
        log: list = (),
        deadlines: DeadlinePlan | None = None,
        keep_table: Table | None = None,
        keep_messages: TableMessages | None = None,
        announce_at: float | None = None,
    ) -> GameRecord:
        """Append `action` (with who made it and the `events` it produced) to the log and store the `state`
        it produced, a changed `table`, table events (`log`) and the game's deadlines, all atomically.

        `keep_table`/`keep_messages`: the unchanged ones the caller holds, reused in the record returned
        rather than read back (fewer long-lived objects for the garbage collector to walk).

        If `state` ends the game, the game is finished in the same transaction, with its results.
        `announce_at`: when to announce the change again (table, pings, standings) if the bot has not
        said it has (`set_messages(settled=)`) by then; a restart meanwhile loses nothing.
        Raises VersionConflict (nothing written) if the game moved past `expected_version`.
        """
        now = time.time()
        snapshot = state.model_dump_json()
        sets: dict[str, Any] = {"snapshot": snapshot, "snapshot_sha256": sha(snapshot), "updated_at": now}
        if table is not None:
            sets["setup"] = table.model_dump_json()
        over = state.phase == "game_over"
        if over:
            sets |= {"status": "finished", "finished_at": now}

        async def also(db):
            await chain.append(db, (game_id, state.moves, expected_version + 1, player, actor, json.dumps(action),
                                    EVENTS.dump_json(list(events)).decode(), now))
            await self._log(db, game_id, state.moves, log, now)
            await self._plan(db, game_id, DeadlinePlan() if over else deadlines)
            await self._announce(db, game_id, expected_version + 1, announce_at)
            if over:
                await self._record_results(db, game_id, state, now)

        return await self._write(game_id, expected_version, "active", sets, state, also, table=table or keep_table,
                                 messages=keep_messages)

    async def update_table(self, game_id: int, expected_version: int, table: Table, *, log: list = (),
                           deadlines: DeadlinePlan | None = None, announce_at: float | None = None) -> GameRecord:
        """A change of seats during play (leaving, a stand-in, coming back), with its table events."""
        record = await self.load_game(game_id)
        now = time.time()
        moves = record.state.moves if record.state is not None else 0

        async def also(db):
            await self._log(db, game_id, moves, log, now)
            await self._plan(db, game_id, deadlines)
            await self._announce(db, game_id, expected_version + 1, announce_at)

        sets = {"setup": table.model_dump_json(), "updated_at": now}
        return await self._write(game_id, expected_version, "active", sets, record.state, also, table=table,
                                 messages=record.messages)

    async def finish_game(self, game_id: int, expected_version: int, status: str = "finished", *,
                          table: Table | None = None, log: list = (), announce_at: float | None = None) -> GameRecord:
        """Close an open game ('finished', 'cancelled', or 'abandoned' by all its players); it stays, with
        its log, as history, and its deadlines go. Only a game finished at its end records results.
        """
        if status not in ("finished", "cancelled", "abandoned"):
            raise ValueError(status)
        record = await self.load_game(game_id)
        if not record.open:
            raise WrongStatus(game_id, record.status, "open")
        now = time.time()
        ended = status == "finished" and record.state is not None and record.state.phase == "game_over"
        table = table or record.table

        async def also(db):
            await self._log(db, game_id, record.state.moves if record.state else 0, log, now)
            await self._plan(db, game_id, DeadlinePlan())
            await self._announce(db, game_id, expected_version + 1, announce_at)
            if ended:
                await self._record_results(db, game_id, record.state, now)

        sets = {"status": status, "finished_at": now, "updated_at": now, "setup": table.model_dump_json()}
        return await self._write(game_id, expected_version, record.status, sets, record.state, also,
                                 table=table, messages=record.messages)

    async def _write(self, game_id, expected_version, status, sets: dict, state, also=None, *,
                     table: Table | None = None, messages: TableMessages | None = None) -> GameRecord:
        """UPDATE `sets` on the game if it is still at `expected_version` and `status`; then `also(db)`.

        The record returned is read back, except the table and messages the caller already has.
        """

        async def work(db):
            assignments = ", ".join(f"{column} = ?" for column in sets)
            cur = await db.execute(
                f"UPDATE games SET version = version + 1, {assignments} WHERE id = ? AND version = ? AND status = ?",
                (*sets.values(), game_id, expected_version, status),
            )
            if cur.rowcount != 1:
                await self._explain_miss(game_id, expected_version, status)
            if also is not None:
                await also(db)
            return await self._fetchone(f"SELECT {_META} FROM games WHERE id = ?", (game_id,))

        row = await self._transaction(work)
        return record_from(row, table or Table.model_validate_json(row["setup"]), state, messages)

    async def _log(self, db, game_id: int, move: int, entries: list, now: float) -> None:
        """Table events (or the deal's events) that follow `move` in the game's log."""
        for entry in entries:
            await db.execute(
                "INSERT INTO table_log (game_id, seq, move, at, entry) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1"
                " FROM table_log WHERE game_id = ?), ?, ?, ?)",
                (game_id, game_id, move, now, ENTRY.dump_json(entry).decode()),
            )

    async def _plan(self, db, game_id: int, plan: DeadlinePlan | None) -> None:
        """Make the game's deadlines what `plan` says (None: leave them as they are)."""
        if plan is None:
            return
        keep = sorted(plan.keep)
        await db.execute(
            f"DELETE FROM deadlines WHERE game_id = ? AND kind != 'announce'"  # that one goes once it is done
            f" AND player NOT IN ({', '.join('?' * len(keep))})",
            (game_id, *keep),
        )
        for d in plan.new:
            await db.execute(
                "INSERT INTO deadlines (game_id, player, kind, due_at, payload) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, player, kind) DO UPDATE SET due_at = excluded.due_at,"
                " payload = excluded.payload",
                (game_id, d.player, d.kind, d.due_at, json.dumps(d.payload)),
            )

    async def _explain_miss(self, game_id: int, expected_version: int, wanted: str):
        row = await self._fetchone("SELECT version, status FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        if row["status"] != wanted:
            raise WrongStatus(game_id, row["status"], wanted)
        raise VersionConflict(game_id, expected_version)

    # --- loading (verification and repair: repair.py)

    async def load_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's open game, verified; None if there is none."""
        row = await self._fetchone(f"{SELECT_GAME} WHERE channel_id = ? AND status IN {OPEN}", (channel_id,))
        return await self._verified(row) if row else None

    async def load_game(self, game_id: int) -> GameRecord:
        row = await self._fetchone(f"{SELECT_GAME} WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return await self._verified(row)

    async def active_games(self) -> tuple[list[GameRecord], list[GameQuarantined | GameNotPlayable]]:
        """Every open game (what the bot restores at start-up), and those that had to be quarantined or
        cannot be played here (their edition is missing)."""
        rows = await self._fetchall(f"{SELECT_GAME} WHERE status IN {OPEN} ORDER BY id")
        games, lost = [], []
        for row in rows:
            try:
                games.append(await self._verified(row))
            except (GameQuarantined, GameNotPlayable) as exc:
                lost.append(exc)
        return games, lost


# The log length comes along (through the primary-key index) so verifying a snapshot costs no extra query.
SELECT_GAME = "SELECT *, (SELECT COUNT(*) FROM actions WHERE actions.game_id = games.id) AS logged FROM games"


def record_from(row, table: Table, state: GameState | None, messages: TableMessages | None = None) -> GameRecord:
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
    )


def read_messages(text: str | None) -> TableMessages:
    """The bot's bookkeeping; a damaged value only costs message ids, never the game."""
    try:
        return TableMessages.model_validate_json(text or "{}")
    except ValueError:
        return TableMessages()
