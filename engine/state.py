"""The whole game as one pydantic model that round-trips through JSON.

Seats are indices into `players` (clockwise order); player ids appear only in
`Player.id`. Secret choices not yet resolved (reveals, purchases) live in the
state too, so views must hide them (see views.py).
"""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from .components import TileValue
from .editions import EditionField, legacy
from .shared_fields import SharedFields

Phase = Literal[
    "initial_purchase",
    "auction",
    "showdown",
    "privilege",
    "round_end_purchase",
    "shortage",
    "game_over",
]

SCHEMA_VERSION = 1
# The rules this code plays. A game records the version it began under (`GameState.rules`) and is replayed
# only by code that still plays it (RULES_PLAYED): a rule fix that changes what a move does raises
# RULES_VERSION, keeps the old behaviour for games of the older version (`if state.rules < 2:`) or
# migrates them explicitly, and says which versions it still plays. See the README, "Rules versions".
RULES_VERSION = 1
RULES_PLAYED = frozenset({1})


class _Model(SharedFields):
    """The state's models: no set of "fields set" per instance (shared_fields.py)."""
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class Tiles(_Model):
    church: int | None = None
    cathedral: int | None = None
    coat: int | None = None
    letter: int | None = None
    minter: bool = False
    master_builder: bool = False


class Player(_Model):
    id: str
    money: int
    score: int
    hand: tuple[str, ...]  # replaced, never changed in place: a clone shares it (see GameState.deck)
    levels: dict[str, int]
    tiles: Tiles  # replaced, never changed in place: a clone shares them (see clone)
    # Cards dealt for a purchase and not yet bought, in dealing order.
    offered: tuple[str, ...] = ()  # replaced, never changed in place: a clone shares it (see clone)


class Auction(_Model):
    turn: int  # seat to act
    offers: list[int]  # cards offered per seat (0 = none yet)
    passed: list[bool]
    high: int = 0
    high_seat: int | None = None  # the last raiser


class Showdown(_Model):
    count: int
    seats: list[int]  # players who must lay down `count` cards, seating order
    high_seat: int
    reveals: dict[int, list[str]] = {}  # SECRET until everyone has chosen


class PrivilegeTurn(_Model):
    seat: int
    card: str | None = None
    used: list[int] = []
    built: bool = False  # Master Builder's extra building taken on this card
    pending_discard: bool = False  # after draw 2, one card must be discarded
    robbed: int | None = None  # seat choosing compensation for a stolen step


class Purchase(_Model):
    kind: Literal["initial", "round_end"]
    order: list[int]  # dealing order, for the discard pile
    choices: dict[int, list[str]] = {}  # SECRET until everyone has chosen


class Shortage(_Model):
    remaining: list[int]  # seats still to return a card in this pass


class GameState(_Model):
    schema_version: int = SCHEMA_VERSION
    # The components it is played with, stored as their id and sha256; older games read as the legacy edition.
    edition: EditionField = Field(default_factory=legacy)
    rules: int = RULES_VERSION  # the rules version it began under (older games: 1)
    seed: int
    rng: int
    players: list[Player]
    rounds: int
    round: int
    phase: Phase
    noble: int | None = None  # index into NOBLES during auction/showdown/privilege
    lead: int
    # From the deck to the spent privilege cards (and a player's hand and offered cards): replaced when they
    # change, never changed in place, so a clone shares them. Tuples, not lists: the collector stops tracking a
    # tuple of plain values the first time it sees it, where a parsed state kept in memory held 22 such lists for
    # every full collection to walk (issue 44).
    deck: tuple[str, ...]  # top first
    discard: tuple[str, ...]  # bottom first, last = top
    step_supply: dict[str, tuple[int, ...]]  # sorted
    tile_stacks: dict[str, tuple[TileValue, ...]]  # top first
    privilege_display: tuple[str, ...]
    privilege_waiting: tuple[str, ...]
    privilege_spent: tuple[str, ...] = ()
    auction: Auction | None = None
    showdown: Showdown | None = None
    privilege: PrivilegeTurn | None = None
    purchase: Purchase | None = None
    shortage: Shortage | None = None
    winners: list[str] | None = None
    moves: int = 0  # actions applied so far; lets a UI tell a stale decision


_M = TypeVar("_M", bound=BaseModel)


def _copy(model: _M, **changes: object) -> _M:
    """A shallow copy of a model with some fields replaced, without pydantic's per-field machinery.

    The engine clones the state once per action and the strong computer player thousands of
    times per decision, so this is the engine's hottest path."""
    new = object.__new__(type(model))
    fields = dict(model.__dict__)
    fields.update(changes)
    object.__setattr__(new, "__dict__", fields)
    object.__setattr__(new, "__pydantic_fields_set__", model.__pydantic_fields_set__)  # shared (see _Model)
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


def clone(state: GameState) -> GameState:
    """A copy the engine may mutate without touching `state` (faster than deepcopy).

    What the engine only ever replaces (a player's hand, tiles and offered cards, the deck, the discard pile,
    the steps' supply, the tiles' stacks, the privilege cards: tuples but for the tiles) is shared, not copied:
    a third of the objects made at every move, for the collector to walk (tests/test_properties.py checks
    that applying an action leaves the state it was given as it was)."""
    players = [_copy(p, levels=dict(p.levels)) for p in state.players]
    changes: dict[str, object] = dict(players=players)
    if state.auction is not None:
        a = state.auction
        changes["auction"] = _copy(a, offers=a.offers[:], passed=a.passed[:])
    if state.showdown is not None:
        s = state.showdown
        changes["showdown"] = _copy(s, seats=s.seats[:], reveals={k: v[:] for k, v in s.reveals.items()})
    if state.privilege is not None:
        changes["privilege"] = _copy(state.privilege, used=state.privilege.used[:])
    if state.purchase is not None:
        u = state.purchase
        changes["purchase"] = _copy(u, order=u.order[:], choices={k: v[:] for k, v in u.choices.items()})
    if state.shortage is not None:
        changes["shortage"] = _copy(state.shortage, remaining=state.shortage.remaining[:])
    if state.winners is not None:
        changes["winners"] = state.winners[:]
    return _copy(state, **changes)


def with_tile(tiles: Tiles, tile: str, value: TileValue) -> Tiles:
    """`tiles` with one more: a new Tiles, since a state's copy shares its players' (see clone)."""
    return _copy(tiles, **{tile: value})


def seat_of(state: GameState, player_id: str) -> int | None:
    for i, p in enumerate(state.players):
        if p.id == player_id:
            return i
    return None


def clockwise_from(state: GameState, seat: int) -> list[int]:
    n = len(state.players)
    return [(seat + i) % n for i in range(n)]
