"""What a game leaves behind (GameLog): its moves with what they caused, operator notes, a JSON export."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine import EVENTS, parse_action

from .errors import GameNotFound
from .recent import RecentMoves
from .recent import Row as Kept
from .records import ENTRY, LoggedMove
from .rows import read_messages
from .sql import Database, Row

# The move at which a person (first ?: the game, second: the person) last decided for themselves (0: not yet).
LAST_DECISION = ("(SELECT COALESCE(MAX(move), 0) FROM actions WHERE game_id = ? AND player = ?"
                 " AND actor = 'player')")


def _since(after: str) -> str:
    """A game's moves after the move `after` (SQL; its parameters follow each game's ?) with their events, and
    the table events from that move on: one query, the actions (part 0, by move), then the table events
    (part 1, by seq)."""
    return ("SELECT 0 AS part, move, player, actor, events AS body, at, 0 AS seq FROM actions"
            f" WHERE game_id = ? AND move > {after}"
            " UNION ALL SELECT 1, move, NULL, NULL, entry, at, seq FROM table_log"
            f" WHERE game_id = ? AND move >= {after}"
            " ORDER BY part, seq, move")


def _read(rows: Sequence[Row]) -> list[LoggedMove]:
    return _logged([(r["part"], r["move"], r["player"], r["actor"], r["body"], r["at"]) for r in rows])


def _logged(rows: Sequence[Kept]) -> list[LoggedMove]:
    """LoggedMoves of `_since`'s rows (or those kept of them: recent.py)."""
    moves: dict[int, LoggedMove] = {}
    for part, move, player, actor, body, at in rows:
        if part == 0:
            moves[move] = LoggedMove(move, player, actor, [*EVENTS.validate_json(body)], at)  # type: ignore[arg-type]
            continue
        logged = moves.get(move)
        if logged is None:  # what followed move `after` itself (or, at 0, the deal)
            logged = moves[move] = LoggedMove(move, None, "player", [], at)
        logged.entries.append(ENTRY.validate_json(body))
    return [moves[m] for m in sorted(moves)]


class GameLog:
    def __init__(self, db: Database, recent: RecentMoves | None = None):
        self.db = db
        self.recent = recent or RecentMoves()  # each game's newest moves as this process wrote them

    async def action_log(self, game_id: int) -> list[tuple[str, Any]]:
        """The game's actions in order, parsed for the engine (BadAction / ValueError if a row is damaged)."""
        return [(player, action) for player, action, _ in await self.played(game_id)]

    async def played(self, game_id: int) -> list[tuple[str, Any, str]]:
        """The game's moves in order as (player, action, actor): what taking a decision back weighs (who decided
        each move: the player, the clock...). BadAction / ValueError if a row is damaged."""
        rows = await self.db.fetchall(
            "SELECT move, player, actor, action FROM actions WHERE game_id = ? ORDER BY move", (game_id,)
        )
        out = []
        for expected, row in enumerate(rows, start=1):
            if row["move"] != expected:
                raise ValueError(f"the log skips from move {expected - 1} to {row['move']}")
            out.append((row["player"], parse_action(json.loads(row["action"])), row["actor"]))
        return out

    async def moves_since(self, game_id: int, after: int, version: int | None = None) -> list[LoggedMove]:
        """The moves after move `after` with their events, and the table events from `after` on, in order.
        `version`: the game's the caller holds, whose newest moves may be kept in memory (recent.py)."""
        kept = None if version is None else self.recent.since(game_id, version, after)
        if kept is not None:
            return _logged(kept)
        return _read(await self.db.fetchall(_since("?"), (game_id, after, game_id, after)))

    async def newest_moves(self, game_id: int, count: int, version: int | None = None) -> tuple[list[LoggedMove], bool]:
        """The game's last `count` (≥ 1) moves with their events (and the table events that followed the move before
        them), and whether that is its whole log: a page of the newest reads no more, however long the game.
        `version`: as for `moves_since` (a whole log kept in memory is not read)."""
        kept = None if version is None else self.recent.since(game_id, version, -1)
        if kept is not None:
            return _logged(kept), True
        after = f"(SELECT COALESCE(MAX(move), 0) FROM actions WHERE game_id = ?) - {int(count)}"
        moves = _read(await self.db.fetchall(_since(after), (game_id, game_id, game_id, game_id)))
        return moves, bool(moves) and moves[0].move == 0  # from the deal's table events (move 0) on: all of it

    def kept_since_decision(self, game_id: int, player: str, version: int) -> list[LoggedMove] | None:
        """`moves_since_decision` if memory holds them (recent.py), else None: no trip to the database."""
        kept = self.recent.since_decision(game_id, version, player)
        return _logged(kept) if kept is not None else None

    async def moves_since_decision(self, game_id: int, player: str, version: int | None = None) -> list[LoggedMove]:
        """`moves_since` the move at which `player` last decided for themselves, in one query: a panel asks at
        every open (and, with `version`, from memory where it can)."""
        kept = None if version is None else self.kept_since_decision(game_id, player, version)
        if kept is not None:
            return kept
        return _read(await self.db.fetchall(_since(LAST_DECISION),
                                            (game_id, game_id, player, game_id, game_id, player)))

    async def notes(self, game_id: int) -> list[tuple[str, str]]:
        rows = await self.db.fetchall("SELECT kind, detail FROM game_notes WHERE game_id = ? ORDER BY id", (game_id,))
        return [(row["kind"], row["detail"]) for row in rows]

    async def export_game(self, game_id: int) -> dict[str, Any]:
        """A game's whole history as JSON-ready data, for bug reports and replays (all of it: hidden cards too)."""
        row = await self.db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        actions = await self.db.fetchall(
            "SELECT move, version, player, actor, action, at FROM actions WHERE game_id = ? ORDER BY move", (game_id,)
        )
        return {
            "game_id": game_id,
            "guild_id": row["guild_id"],
            "channel_id": row["channel_id"],
            "parent_id": row["parent_id"],  # the channel whose thread `channel_id` is, if known
            "status": row["status"],
            "version": row["version"],
            "table": _json_or_text(row["setup"]),
            "created_at": row["created_at"],
            "updated_at": row["updated_at"],
            "finished_at": row["finished_at"],
            "actions": [
                {"move": a["move"], "version": a["version"], "player": a["player"], "actor": a["actor"],
                 "action": _json_or_text(a["action"]), "at": a["at"]}
                for a in actions
            ],
            "snapshot": _json_or_text(row["snapshot"]) if row["snapshot"] is not None else None,
            "messages": read_messages(row["ui"]).model_dump(mode="json"),
            "notes": [{"kind": k, "detail": d} for k, d in await self.notes(game_id)],
        }


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text
