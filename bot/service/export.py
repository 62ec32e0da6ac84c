"""A game as a JSON file (`/augsburg export`), which `augsburg replay FILE` plays back.

A finished game is exported whole: its seed and every action, so a replay
rebuilds it exactly, and its final state. Any other game (running, cancelled,
abandoned) is exported as the public record only: the public log and the table
as spectators see it (R28). No seed (it determines the deck and so every hand),
no action (purchases and lay-downs are secret until shown), no hand, no deck.
Either carries the game's edition whole (its file's text, id, sha256 and rules version), so
that it replays with its own components anywhere, whatever editions that machine has.
The format is described in the README (version 1: files written before games recorded an edition).
"""

from __future__ import annotations

import json
from typing import Any

from engine import spectator_view
from storage import ENTRY, GameRecord, LoggedMove
from storage.contract import GameLog

FORMAT = "augsburg-1520-game"
VERSION = 2  # 2: the game's edition is in the file; 1 (still read): the legacy edition


def is_complete(record: GameRecord) -> bool:
    """Whether a game may be exported whole: finished at its end, nothing hidden any more."""
    return record.status == "finished" and record.state is not None and record.state.phase == "game_over"


def public_entries(move: LoggedMove) -> list[dict[str, Any]]:
    """A move's log entries that anyone may read: public events and table events, never a private one."""
    return [ENTRY.dump_python(e, mode="json") for e in move.entries if e.type == "table" or e.to is None]


def public_actor(actor: str) -> str:
    """Who made a move, as everyone may know it: a move the bot made for a person (their only option, or one
    settled ahead) is theirs, as the table told it."""
    return "player" if actor in ("only", "ahead") else actor


def export_data(record: GameRecord, moves: list[LoggedMove],
                actions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The file's content. `actions` (the store's, with their JSON) are used only for a complete game."""
    table = record.table
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": record.id,
        "status": record.status,
        "complete": is_complete(record),
        "created_at": record.created_at,
        "ended_at": record.finished_at,
        "lang": table.lang,
        "players": [{"id": s.id, "name": s.name, "kind": s.kind, "number": s.number,
                     **({"level": s.level} if s.kind == "computer" else {})} for s in table.seats],
        "log": [{"move": m.move, "player": m.player, "actor": public_actor(m.actor), "entries": public_entries(m)}
                for m in moves],
        "table": spectator_view(record.state).model_dump(mode="json") if record.state is not None else None,
    }
    if record.state is not None:
        edition = record.state.edition
        data["edition"] = {"id": edition.id, "sha256": edition.sha256, "rules": record.state.rules,
                           "toml": edition.source}
    if data["complete"] and record.state is not None:
        data |= {
            "seed": table.seed,
            "start_player": table.start_player,
            "actions": [{"move": a["move"], "player": a["player"], "actor": public_actor(a["actor"]),
                         "action": a["action"]} for a in actions or []],
            "state": record.state.model_dump(mode="json"),
        }
    return data


async def export_game(log: GameLog, record: GameRecord) -> dict[str, Any]:
    moves = await log.moves_since(record.id, -1) if record.state is not None else []
    actions = (await log.export_game(record.id))["actions"] if is_complete(record) else None
    return export_data(record, moves, actions)


def export_bytes(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1).encode()


def file_name(record: GameRecord) -> str:
    return f"augsburg-{record.id}.json"
