"""What the service answers: an Outcome, and a Notice (a refusal as a code) for the person who asked."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Event
from engine.state import GameState
from storage import GameRecord, Table, TableEvent

MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass(frozen=True)
class Notice:
    """What to tell the person who asked, as a code with parameters (bot/wording/notices.py words it)."""

    code: str
    params: dict = field(default_factory=dict)


@dataclass
class Outcome:
    """What one request did; `notice` (a refusal) is for the requesting person only."""

    ok: bool
    notice: Notice | None = None
    record: GameRecord | None = None
    events: list[Event] = field(default_factory=list)
    previous_to_act: list[str] = field(default_factory=list)
    player: str | None = None  # a move's: whose it was, who made it (storage.Actor) and what it was
    actor: str | None = None
    action: object = None
    undo: int | None = None  # a decision just made that an Undo button may offer to take back (its move)


def refuse(code: str, record: GameRecord | None = None, **params) -> Outcome:
    return Outcome(False, Notice(code, params), record)


def cannot_decide(record: GameRecord | None, game_id: int, player: str) -> Outcome | None:
    """Why `player` cannot decide anything in game `game_id` (the channel's game is `record`), or None: the
    game is over or another, it has not started, they have no seat, or they left it."""
    if record is None or record.id != game_id:
        return refuse("game_gone")
    if record.status != "active":
        return refuse("not_started", record)
    seat = record.table.seat(player)
    if seat is None:
        return refuse("not_seated", record)
    if seat.left:
        return refuse("seat_left", record)
    return None


def decision_key(state: GameState) -> str:
    """Names the decision a panel was built for, so a stale button is recognised.

    A turn-based decision lasts one move. A secret simultaneous choice lasts
    until everyone has chosen, though others' choices add moves meanwhile.
    The initial purchase and the one ending round 1 both happen in round 1: the
    initial one is "buy0", so a panel left open since then is recognised as stale.
    """
    if state.phase == "initial_purchase":
        return "buy0"
    if state.phase == "round_end_purchase":
        return f"buy{state.round}"
    if state.phase == "showdown":
        return f"show{state.round}.{state.noble}"
    return str(state.moves)


def own_seat(record: GameRecord, player: str):
    """The person's seat in this game (a storage Seat), or the polite refusal: no seat of theirs, or they
    have left it for good."""
    seat = record.table.seat(player)
    if seat is None or seat.kind != "human":
        return refuse("not_seated", record)
    if seat.left:
        return refuse("seat_left", record)
    return seat


def back_to_seat(table: Table, player: str) -> tuple[Table, list]:
    """A click of theirs gives a person their seat back: from a stand-in, a run of timeouts, time away.
    The table afterwards, and what the log says of it."""
    seat = table.seat(player)
    if seat is None or not (seat.stand_in or seat.streak or seat.away_until is not None):
        return table, []
    said = seat.stand_in or seat.away_until is not None
    return (table.with_seat(player, stand_in=False, streak=0, away_until=None),
            [TableEvent(what="returned", player=player)] if said else [])
