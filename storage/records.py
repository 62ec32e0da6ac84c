"""Typed records of a stored game: who sits at the table, and the bot's message bookkeeping.

They live beside the store because the store needs the seats and the seed to
rebuild a damaged game from its log; front-ends (the Discord bot, the terminal)
read and write them, never raw JSON. Both are stored as JSON columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, TypeAdapter, field_validator, model_validator

from engine import Event, GameState
from engine.edition import EditionRef
from engine.editions import LEGACY
from engine.levels import DEFAULT_LEVEL, LEVELS, Level
from engine.shared_fields import SharedFields

SeatKind = Literal["human", "computer"]
# Who made a move: the seat itself, the turn clock, a stand-in; or the bot for a person: their only legal
# option ("only"), or the auction decision they settled ahead ("ahead"). Told publicly as the player's own.
# "away": the computer for a person on time away (issue 29), counted neither in time nor late.
Actor = Literal["player", "clock", "stand_in", "only", "ahead", "away"]


class _Record(SharedFields):  # (no set of "fields set" per instance: engine/shared_fields.py)
    model_config = ConfigDict(extra="forbid", frozen=True)


class Ahead(_Record):
    """An auction decision a player settled ahead, for the auction `auction` ("round.noble") only: pass, call
    the highest bid while it is at most `cards` cards, or raise to `cards`. Private to the player: it is
    shown on their own panel only, and lapses when it is used or its auction ends."""

    auction: str
    how: Literal["pass", "call", "raise"]
    cards: int = 0


class Seat(_Record):
    id: str  # the engine's player id: a Discord user id, or a computer's own id ("ai2")
    name: str = ""  # a human's display name; a computer is named by the wording, from its number
    kind: SeatKind = "human"
    number: int | None = None  # a computer's number at this table
    level: Level = DEFAULT_LEVEL  # how well a computer seat plays (a human's stand-in always plays normal)
    # The turn clock (humans only): timeouts in all and in a row; the computer stands in until the
    # owner comes back, or for the rest of the game once they have left.
    missed: int = 0
    streak: int = 0
    stand_in: bool = False
    left: bool = False
    ahead: Ahead | None = None  # their next auction decision, settled ahead (bot/automatic.py)
    away_until: float | None = None  # on time away until then (epoch seconds): their clock does not run out
    reliability: int | None = None  # a person's reliability (%) when they sat down (storage/ratings.py); None: new

    @field_validator("level", mode="before")
    @classmethod
    def _known_level(cls, value: Any) -> Any:
        """A level this version does not know (a row from a newer one, a hand-edited row) plays normal."""
        return value if value in LEVELS else DEFAULT_LEVEL

    @property
    def computer_plays(self) -> bool:
        return self.kind == "computer" or self.stand_in or self.left

    @property
    def playing_level(self) -> Level:
        """The level the computer plays this seat at: its own for a computer seat, normal standing in."""
        return self.level if self.kind == "computer" else DEFAULT_LEVEL


class Table(_Record):
    """Who plays: the lobby's seats, and once the game starts, what replaying it needs."""

    host: str
    seats: tuple[Seat, ...]  # in seating order once the game has started
    seed: int | None = None  # set when the game starts
    start_player: str | None = None  # None: the engine drew the start player from the seed
    turn_seconds: int | None = None  # time for each decision; None: no clock
    lang: str = "en"  # the language of the table's public messages (each player's private ones: their own)
    # The components: in the lobby the host's choice (None: the server's default), fixed when the game starts;
    # `rules`, the rules version it starts under. Tables stored before games recorded them: LEGACY and 1.
    edition: EditionRef | None = None
    rules: int | None = None
    rematch_of: int | None = None  # the finished game this table plays again (its people join by a click)
    # Time away the host allows: at most `away_days` days (0: none); while a player is away the computer
    # decides for them at once, or (`away_waits`) the table waits for them, their clock pushed past it.
    away_days: int = 7
    away_waits: bool = False
    min_reliability: int = 0  # the host's minimum reliability (%) to join (issue 46); people with no record may

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

    @property
    def game_edition(self) -> EditionRef:
        """The edition a started game is played with (games stored before editions: the legacy one)."""
        return self.edition or LEGACY

    @property
    def game_rules(self) -> int:
        return self.rules or 1

    def seat(self, player: str) -> Seat | None:
        for seat in self.seats:  # (asked very often: a plain loop, no generator)
            if seat.id == player:
                return seat
        return None

    def is_computer(self, player: str) -> bool:
        seat = self.seat(player)
        return seat is not None and seat.kind == "computer"

    def computer_plays(self, player: str) -> bool:
        """A computer decides for this seat now: a computer's seat, a human's stood in for, or one away from a
        table that does not wait."""
        seat = self.seat(player)
        return seat is not None and (seat.computer_plays or seat.away_until is not None and not self.away_waits)

    def humans(self) -> list[str]:
        return [s.id for s in self.seats if s.kind == "human"]

    def present(self) -> list[str]:
        """The humans still in the game (not left)."""
        return [s.id for s in self.seats if s.kind == "human" and not s.left]

    def with_seats(self, seats: list[Seat]) -> Table:
        return self.model_copy(update={"seats": tuple(seats)})

    def with_seat(self, player: str, **changes: Any) -> Table:
        return self.with_seats([s.model_copy(update=changes) if s.id == player else s for s in self.seats])


