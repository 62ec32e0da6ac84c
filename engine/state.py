"""The whole game as one pydantic model that round-trips through JSON.

Seats are indices into `players` (clockwise order); player ids appear only in
`Player.id`. Secret choices not yet resolved (reveals, purchases) live in the
state too, so views must hide them (see views.py).
"""

from __future__ import annotations

from copy import copy
from typing import Literal

from pydantic import BaseModel, ConfigDict

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


class _Model(BaseModel):
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
    hand: list[str]
    levels: dict[str, int]
    tiles: Tiles
    # Cards dealt for a purchase and not yet bought, in dealing order.
    offered: list[str] = []


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
    seed: int
    rng: int
    players: list[Player]
    rounds: int
    round: int
    phase: Phase
    noble: int | None = None  # index into NOBLES during auction/showdown/privilege
    lead: int
    deck: list[str]  # top first
    discard: list[str]  # bottom first, last = top
    step_supply: dict[str, list[int]]  # sorted
    tile_stacks: dict[str, list]  # top first
    privilege_display: list[str]
    privilege_waiting: list[str]
    privilege_spent: list[str] = []
    auction: Auction | None = None
    showdown: Showdown | None = None
    privilege: PrivilegeTurn | None = None
    purchase: Purchase | None = None
    shortage: Shortage | None = None
    winners: list[str] | None = None
    moves: int = 0  # actions applied so far; lets a UI tell a stale decision


def clone(state: GameState) -> GameState:
    """A copy the engine may mutate without touching `state` (faster than deepcopy)."""
    new = copy(state)
    players = []
    for p in state.players:
        q = copy(p)
        q.hand = p.hand[:]
        q.levels = dict(p.levels)
        q.tiles = copy(p.tiles)
        q.offered = p.offered[:]
        players.append(q)
    new.players = players
    new.deck = state.deck[:]
    new.discard = state.discard[:]
    new.step_supply = {k: v[:] for k, v in state.step_supply.items()}
    new.tile_stacks = {k: v[:] for k, v in state.tile_stacks.items()}
    new.privilege_display = state.privilege_display[:]
    new.privilege_waiting = state.privilege_waiting[:]
    new.privilege_spent = state.privilege_spent[:]
    if state.auction is not None:
        a = new.auction = copy(state.auction)
        a.offers = a.offers[:]
        a.passed = a.passed[:]
    if state.showdown is not None:
        s = new.showdown = copy(state.showdown)
        s.seats = s.seats[:]
        s.reveals = {k: v[:] for k, v in s.reveals.items()}
    if state.privilege is not None:
        t = new.privilege = copy(state.privilege)
        t.used = t.used[:]
    if state.purchase is not None:
        u = new.purchase = copy(state.purchase)
        u.order = u.order[:]
        u.choices = {k: v[:] for k, v in u.choices.items()}
    if state.shortage is not None:
        r = new.shortage = copy(state.shortage)
        r.remaining = r.remaining[:]
    if state.winners is not None:
        new.winners = state.winners[:]
    return new


def seat_of(state: GameState, player_id: str) -> int | None:
    for i, p in enumerate(state.players):
        if p.id == player_id:
            return i
    return None


def clockwise_from(state: GameState, seat: int) -> list[int]:
    n = len(state.players)
    return [(seat + i) % n for i in range(n)]
