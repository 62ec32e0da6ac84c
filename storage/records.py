"""Typed records of a stored game: who sits at the table, and the bot's message bookkeeping.

They live beside the store because the store needs the seats and the seed to
rebuild a damaged game from its log; front-ends (the Discord bot, the terminal)
read and write them, never raw JSON. Both are stored as JSON columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine import Event, GameState

SeatKind = Literal["human", "computer"]
LOG_EVENTS = 40  # recent public events kept for the table's log; the wording picks the lines


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Seat(_Record):
    id: str  # the engine's player id: a Discord user id, or a computer's own id ("ai2")
    name: str = ""  # a human's display name; a computer is named by the wording, from its number
    kind: SeatKind = "human"
    number: int | None = None  # a computer's number at this table


class Table(_Record):
    """Who plays: the lobby's seats, and once the game starts, what replaying it needs."""

    host: str
    seats: tuple[Seat, ...]  # in seating order once the game has started
    seed: int | None = None  # set when the game starts
    start_player: str | None = None  # None: the engine drew the start player from the seed

    @model_validator(mode="before")
    @classmethod
    def _from_schema_1(cls, data: Any) -> Any:
        """Rows written before typed tables held {seats|players: [ids], names: {id: name}}."""
        if not isinstance(data, dict) or "names" not in data and "players" not in data:
            return data
        names = data.get("names", {})
        ids = data.get("players") or data.get("seats") or []
        # Old rows marked computers only by their id; nothing written since relies on it.
        seats = [{"id": i, "name": names.get(i, i), "kind": "computer" if i.startswith("ai") else "human"} for i in ids]
        host = data.get("host") or (ids[0] if ids else "")
        return {"host": host, "seats": seats, "seed": data.get("seed"), "start_player": data.get("start_player")}

    @property
    def players(self) -> list[str]:
        return [s.id for s in self.seats]

    @property
    def started(self) -> bool:
        return self.seed is not None

    def seat(self, player: str) -> Seat | None:
        return next((s for s in self.seats if s.id == player), None)

    def is_computer(self, player: str) -> bool:
        seat = self.seat(player)
        return seat is not None and seat.kind == "computer"

    def humans(self) -> list[str]:
        return [s.id for s in self.seats if s.kind == "human"]

    def with_seats(self, seats: list[Seat]) -> Table:
        return self.model_copy(update={"seats": tuple(seats)})


class TableMessages(_Record):
    """The bot's bookkeeping of a game's messages: never game state, written without a version bump."""

    table: int | None = None  # the lobby message, which becomes the table
    ping: int | None = None  # the latest "your move" message
    log: tuple[Event, ...] = Field(default=())  # the latest public events, oldest first

    @field_validator("log", mode="before")
    @classmethod
    def _drop_old_sentences(cls, value: Any) -> Any:
        """Schema-1 rows kept English sentences here; they cannot be re-worded, so they are dropped."""
        if isinstance(value, (list, tuple)):
            return [e for e in value if not isinstance(e, str)]
        return value

    def logged(self, events: list[Event]) -> TableMessages:
        """With the public ones of `events` appended (the latest LOG_EVENTS kept)."""
        public = [e for e in events if e.to is None]
        if not public:
            return self
        return self.model_copy(update={"log": (*self.log, *public)[-LOG_EVENTS:]})


@dataclass(frozen=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    status: str  # lobby | active | finished | cancelled | quarantined
    version: int
    table: Table
    state: GameState | None
    created_at: float
    updated_at: float
    finished_at: float | None = None
    messages: TableMessages = TableMessages()

    @property
    def open(self) -> bool:
        return self.status in ("lobby", "active")


@dataclass(frozen=True)
class Deadline:
    game_id: int
    player: str
    kind: str
    due_at: float
    payload: dict[str, Any]
