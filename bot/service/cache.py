"""The open game of each channel, kept compact.

A parsed game is a tree of a hundred small objects; a thousand live tables kept
that way are what Python's garbage collector walks on every full collection (a
pause of the whole bot). Kept as JSON text instead (which the collector never
walks), each is parsed again when a request needs it, in some 30 microseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine import GameState
from storage import GameRecord, Table


@dataclass(frozen=True)
class _Kept:
    record: GameRecord  # without its state (None) and table (PLACEHOLDER), which are below as text
    state: str | None
    table: str

    def full(self) -> GameRecord:
        state = GameState.model_validate_json(self.state) if self.state is not None else None
        return replace(self.record, state=state, table=Table.model_validate_json(self.table))


PLACEHOLDER = Table(host="", seats=())  # a kept record's own table: the real one is kept as text beside it


class GameCache:
    def __init__(self) -> None:
        self._kept: dict[int, _Kept] = {}

    def get(self, channel_id: int) -> GameRecord | None:
        kept = self._kept.get(channel_id)
        return kept.full() if kept is not None else None

    def version(self, channel_id: int) -> tuple[int, int] | None:
        """(game id, version) of the channel's game, without parsing it."""
        kept = self._kept.get(channel_id)
        return (kept.record.id, kept.record.version) if kept is not None else None

    def put(self, record: GameRecord) -> None:
        state = record.state.model_dump_json() if record.state is not None else None
        bare = replace(record, state=None, table=PLACEHOLDER)
        self._kept[record.channel_id] = _Kept(bare, state, record.table.model_dump_json())

    def drop(self, channel_id: int) -> None:
        self._kept.pop(channel_id, None)

    def __len__(self) -> int:
        return len(self._kept)
