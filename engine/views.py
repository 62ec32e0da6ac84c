"""What one player (or a spectator) may see of the game (R28).

Everything the bot shows is built from these views, so a leak of hidden
information can only be a bug here. Private to each player: money, the hand
and its size, cards offered to them, their own secret choice before it is
revealed, and their legal actions (a bid range would tell the hand).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from .actions import LegalOption
from .components import TileValue
from .editions import EditionField, legacy
from .game import legal_actions, to_act
from .state import GameState, Tiles, seat_of


class _View(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PublicPlayer(_View):
    id: str
    score: int
    levels: dict[str, int]
    tiles: Tiles


class AuctionView(_View):
    turn: str
    offers: dict[str, int]  # cards offered so far by players still in
    passed: list[str]
    high: int
    high_player: str | None


class ShowdownView(_View):
    count: int
    players: list[str]
    waiting_for: list[str]


class PrivilegeView(_View):
    player: str
    card: str | None
    used: list[int]
    built: bool
    awaiting: str  # take_card | discard | compensation | privileges
    robbed: str | None


class PrivateView(_View):
    id: str
    money: int
    hand: list[str]
    offered: list[str]
    offered_prices: list[int]
    chosen: list[str] | None  # your secret reveal / purchase, before everyone has chosen
    legal_actions: list[LegalOption]

    @field_serializer("legal_actions")
    def _legal_as_json(self, options: list[LegalOption]) -> list[dict[str, Any]]:
        # As actions are written in JSON: "as"/"from", and no unset optional fields.
        return [o.model_dump(by_alias=True, exclude_none=True) for o in options]


class View(_View):
    # The game's components: prices, privilege cards, incomes… (stored as its id and sha256; views stored before
    # games recorded their edition, as in older exports: the legacy one).
    edition: EditionField = Field(default_factory=legacy)
    round: int
    rounds: int
    phase: str
    noble: str | None
    lead: str
    to_act: list[str]
    players: list[PublicPlayer]
    auction: AuctionView | None
    showdown: ShowdownView | None
    privilege: PrivilegeView | None
    deck_top_price: int | None
    discard_top: str | None
    privilege_display: list[str]
    privilege_waiting: list[str]  # face down, but known by elimination
    step_supply: dict[str, list[int]]
    tile_stacks: dict[str, list[TileValue]]
    winners: list[str] | None
    moves: int
    you: PrivateView | None


def spectator_view(state: GameState) -> View:
    return _view(state, None)


def player_view(state: GameState, player: str) -> View:
    seat = seat_of(state, player)
    if seat is None:
        raise KeyError(f"{player} is not seated in this game")
    return _view(state, seat)


def _view(state: GameState, seat: int | None) -> View:
    ids = [p.id for p in state.players]
    phase = state.phase
    ed = state.edition
    return View(
        edition=ed,
        round=state.round,
        rounds=state.rounds,
        phase=phase,
        noble=_noble(state),
        lead=ids[state.lead],
        to_act=to_act(state),
        players=[PublicPlayer(id=p.id, score=p.score, levels=dict(p.levels), tiles=p.tiles) for p in state.players],
        auction=_auction(state, ids) if phase == "auction" else None,
        showdown=_showdown(state, ids) if phase == "showdown" else None,
        privilege=_privilege(state, ids) if phase == "privilege" else None,
        deck_top_price=ed.card_price[state.deck[0]] if state.deck else None,
        discard_top=state.discard[-1] if state.discard else None,
        privilege_display=list(state.privilege_display),
        privilege_waiting=sorted(state.privilege_waiting, key=int),
        step_supply={k: sorted(v) for k, v in state.step_supply.items()},
        tile_stacks={k: list(v) for k, v in state.tile_stacks.items()},
        winners=state.winners,
        moves=state.moves,
        you=_private(state, seat) if seat is not None else None,
    )


def _noble(state: GameState) -> str | None:
    """The noble of the running auction, showdown or privilege card; None in the other phases."""
    if state.phase not in ("auction", "showdown", "privilege"):
        return None
    assert state.noble is not None
    return state.edition.nobles[state.noble]


_V = TypeVar("_V")


@overload
def _auction(state: GameState, ids: list[str]) -> AuctionView: ...
@overload
def _auction(state: GameState, ids: list[str], make: Callable[..., _V]) -> _V: ...
def _auction(state: GameState, ids: list[str], make: Callable[..., object] = AuctionView) -> object:
    """The running auction as the players see it. `make` builds it (and the _showdown and _privilege views):
    the computer's searches pass SimpleNamespace, the same fields without pydantic's checks."""
    a = state.auction
    assert a is not None
    return make(
        turn=ids[a.turn],
        offers={ids[s]: a.offers[s] for s in range(len(ids)) if a.offers[s] and not a.passed[s]},
        passed=[ids[s] for s in range(len(ids)) if a.passed[s]],
        high=a.high,
        high_player=ids[a.high_seat] if a.high_seat is not None else None,
    )


@overload
def _showdown(state: GameState, ids: list[str]) -> ShowdownView: ...
@overload
def _showdown(state: GameState, ids: list[str], make: Callable[..., _V]) -> _V: ...
def _showdown(state: GameState, ids: list[str], make: Callable[..., object] = ShowdownView) -> object:
    sd = state.showdown
    assert sd is not None
    return make(
        count=sd.count,
        players=[ids[s] for s in sd.seats],
        waiting_for=[ids[s] for s in sd.seats if s not in sd.reveals],
    )


@overload
def _privilege(state: GameState, ids: list[str]) -> PrivilegeView: ...
@overload
def _privilege(state: GameState, ids: list[str], make: Callable[..., _V]) -> _V: ...
def _privilege(state: GameState, ids: list[str], make: Callable[..., object] = PrivilegeView) -> object:
    t = state.privilege
    assert t is not None
    if t.robbed is not None:
        awaiting = "compensation"
    elif t.card is None:
        awaiting = "take_card"
    elif t.pending_discard:
        awaiting = "discard"
    else:
        awaiting = "privileges"
    return make(
        player=ids[t.seat],
        card=t.card,
        used=list(t.used),
        built=t.built,
        awaiting=awaiting,
        robbed=ids[t.robbed] if t.robbed is not None else None,
    )


def _private(state: GameState, seat: int) -> PrivateView:
    p = state.players[seat]
    chosen = None
    if state.phase == "showdown":
        assert state.showdown is not None
        chosen = state.showdown.reveals.get(seat)
    elif state.purchase is not None:
        chosen = state.purchase.choices.get(seat)
    return PrivateView(
        id=p.id,
        money=p.money,
        hand=list(p.hand),
        offered=list(p.offered),
        offered_prices=[state.edition.card_price[c] for c in p.offered],
        chosen=list(chosen) if chosen is not None else None,
        legal_actions=legal_actions(state, p.id),
    )
