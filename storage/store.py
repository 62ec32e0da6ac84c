"""The checkpoint: every game per channel in one SQLite file, through aiosqlite.

Each action is committed together with the snapshot it produced, in one
transaction guarded by the game's version, before the bot answers the click.
WAL mode with synchronous=FULL: a committed action survives a process crash
(kill -9) and a power cut. (NORMAL would survive the crash but could lose the
last commits on a power cut.)
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
from pydantic import ValidationError

from engine import GameState, ReplayError, parse_action, replay
from engine.actions import BadAction
from engine.game import GameSetupError
from engine.integrity import problems

from .errors import ChannelBusy, GameNotFound, GameQuarantined, VersionConflict, WrongStatus
from .migrate import migrate

log = logging.getLogger(__name__)

OPEN_STATUSES = ("lobby", "active")
BUSY_TIMEOUT_MS = 5000


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    status: str
    version: int
    setup: dict[str, Any]
    state: GameState | None
    created_at: float
    updated_at: float
    finished_at: float | None = None
    ui: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Deadline:
    game_id: int
    player: str
    kind: str
    due_at: float
    payload: dict[str, Any]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class Store:
    """One connection to one database file. Safe to share between coroutines."""

    def __init__(self, db: aiosqlite.Connection, path: str):
        self._db = db
        self.path = path
        self._write = asyncio.Lock()  # one transaction at a time on this connection

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL", migrate_to: int | None = None) -> Store:
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute(f"PRAGMA synchronous = {synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            try:
                await migrate(db, migrate_to)
            except Exception:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
        except BaseException:
            await db.close()
            raise
        return cls(db, str(path))

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    # --- transactions

    async def _transaction(self, work):
        """Run `work(db)` inside BEGIN IMMEDIATE ... COMMIT; roll back on any error."""
        async with self._write:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                result = await work(self._db)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
            return result

    async def _fetchone(self, sql: str, params: Iterable = ()):
        async with self._db.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()

    async def _fetchall(self, sql: str, params: Iterable = ()):
        async with self._db.execute(sql, tuple(params)) as cur:
            return await cur.fetchall()

    # --- creating games

    async def open_lobby(self, guild_id: int, channel_id: int, setup: dict) -> GameRecord:
        """A table waiting for players. Raises ChannelBusy if the channel has an open game."""
        return await self._insert(guild_id, channel_id, "lobby", setup, None)

    async def create_game(self, guild_id: int, channel_id: int, setup: dict, state: GameState) -> GameRecord:
        """A game that starts at once. `setup` holds players, seed and start_player for replay."""
        return await self._insert(guild_id, channel_id, "active", setup, state)

    async def _insert(self, guild_id, channel_id, status, setup, state) -> GameRecord:
        now = time.time()
        snapshot = state.model_dump_json() if state is not None else None

        async def work(db):
            row = await self._fetchone(
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
            )
            if row:
                raise ChannelBusy(channel_id, row[0])
            cur = await db.execute(
                "INSERT INTO games (guild_id, channel_id, status, version, setup, snapshot, snapshot_sha256,"
                " created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, status, json.dumps(setup), snapshot, snapshot and _sha(snapshot), now, now),
            )
            return cur.lastrowid

        game_id = await self._transaction(work)
        return GameRecord(game_id, guild_id, channel_id, status, 0, setup, state, now, now, None, {})

    async def update_lobby(self, game_id: int, expected_version: int, setup: dict) -> GameRecord:
        return await self._update(game_id, expected_version, "lobby", "lobby", setup=setup)

    async def start_game(self, game_id: int, expected_version: int, setup: dict, state: GameState) -> GameRecord:
        """Lobby to active: `setup` now holds what replay needs (players, seed, start_player)."""
        return await self._update(game_id, expected_version, "lobby", "active", setup=setup, state=state)

    async def _update(
        self,
        game_id,
        expected_version,
        from_status,
        to_status,
        *,
        setup=None,
        state=None,
        action=None,
        finished=False,
        results: GameState | None = None,
        ui: dict | None = None,
    ) -> GameRecord:
        now = time.time()
        snapshot = state.model_dump_json() if state is not None else None

        async def work(db):
            sets = ["version = version + 1", "updated_at = ?", "status = ?"]
            params: list = [now, to_status]
            if setup is not None:
                sets.append("setup = ?")
                params.append(json.dumps(setup))
            if snapshot is not None:
                sets += ["snapshot = ?", "snapshot_sha256 = ?"]
                params += [snapshot, _sha(snapshot)]
            if finished:
                sets.append("finished_at = ?")
                params.append(now)
            if ui is not None:
                sets.append("ui = ?")
                params.append(json.dumps(ui))
            cur = await db.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? AND status = ?",
                (*params, game_id, expected_version, from_status),
            )
            if cur.rowcount != 1:
                await self._explain_miss(game_id, expected_version, from_status)
            if action is not None:
                player, body = action
                await db.execute(
                    "INSERT INTO actions (game_id, move, version, player, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, state.moves, expected_version + 1, player, json.dumps(body), now),
                )
            if results is not None and results.phase == "game_over":
                await self._record_results(db, game_id, results, now)
            return await self._fetchone(f"{_SELECT_META} WHERE id = ?", (game_id,))

        meta = await self._transaction(work)
        return _record(meta, state if state is not None else results)

    async def _explain_miss(self, game_id: int, expected_version: int, wanted: str):
        row = await self._fetchone("SELECT version, status FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        if row[1] != wanted:
            raise WrongStatus(game_id, row[1], wanted)
        raise VersionConflict(game_id, expected_version)

    # --- playing

    async def commit_action(
        self,
        game_id: int,
        expected_version: int,
        player: str,
        action: dict,
        state: GameState,
        ui: dict | None = None,
    ) -> GameRecord:
        """Append `action` to the log and store the `state` it produced (and the bot's `ui`), atomically.

        Raises VersionConflict (nothing written) if the game moved past `expected_version`.
        """
        return await self._update(
            game_id, expected_version, "active", "active", state=state, action=(player, action), ui=ui
        )

    async def finish_game(self, game_id: int, expected_version: int, status: str = "finished") -> GameRecord:
        """Close an open game ('finished' or 'cancelled'); it stays, with its log, as history.

        A finished game over records each player's result for statistics.
        """
        if status not in ("finished", "cancelled"):
            raise ValueError(status)
        record = await self.load_game(game_id)
        if record.status not in OPEN_STATUSES:
            raise WrongStatus(game_id, record.status, "open")
        results = record.state if status == "finished" else None
        return await self._update(game_id, expected_version, record.status, status, finished=True, results=results)

    async def _record_results(self, db, game_id: int, state: GameState, now: float) -> None:
        row = await self._fetchone("SELECT guild_id FROM games WHERE id = ?", (game_id,))
        for seat, p in enumerate(state.players):
            winner = p.id in state.winners
            # Winners share first place; everyone else is placed after all who scored more, and the winners.
            place = 1 if winner else 1 + sum(1 for q in state.players if q.score > p.score or q.id in state.winners)
            await db.execute(
                "INSERT INTO player_results (game_id, player, guild_id, seat, players, score, place, winner,"
                " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, p.id, row[0], seat, len(state.players), p.score, place, int(winner), now),
            )

    # --- loading

    async def load_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's open game, verified; None if there is none."""
        row = await self._fetchone(f"{_SELECT} WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))
        return await self._verified(row) if row else None

    async def load_game(self, game_id: int) -> GameRecord:
        row = await self._fetchone(f"{_SELECT} WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return await self._verified(row)

    async def active_games(self) -> tuple[list[GameRecord], list[GameQuarantined]]:
        """Every open game (what the bot restores at start-up), and those that had to be quarantined."""
        rows = await self._fetchall(f"{_SELECT} WHERE status IN ('lobby', 'active') ORDER BY id")
        games, lost = [], []
        for row in rows:
            try:
                games.append(await self._verified(row))
            except GameQuarantined as exc:
                lost.append(exc)
        return games, lost

    async def _verified(self, row) -> GameRecord:
        (
            game_id,
            guild_id,
            channel_id,
            status,
            version,
            setup_text,
            snapshot,
            sha,
            created,
            updated,
            finished,
            logged,
            ui,
        ) = row
        if status == "quarantined":
            raise GameQuarantined(game_id, channel_id, "already quarantined")
        try:
            setup = json.loads(setup_text)
        except (TypeError, ValueError):
            return await self._quarantine(game_id, channel_id, "the setup row is not valid JSON")
        state = None
        if snapshot is not None:
            state, why = _checked_snapshot(snapshot, sha, logged)
            if state is None:
                state = await self._repair(game_id, channel_id, setup, why)
        return GameRecord(
            game_id, guild_id, channel_id, status, version, setup, state, created, updated, finished, _json_or_text(ui)
        )

    async def _repair(self, game_id: int, channel_id: int, setup: dict, why: str) -> GameState:
        """Rebuild the snapshot from the seed and the log; quarantine the game if that fails too."""
        log.warning("game %s (channel %s): %s; replaying its log", game_id, channel_id, why)
        try:
            actions = await self.action_log(game_id)
            state = replay(setup["players"], setup["seed"], setup.get("start_player"), actions)
        except (KeyError, TypeError, ValueError, BadAction, ReplayError, GameSetupError) as exc:
            return await self._quarantine(game_id, channel_id, f"{why}; replay failed: {exc}")
        snapshot = state.model_dump_json()

        async def work(db):
            await db.execute(
                "UPDATE games SET snapshot = ?, snapshot_sha256 = ? WHERE id = ?", (snapshot, _sha(snapshot), game_id)
            )
            await self._note(db, game_id, "repaired", f"{why}; rebuilt from {len(actions)} logged actions")

        await self._transaction(work)
        return state

    async def _quarantine(self, game_id: int, channel_id: int, reason: str):
        log.error("game %s (channel %s) quarantined: %s", game_id, channel_id, reason)

        async def work(db):
            await db.execute(
                "UPDATE games SET status = 'quarantined', updated_at = ? WHERE id = ?", (time.time(), game_id)
            )
            await self._note(db, game_id, "quarantined", reason)

        await self._transaction(work)
        raise GameQuarantined(game_id, channel_id, reason)

    async def _note(self, db, game_id: int, kind: str, detail: str) -> None:
        await db.execute(
            "INSERT INTO game_notes (game_id, at, kind, detail) VALUES (?, ?, ?, ?)",
            (game_id, time.time(), kind, detail),
        )

    async def action_log(self, game_id: int) -> list[tuple[str, Any]]:
        """The game's actions in order, parsed for the engine (BadAction / ValueError if a row is damaged)."""
        rows = await self._fetchall(
            "SELECT move, player, action FROM actions WHERE game_id = ? ORDER BY move", (game_id,)
        )
        out = []
        for expected, (move, player, text) in enumerate(rows, start=1):
            if move != expected:
                raise ValueError(f"the log skips from move {expected - 1} to {move}")
            out.append((player, parse_action(json.loads(text))))
        return out

    async def notes(self, game_id: int) -> list[tuple[str, str]]:
        return [
            (k, d)
            for k, d in await self._fetchall(
                "SELECT kind, detail FROM game_notes WHERE game_id = ? ORDER BY id", (game_id,)
            )
        ]

    async def export_game(self, game_id: int) -> dict:
        """A game's whole history as JSON-ready data, for bug reports and replays."""
        row = await self._fetchone(f"{_SELECT} WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        (_, guild_id, channel_id, status, version, setup, snapshot, _sha256, created, updated, finished, _, _) = row
        actions = await self._fetchall(
            "SELECT move, version, player, action, at FROM actions WHERE game_id = ? ORDER BY move", (game_id,)
        )
        return {
            "game_id": game_id,
            "guild_id": guild_id,
            "channel_id": channel_id,
            "status": status,
            "version": version,
            "setup": json.loads(setup),
            "created_at": created,
            "updated_at": updated,
            "finished_at": finished,
            "actions": [
                {"move": m, "version": v, "player": p, "action": _json_or_text(a), "at": at}
                for m, v, p, a, at in actions
            ],
            "snapshot": _json_or_text(snapshot) if snapshot is not None else None,
            "notes": [{"kind": k, "detail": d} for k, d in await self.notes(game_id)],
        }

    async def set_ui(self, game_id: int, ui: dict) -> None:
        """Store the bot's bookkeeping for a game (message ids); no version bump, never a conflict."""

        async def work(db):
            cur = await db.execute("UPDATE games SET ui = ? WHERE id = ?", (json.dumps(ui), game_id))
            if cur.rowcount != 1:
                raise GameNotFound(game_id)

        await self._transaction(work)

    # --- deadlines (re-armed by the bot at start-up)

    async def set_deadline(self, game_id: int, player: str, kind: str, due_at: float, payload: dict | None = None):
        async def work(db):
            await db.execute(
                "INSERT INTO deadlines (game_id, player, kind, due_at, payload) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, player, kind) DO UPDATE SET due_at = excluded.due_at,"
                " payload = excluded.payload",
                (game_id, player, kind, due_at, json.dumps(payload or {})),
            )

        await self._transaction(work)

    async def clear_deadlines(self, game_id: int, player: str | None = None, kind: str | None = None) -> int:
        sql, params = "DELETE FROM deadlines WHERE game_id = ?", [game_id]
        if player is not None:
            sql, params = sql + " AND player = ?", params + [player]
        if kind is not None:
            sql, params = sql + " AND kind = ?", params + [kind]

        async def work(db):
            return (await db.execute(sql, params)).rowcount

        return await self._transaction(work)

    async def deadlines(self, due_before: float | None = None) -> list[Deadline]:
        sql = "SELECT game_id, player, kind, due_at, payload FROM deadlines"
        params: tuple = ()
        if due_before is not None:
            sql, params = sql + " WHERE due_at <= ?", (due_before,)
        rows = await self._fetchall(sql + " ORDER BY due_at", params)
        return [Deadline(g, p, k, d, json.loads(x)) for g, p, k, d, x in rows]

    # --- guild settings

    async def guild_settings(self, guild_id: int) -> dict:
        row = await self._fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row[0]) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict) -> None:
        async def work(db):
            await db.execute(
                "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at",
                (guild_id, json.dumps(settings), time.time()),
            )

        await self._transaction(work)

    # --- statistics

    async def player_stats(self, player: str, guild_id: int | None = None) -> dict:
        sql = "SELECT COUNT(*), COALESCE(SUM(winner), 0), COALESCE(MAX(score), 0) FROM player_results WHERE player = ?"
        params: list = [player]
        if guild_id is not None:
            sql, params = sql + " AND guild_id = ?", params + [guild_id]
        games, wins, best = await self._fetchone(sql, params)
        return {"games": games, "wins": wins, "best_score": best}

    async def compact(self) -> None:
        """Fold the WAL into the main file and reclaim free pages (maintenance; takes the write lock)."""
        async with self._write:
            await (await self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")).close()
            await (await self._db.execute("VACUUM")).close()

    async def integrity_check(self) -> str:
        return (await self._fetchone("PRAGMA integrity_check"))[0]


# The log length comes along (through the primary-key index) so verifying a snapshot costs no extra query.
_SELECT = (
    "SELECT id, guild_id, channel_id, status, version, setup, snapshot, snapshot_sha256, created_at,"
    " updated_at, finished_at, (SELECT COUNT(*) FROM actions WHERE actions.game_id = games.id), ui FROM games"
)


_SELECT_META = (
    "SELECT id, guild_id, channel_id, status, version, setup, created_at, updated_at, finished_at, ui FROM games"
)


def _record(meta, state: GameState | None) -> GameRecord:
    game_id, guild_id, channel_id, status, version, setup, created, updated, finished, ui = meta
    return GameRecord(
        game_id,
        guild_id,
        channel_id,
        status,
        version,
        json.loads(setup),
        state,
        created,
        updated,
        finished,
        _json_or_text(ui),
    )


def _checked_snapshot(snapshot: str, sha: str | None, logged: int) -> tuple[GameState | None, str]:
    """The stored state if it is intact, else None and what is wrong with it."""
    if sha != _sha(snapshot):
        return None, "the snapshot does not match its checksum"
    try:
        state = GameState.model_validate_json(snapshot)
    except ValidationError as exc:
        return None, f"the snapshot does not validate ({exc.error_count()} errors)"
    found = problems(state)
    if found:
        return None, "the snapshot breaks the rules: " + "; ".join(found)
    if logged != state.moves:
        return None, f"the snapshot is at move {state.moves} but the log holds {logged} actions"
    return state, ""


def _json_or_text(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return text
