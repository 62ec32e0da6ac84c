"""Loading a game safely: every snapshot is verified; a damaged one is rebuilt from its log, else quarantined.

Checks: the sha256 checksum, pydantic validation, the engine's integrity rules.
The log is checked by its hash chain (chain.py) and against the snapshot's move
count (rows lost from its end break no chain), and only a whole log is
replayed: a damaged row could replay into a different, still legal game. A log
damaged under a sound snapshot costs the game its way back (a 'log_damaged'
note, and quarantine should the snapshot be damaged later), not its play.

A game is only ever loaded or replayed with its own edition (the id and values its table records) and
under a rules version this code plays: otherwise it is refused (GameNotPlayable), never quarantined or
replayed with other values, and loads again once its edition file is back.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from pydantic import ValidationError

from engine import GameState, ReplayError, parse_action, replay
from engine.actions import BadAction
from engine.edition import Edition
from engine.editions import EditionUnavailable, Library
from engine.game import GameSetupError
from engine.integrity import problems
from engine.state import RULES_PLAYED

from . import chain
from .errors import GameNotPlayable, GameQuarantined
from .records import GameRecord, Table
from .rows import record_from, sha
from .sql import Database, Row, Transaction

log = logging.getLogger(__name__)


async def verified(db: Database, row: Row, editions: Library) -> GameRecord:
    """The game of a `SELECT_GAME` row, checked; repaired from its log, or quarantined (GameQuarantined), or
    refused if its edition is not among `editions` (GameNotPlayable)."""
    game_id, channel_id = row["id"], row["channel_id"]
    if row["status"] == "quarantined":
        raise GameQuarantined(game_id, channel_id, "already quarantined")
    try:
        table = Table.model_validate_json(row["setup"])
    except (TypeError, ValueError):
        return await _quarantine(db, game_id, channel_id, "the table row is not a valid table")
    state = None
    if row["snapshot"] is not None:  # a lobby has no log
        edition = playable(editions, table, game_id, channel_id)
        # The log as it was when the row was read (its length came with it): moves a writer appended since are
        # not this snapshot's, and must not look like a log longer than its game.
        actions = (await db.fetchall(chain.SELECT_LOG, (game_id,)))[:row["logged"]]
        state, why, damage = examine(row, actions, edition, table.game_rules)
        if state is None and damage:
            return await _quarantine(db, game_id, channel_id, f"{why}; {damage}, so it cannot be replayed")
        if state is None:
            state = await _repair(db, game_id, channel_id, table, edition, why, actions)
        elif damage:
            await _log_damaged(db, game_id, channel_id, damage)
    return record_from(row, table, state)


async def verify_all(db: Database, rows: Iterable[Row],
                     editions: Library) -> tuple[list[GameRecord], list[GameQuarantined | GameNotPlayable]]:
    games: list[GameRecord] = []
    lost: list[GameQuarantined | GameNotPlayable] = []
    for row in rows:
        try:
            games.append(await verified(db, row, editions))
        except (GameQuarantined, GameNotPlayable) as exc:
            lost.append(exc)
    return games, lost


def examine(row: Row, actions: Sequence[Row], edition: Edition, rules: int) -> tuple[GameState | None, str, str]:
    """(the snapshot's state if it is sound, what is wrong with it, what is wrong with the log), changing
    nothing: `actions` are the game's SELECT_LOG rows."""
    broken = chain.first_break(actions)
    state, why = checked_snapshot(row["snapshot"], row["snapshot_sha256"], edition, rules)
    damage = f"the action log is damaged at move {broken}" if broken is not None else ""
    if state is not None and len(actions) != state.moves and not damage:
        # Written in one transaction with its log, a snapshot that passes its checksum is the
        # truth: rows lost from the end of the log must not rebuild the game moves short.
        damage = f"the action log holds {len(actions)} actions but the game is at move {state.moves}"
    return state, why, damage


async def _repair(db: Database, game_id: int, channel_id: int, table: Table, edition: Edition, why: str,
                  rows: Sequence[Row]) -> GameState:
    """Rebuild the snapshot from the seed and the (whole) log, with the game's edition and rules version;
    quarantine the game if that fails too."""
    log.warning("game %s (channel %s): %s; replaying its log", game_id, channel_id, why)
    try:
        actions = [(r["player"], parse_action(json.loads(r["action"]))) for r in rows]
        state = replay_table(table, actions, edition)
    except (KeyError, TypeError, ValueError, BadAction, ReplayError, GameSetupError) as exc:
        return await _quarantine(db, game_id, channel_id, f"{why}; replay failed: {exc}")
    snapshot = state.model_dump_json()

    async def work(tx: Transaction) -> None:
        await tx.execute("UPDATE games SET snapshot = ?, snapshot_sha256 = ? WHERE id = ?",
                         (snapshot, sha(snapshot), game_id))
        await _note(tx, game_id, "repaired", f"{why}; rebuilt from {len(actions)} logged actions")

    await db.transaction(work)
    return state


async def _log_damaged(db: Database, game_id: int, channel_id: int, damage: str) -> None:
    """The snapshot is sound, so play goes on; the operator is told, once per kind of damage."""
    log.error("game %s (channel %s): %s; it goes on from its sound snapshot but can no longer be rebuilt",
              game_id, channel_id, damage)
    last = await db.fetchone("SELECT kind, detail FROM game_notes WHERE game_id = ? ORDER BY id DESC LIMIT 1",
                             (game_id,))
    if last is not None and (last["kind"], last["detail"]) == ("log_damaged", damage):
        return

    async def work(tx: Transaction) -> None:
        await _note(tx, game_id, "log_damaged", damage)

    await db.transaction(work)


async def _quarantine(db: Database, game_id: int, channel_id: int, reason: str) -> NoReturn:
    log.error("game %s (channel %s) quarantined: %s", game_id, channel_id, reason)

    async def work(tx: Transaction) -> None:
        await tx.execute("UPDATE games SET status = 'quarantined', updated_at = ? WHERE id = ?", (time.time(), game_id))
        await _note(tx, game_id, "quarantined", reason)

    await db.transaction(work)
    raise GameQuarantined(game_id, channel_id, reason)


async def _note(tx: Transaction, game_id: int, kind: str, detail: str) -> None:
    await tx.execute("INSERT INTO game_notes (game_id, at, kind, detail) VALUES (?, ?, ?, ?)",
                     (game_id, time.time(), kind, detail))


def playable(editions: Library, table: Table, game_id: int, channel_id: int) -> Edition:
    """The edition a started game is played with, if this program has it and plays its rules version;
    else GameNotPlayable saying why (nothing is changed: the game waits for its edition)."""
    if table.game_rules not in RULES_PLAYED:
        raise GameNotPlayable(game_id, channel_id, f"it follows rules version {table.game_rules}, and this program "
                              f"plays {sorted(RULES_PLAYED)}")
    try:
        return editions.resolve(table.game_edition)
    except EditionUnavailable as exc:
        raise GameNotPlayable(game_id, channel_id, str(exc), table.game_edition.id) from None


def replay_table(table: Table, actions: Iterable[tuple[str, Any]], edition: Edition) -> GameState:
    """The game a started table's log of (player, action) replays to, with its edition and rules version
    (`edition`: the table's, as `playable` found it). ReplayError / GameSetupError if the log does not replay."""
    if table.seed is None:
        raise GameSetupError("the table has no seed: its game never started")
    return replay(table.players, table.seed, table.start_player, actions, edition, table.game_rules)


def checked_snapshot(snapshot: str, checksum: str | None, edition: Edition,
                     rules: int) -> tuple[GameState | None, str]:
    """The stored state if it is intact and of the game's edition and rules, else None and what is wrong with it
    (for the operator's notes)."""
    if checksum != sha(snapshot):
        return None, "the snapshot does not match its checksum"
    try:
        state = GameState.model_validate_json(snapshot)
    except (ValidationError, EditionUnavailable) as exc:
        count = exc.error_count() if isinstance(exc, ValidationError) else 1
        return None, f"the snapshot does not validate ({count} errors)"
    if state.edition is not edition or state.rules != rules:
        return None, "the snapshot's edition or rules version is not its game's"
    found = problems(state)
    if found:
        return None, "the snapshot breaks the rules: " + "; ".join(found)
    return state, ""
