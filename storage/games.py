"""Games per channel: creating them, each kind of write, and loading them verified (GameStore).

Every write that changes a game is guarded by its version: the game's row is updated first, only if it
is still at the version the writer read (`UPDATE ... WHERE version = ?`). That statement also locks the
row until the commit, so on PostgreSQL a second writer waits, then finds the version moved and gets
VersionConflict; nothing of it is written. An action and the snapshot it produced are committed in one
transaction, and so is the end of the game with its results: a crash can never leave a game over but
still open.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from engine import EVENTS, Event, GameState
from engine.editions import Library

from . import chain, onestatement, repair
from .creating import insert
from .errors import (
    CommitUncertain,
    GameNotFound,
    GameNotPlayable,
    GameQuarantined,
    StorageUnavailable,
    WrongStatus,
)
from .ownership import Ownership
from .people import seated_games
from .recent import RecentMoves
from .records import Actor, DeadlinePlan, GameRecord, LogEntry, Table, TableMessages
from .reliability import record_departures
from .rows import META, OPEN, SELECT_GAME, explain_miss, record_from, sha
from .sql import Database, Row, Transaction, one
from .stats import record_results
from .writes import bookkeeping, entry_bodies, log_entries, plan

SENDS = 3  # how often a move's one statement is sent while its connection is lost under it


class Games:
    def __init__(self, db: Database, editions: Library, ownership: Ownership | None = None,
                 recent: RecentMoves | None = None):
        self.db = db
        self.editions = editions  # what games are loaded and replayed with (a game's own edition, or refused)
        self.ownership = ownership or Ownership()  # every write commits only while its shard is ours
        self.recent = recent or RecentMoves()  # each game's newest moves as written here (read by GameLog)

    # --- creating

    async def open_lobby(self, guild_id: int, channel_id: int, table: Table,
                         parent_id: int | None = None) -> GameRecord:
        """A table waiting for players. Raises ChannelBusy if the channel has an open game. `parent_id`: the
        channel whose thread `channel_id` is (its history lists the thread's games too)."""
        return await insert(self.db, self.ownership, guild_id, channel_id, "lobby", table, None, parent_id)

    async def create_game(self, guild_id: int, channel_id: int, table: Table, state: GameState) -> GameRecord:
        """A game that starts at once (the terminal game, tests, benchmarks). ValueError, nothing written, if the
        table has no seed: the game could be neither rebuilt from its log nor finished (its results replay it)."""
        if table.seed is None:
            raise ValueError("a started game's table needs the seed its state was dealt from")
        return await insert(self.db, self.ownership, guild_id, channel_id, "active", table, state)

    # --- each kind of write

    async def update_lobby(self, game_id: int, expected_version: int, table: Table) -> GameRecord:
        sets = {"setup": table.model_dump_json(), "updated_at": time.time()}
        return await self._write(game_id, expected_version, "lobby", sets, None, table=table)

    async def start_game(self, game_id: int, expected_version: int, table: Table, state: GameState, *,
                         log: Sequence[LogEntry] = (), deadlines: DeadlinePlan | None = None,
                         announce_at: float | None = None) -> GameRecord:
        """Lobby to active: `table` now holds what replay needs (seats in order, seed, start player).

        `log`: what the deal told (the events of new_game), kept before the first move.
        """
        now = time.time()
        snapshot = state.model_dump_json()
        sets = {"status": "active", "setup": table.model_dump_json(), "snapshot": snapshot,
                "snapshot_sha256": sha(snapshot), "updated_at": now}
        deal = entry_bodies(log)

        async def also(tx: Transaction) -> None:
            await log_entries(tx, game_id, 0, deal, now)
            await plan(tx, game_id, deadlines, expected_version + 1, announce_at)

        record = await self._write(game_id, expected_version, "lobby", sets, state, also, table=table)
        self.recent.started(game_id, record.version, deal, now)
        return record

    async def commit_action(self, game_id: int, expected_version: int, player: str, action: dict[str, Any],
                            state: GameState, *, events: Sequence[Event] = (), actor: Actor = "player",
                            table: Table | None = None, log: Sequence[LogEntry] = (),
                            deadlines: DeadlinePlan | None = None, keep_table: Table | None = None,
                            keep_messages: TableMessages | None = None, announce_at: float | None = None) -> GameRecord:
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
        move, said, entries = state.moves, EVENTS.dump_json(list(events)).decode(), entry_bodies(log)
        previous = chain.GENESIS if move == 1 else self.recent.previous_hash(game_id, expected_version, move - 1)
        hashed = b""
        content = (game_id, move, expected_version + 1, player, actor, json.dumps(action), said, now)
        statement = None  # a move in one statement where the database can: onestatement.py
        if self.db.dialect.writes_in_one_statement and previous is not None and not entries and not over:
            hashed = chain.link(previous, content)
            statement = onestatement.move(self.db, self.ownership, game_id, expected_version, sets, content,
                                          hashed, deadlines, announce_at)

        async def also(tx: Transaction) -> None:
            nonlocal hashed  # the new link's hash, for what is kept of the game once the transaction is done
            hashed = await chain.append(tx, content, previous)
            await log_entries(tx, game_id, move, entries, now)
            await plan(tx, game_id, DeadlinePlan() if over else deadlines, expected_version + 1, announce_at)
            if over:
                await record_results(tx, self.db.dialect, game_id, state, now)

        record = await self._write(game_id, expected_version, "active", sets, state, also,
                                   table=table or keep_table, messages=keep_messages, statement=statement)
        if over:
            self.recent.drop(game_id)
        else:
            self.recent.moved(game_id, record.version, move, player, actor, said, entries, now, hashed)
        return record

    async def update_table(self, game_id: int, expected_version: int, table: Table, *,
                           log: Sequence[LogEntry] = (), deadlines: DeadlinePlan | None = None,
                           announce_at: float | None = None) -> GameRecord:
        """A change of seats during play (leaving, a stand-in, coming back), with its table events."""
        record = await self.load_game(game_id)
        now = time.time()
        moves = record.state.moves if record.state is not None else 0
        entries = entry_bodies(log)

        async def also(tx: Transaction) -> None:
            await log_entries(tx, game_id, moves, entries, now)
            await plan(tx, game_id, deadlines, expected_version + 1, announce_at)

        sets = {"setup": table.model_dump_json(), "updated_at": now}
        changed = await self._write(game_id, expected_version, "active", sets, record.state, also, table=table,
                                    messages=record.messages)
        self.recent.table_changed(game_id, changed.version, moves, entries, now)
        return changed

    async def finish_game(self, game_id: int, expected_version: int, status: str = "finished", *,
                          table: Table | None = None, log: Sequence[LogEntry] = (),
                          announce_at: float | None = None) -> GameRecord:
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

        self.recent.drop(game_id)

        async def also(tx: Transaction) -> None:
            await log_entries(tx, game_id, record.state.moves if record.state else 0, entry_bodies(log), now)
            await plan(tx, game_id, DeadlinePlan(), expected_version + 1, announce_at)
            if ended and record.state is not None:
                await record_results(tx, self.db.dialect, game_id, record.state, now)
            elif status != "finished":  # those who left it count it as left (reliability)
                await record_departures(tx, game_id, table, status, now)

        sets = {"status": status, "finished_at": now, "updated_at": now, "setup": table.model_dump_json()}
        return await self._write(game_id, expected_version, record.status, sets, record.state, also,
                                 table=table, messages=record.messages)

    async def _write(self, game_id: int, expected_version: int, status: str, sets: dict[str, Any],
                     state: GameState | None, also: Callable[[Transaction], Awaitable[None]] | None = None, *,
                     table: Table | None = None, messages: TableMessages | None = None,
                     statement: tuple[str, list[Any]] | None = None) -> GameRecord:
        """UPDATE `sets` on the game if it is still at `expected_version` and `status`; then `also(tx)`. Or
        all that as one `statement` (onestatement.py), if given.

        The record returned is read back, except the table and messages the caller already has.
        """

        async def work(tx: Transaction) -> Row:
            assignments = ", ".join(f"{column} = ?" for column in sets)
            fence, fenced = self.ownership.returning(self.db.dialect)  # the lease read by this one statement
            row = await tx.fetchone(
                f"UPDATE games SET version = version + 1, {assignments} WHERE id = ? AND version = ? AND status = ?"
                f" RETURNING {META}{fence}", (*sets.values(), game_id, expected_version, status, *fenced),
            )
            if row is None:
                await explain_miss(tx, game_id, expected_version, status)
            if fence:
                self.ownership.passed(row["guild_id"], row["fence_holder"])
            if also is not None:
                await also(tx)
            return row

        for tries_left in reversed(range(SENDS)):
            try:
                if statement is None:
                    row = await self.db.transaction(work)
                elif (got := await self.db.statement(*statement)) is not None:
                    row = got
                else:
                    await onestatement.why_not(self.db, self.ownership, game_id, expected_version)
                break
            except CommitUncertain:
                # Did it land? Each write stamps the game with its own `updated_at`.
                got = await self.db.fetchone(f"SELECT {META} FROM games WHERE id = ?", (game_id,))
                landed = (expected_version + 1, sets["updated_at"])
                if got is not None and (got["version"], got["updated_at"]) == landed:
                    row = got
                    break
                # Not landed. One statement is sent again (a connection that died unnoticed, the server restarted):
                # its version guard writes it once at most. A transaction was retried up to its COMMIT already.
                if statement is None or not tries_left or got is None or got["version"] != expected_version:
                    raise StorageUnavailable(f"game {game_id}: the write was not stored") from None
        return record_from(row, table or Table.model_validate_json(row["setup"]), state, messages)

    async def set_messages(self, game_id: int, messages: TableMessages, settled: int | None = None) -> None:
        """Store the bot's bookkeeping of a game's messages (writes.bookkeeping): no version bump, no conflict."""
        if not self.db.dialect.writes_in_one_statement:
            await self.db.transaction(lambda tx: bookkeeping(tx, self.db.dialect, self.ownership, game_id, messages,
                                                             settled))
        elif await self.db.statement(*onestatement.bookkeeping(self.db, self.ownership, game_id,
                                                                messages.model_dump_json(), settled)) is None:
            await onestatement.why_not(self.db, self.ownership, game_id, None)

    # --- loading (verification and repair: repair.py)

    async def load_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's open game, verified; None if there is none."""
        row = await self.db.fetchone(f"{SELECT_GAME} WHERE channel_id = ? AND status IN {OPEN}", (channel_id,))
        return await repair.verified(self.db, row, self.editions) if row else None

    async def load_game(self, game_id: int) -> GameRecord:
        row = await self.db.fetchone(f"{SELECT_GAME} WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return await repair.verified(self.db, row, self.editions)

    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The channel's most recent game, open or ended (not a quarantined one)."""
        row = await self.db.fetchone(
            f"{SELECT_GAME} WHERE channel_id = ? AND status != 'quarantined' ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return await repair.verified(self.db, row, self.editions) if row else None

    async def active_games(self) -> tuple[list[GameRecord], list[GameQuarantined | GameNotPlayable]]:
        """Every open game of this process's shards (what the bot restores at start-up), verified, and those
        that had to be quarantined or cannot be played here (GameQuarantined, GameNotPlayable: their edition
        is missing)."""
        owned, params = self.ownership.only_owned("guild_id")
        rows = await self.db.fetchall(f"{SELECT_GAME} WHERE status IN {OPEN}{owned} ORDER BY id", params)
        return await repair.verify_all(self.db, rows, self.editions)

    async def seated_games(self, player: str) -> list[GameRecord]:
        return await seated_games(self.db, self.editions, player)

    async def open_channels(self) -> list[tuple[int, int, int]]:
        """(game id, guild id, channel id) of every open game of this process's shards: cheap, nothing is
        parsed."""
        owned, params = self.ownership.only_owned("guild_id")
        rows = await self.db.fetchall(f"SELECT id, guild_id, channel_id FROM games WHERE status IN {OPEN}{owned}",
                                      params)
        return [(r["id"], r["guild_id"], r["channel_id"]) for r in rows]

    async def count_open(self) -> int:
        """How many games of this process's shards are open (a gauge): counted, none read."""
        owned, params = self.ownership.only_owned("guild_id")
        return int((await one(self.db, f"SELECT COUNT(*) AS n FROM games WHERE status IN {OPEN}{owned}", params))["n"])

