"""Loading a game safely: every snapshot is verified; a damaged one is rebuilt from its log, else quarantined.

Checks: the sha256 checksum, pydantic validation, the engine's integrity rules.
The log is checked by its hash chain (chain.py) and against the snapshot's move
count (rows lost from its end break no chain), and only a whole log is
replayed: a damaged row could replay into a different, still legal game. A log
damaged under a sound snapshot costs the game its way back (a 'log_damaged'
note, and quarantine should the snapshot be damaged later), not its play.
"""

from __future__ import annotations

import json
import logging
import time

from pydantic import ValidationError

from engine import GameState, ReplayError, parse_action, replay
from engine.actions import BadAction
from engine.game import GameSetupError
from engine.integrity import problems

from . import chain
from .errors import GameQuarantined
from .games import record_from, sha
from .records import GameRecord, Table

log = logging.getLogger(__name__)


class RepairMixin:
    async def _verified(self, row) -> GameRecord:
        game_id, channel_id = row["id"], row["channel_id"]
        if row["status"] == "quarantined":
            raise GameQuarantined(game_id, channel_id, "already quarantined")
        try:
            table = Table.model_validate_json(row["setup"])
        except (TypeError, ValueError):
            return await self._quarantine(game_id, channel_id, "the table row is not a valid table")
        state = None
        if row["snapshot"] is not None:  # a lobby has no log
            actions = await self._fetchall(chain.SELECT_LOG, (game_id,))
            broken = chain.first_break(actions)
            state, why = checked_snapshot(row["snapshot"], row["snapshot_sha256"])
            damage = f"the action log is damaged at move {broken}" if broken is not None else ""
            if state is not None and len(actions) != state.moves and not damage:
                # Written in one transaction with its log, a snapshot that passes its checksum is the
                # truth: rows lost from the end of the log must not rebuild the game moves short.
                damage = f"the action log holds {len(actions)} actions but the game is at move {state.moves}"
            if state is None and damage:
                return await self._quarantine(game_id, channel_id, f"{why}; {damage}, so it cannot be replayed")
            if state is None:
                state = await self._repair(game_id, channel_id, table, why, actions)
            elif damage:
                await self._log_damaged(game_id, channel_id, damage)
        return record_from(row, table, state)

    async def _repair(self, game_id: int, channel_id: int, table: Table, why: str, rows) -> GameState:
        """Rebuild the snapshot from the seed and the (whole) log; quarantine the game if that fails too."""
        log.warning("game %s (channel %s): %s; replaying its log", game_id, channel_id, why)
        try:
            actions = [(r["player"], parse_action(json.loads(r["action"]))) for r in rows]
            state = replay(table.players, table.seed, table.start_player, actions)
        except (KeyError, TypeError, ValueError, BadAction, ReplayError, GameSetupError) as exc:
            return await self._quarantine(game_id, channel_id, f"{why}; replay failed: {exc}")
        snapshot = state.model_dump_json()

        async def work(db):
            await db.execute(
                "UPDATE games SET snapshot = ?, snapshot_sha256 = ? WHERE id = ?", (snapshot, sha(snapshot), game_id)
            )
            await self._note(db, game_id, "repaired", f"{why}; rebuilt from {len(actions)} logged actions")

        await self._transaction(work)
        return state

    async def _log_damaged(self, game_id: int, channel_id: int, damage: str) -> None:
        """The snapshot is sound, so play goes on; the operator is told, once per kind of damage."""
        log.error("game %s (channel %s): %s; it goes on from its sound snapshot but can no longer be rebuilt",
                  game_id, channel_id, damage)
        last = await self._fetchone(
            "SELECT kind, detail FROM game_notes WHERE game_id = ? ORDER BY id DESC LIMIT 1", (game_id,)
        )
        if last is not None and (last["kind"], last["detail"]) == ("log_damaged", damage):
            return

        async def work(db):
            await self._note(db, game_id, "log_damaged", damage)

        await self._transaction(work)

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


def checked_snapshot(snapshot: str, checksum: str | None) -> tuple[GameState | None, str]:
    """The stored state if it is intact, else None and what is wrong with it (for the operator's notes)."""
    if checksum != sha(snapshot):
        return None, "the snapshot does not match its checksum"
    try:
        state = GameState.model_validate_json(snapshot)
    except ValidationError as exc:
        return None, f"the snapshot does not validate ({exc.error_count()} errors)"
    found = problems(state)
    if found:
        return None, "the snapshot breaks the rules: " + "; ".join(found)
    return state, ""