class TableEvent(_Record):
    """Something that happened at the table outside the rules: a seat's clock, stand-in, leaving."""

    type: Literal["table"] = "table"
    # A timeout is the move's actor; "away_over": the time away ran out (ended early: "returned").
    what: Literal["stand_in", "returned", "left", "replaced", "abandoned", "host", "away", "away_over"]
    player: str
    days: int | None = None  # "away": for how many days
    by: str | None = None  # who did it, when it was not the player (a replacement)
    to: None = None  # always public


# One entry of a game's log: an engine event or a table event (pydantic flattens the engine's tagged union of
# events into this one, tagged by `type` too).
LogEntry = Annotated[Event | TableEvent, Field(discriminator="type")]
LOG: TypeAdapter[list[LogEntry]] = TypeAdapter(list[LogEntry])
# One entry read from JSON data (`ENTRY.validate_python`, `.validate_json`) or written as it
# (`ENTRY.dump_python(entry, mode="json")`): the log of an exported game file (bot/service/export.py).
ENTRY: TypeAdapter[LogEntry] = TypeAdapter(LogEntry)


class PingMessage(SharedFields):
    """A public message about people's decision now (a "your move" ping, a reminder, a heads-up line), kept
    until that decision is made and then deleted (bot/discord_app/ping_messages.py)."""

    model_config = ConfigDict(frozen=True)

    id: int  # the message
    players: tuple[str, ...]  # whose decision it is about
    key: str  # which decision (the service's decision_key): it is done when none of them must make it now


class TableMessages(SharedFields):
    """The bot's bookkeeping of a game's messages: never game state, written without a version bump."""

    model_config = ConfigDict(extra="ignore", frozen=True)  # older rows held more (a log, one ping id)

    table: int | None = None  # the lobby message, which becomes the table
    drawn: int | None = None  # the game version the table shows (a restart may have left it stale)
    standings: int | None = None  # the final standings' message, once posted (they are posted once)
    pings: tuple[PingMessage, ...] = ()  # the messages about decisions not made yet (none in older rows)


OPEN = ("lobby", "active")  # the statuses of a game not yet over (GameRecord.open)


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
    parent_id: int | None = None  # the channel whose thread `channel_id` is (None: not a thread, or not known)

    @property
    def open(self) -> bool:
        return self.status in OPEN


@dataclass(frozen=True)
class Deadline:
    game_id: int
    player: str
    kind: str  # reminder | timeout
    due_at: float
    payload: dict[str, Any]
    channel_id: int = 0


@dataclass(frozen=True)
class DeadlinePlan:
    """The deadlines of a game after a write: rows of players in `keep` stay as they are, `new` replace
    the rows of their (game, player, kind), and every other row of the game goes."""

    keep: frozenset[str] = frozenset()
    new: tuple[Deadline, ...] = ()

    @property
    def earliest(self) -> float | None:
        return min((d.due_at for d in self.new), default=None)


@dataclass(frozen=True)
class LoggedMove:
    """One stored move with what it caused, and the table events that followed it."""

    move: int
    player: str | None  # None for what came before the first move (the deal)
    actor: Actor
    entries: list[LogEntry]  # in order
    at: float
