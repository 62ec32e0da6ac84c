"""Using a won privilege card (R16-R20). The phase ends in NobleFinished when the winner is done."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Literal, Protocol, TypeVar, cast

from . import events as ev
from .actions import ActionModel, Build, Compensate, Discard, Done, LegalOption, TakeCard, Use
from .common import draw, gain_money, gain_prestige, without
from .components import BUILDINGS, CATEGORY_ALTERNATIVES, CATEGORY_KINDS, DRAW2, GUILDERS, TILE_CATEGORY, TRADE
from .events import Event
from .outcomes import NobleFinished
from .refusals import Illegal
from .rules import holds_tile, take_step, tile_cost
from .state import GameState, PrivilegeTurn, with_tile


def start(state: GameState, seat: int) -> None:
    state.phase = "privilege"
    state.privilege = PrivilegeTurn(seat=seat)


def to_act(state: GameState) -> list[int]:
    t = state.privilege
    assert t is not None
    return [t.robbed if t.robbed is not None else t.seat]


def take_card(state: GameState, seat: int, action: TakeCard, events: list[Event]) -> None:
    t = state.privilege
    assert t is not None
    if t.card is not None:
        raise Illegal("card_taken", card=t.card)
    if action.card not in state.privilege_display:
        raise Illegal("card_unavailable", card=action.card)
    state.privilege_display = without(state.privilege_display, [action.card])
    state.privilege_spent = (*state.privilege_spent, action.card)
    t.card = action.card
    events.append(ev.PrivilegeCardTaken(player=state.players[seat].id, card=action.card))


def _need_card(state: GameState) -> None:
    t = state.privilege
    assert t is not None
    if t.card is None:
        raise Illegal("no_card")
    if t.pending_discard:
        raise Illegal("discard_first")


def use(state: GameState, seat: int, action: Use, events: list[Event]) -> None:
    _need_card(state)
    t = state.privilege
    assert t is not None and t.card is not None  # (_need_card)
    ed = state.edition
    if len(t.used) >= ed.privileges_per_card:
        raise Illegal("two_used")
    if action.slot not in (0, 1, 2):
        raise Illegal("bad_slot", slot=action.slot)
    if action.slot in t.used:
        raise Illegal("slot_used", slot=action.slot)
    kind = ed.privilege_cards[t.card][action.slot]
    p = state.players[seat]
    # Told before what it does (a climb, a tile, money), so the log reads in the order it happened;
    # an illegal use raises below and its events are dropped with it.
    events.append(ev.PrivilegeUsed(player=p.id, card=t.card, slot=action.slot, kind=kind, as_=action.as_))
    if kind in CATEGORY_KINDS:
        if action.as_ is None:
            raise Illegal("need_as", kind=kind)
        if action.as_ != "step" and action.from_ is not None:
            raise Illegal("bad_from", **{"as": action.as_})
        if action.as_ == "step":
            _climb(state, seat, kind, action.from_, events)
        elif action.as_ not in CATEGORY_ALTERNATIVES[kind]:
            raise Illegal("bad_as", kind=kind, **{"as": action.as_})
        elif action.as_ == "trade300":
            if p.levels[TRADE] < ed.trade_alternative_min_level:
                raise Illegal("level_too_low", what=action.as_, category=TRADE, level=ed.trade_alternative_min_level)
            gain_money(state, seat, ed.trade_alternative_money, "trade", events)
        else:
            _take_tile(state, seat, action.as_, events)
    else:
        if action.as_ is not None or action.from_ is not None:
            raise Illegal("fixed_privilege", kind=kind)
        if kind == GUILDERS:
            gain_money(state, seat, ed.guilders_privilege, "privilege", events)
        elif kind in ed.prestige_privilege:
            gain_prestige(state, seat, ed.prestige_privilege[kind], "privilege", events)
        elif kind == DRAW2:
            shown = ed.card_price[state.deck[0]] if state.deck else None  # the top card's back (R28)
            drawn = [c for c in (draw(state, events) for _ in range(ed.draw_privilege_cards)) if c is not None]
            p.hand = (*p.hand, *drawn)
            events.append(ev.CardsDrawn(player=p.id, count=len(drawn), reason="privilege", price=shown))
            events.append(ev.HandCards(to=p.id, cards=drawn, reason="privilege"))
            t.pending_discard = bool(p.hand)
    t.used.append(action.slot)


def _holders(state: GameState, seat: int, category: str, step: int) -> list[int]:
    return [s for s, q in enumerate(state.players) if s != seat and q.levels[category] == step]


def _climb(state: GameState, seat: int, category: str, from_id: str | None, events: list[Event]) -> None:
    """One step up, from the supply if it has the tile, else from an opponent (R20)."""
    p = state.players[seat]
    level = p.levels[category]
    if level >= state.edition.max_level:
        raise Illegal("top_level", category=category)
    step = level + 1
    supply = state.step_supply[category]
    if step in supply:
        if from_id is not None:
            raise Illegal("in_supply", category=category, level=step)
        taken = list(supply)
        take_step(taken, step)
        state.step_supply = {**state.step_supply, category: tuple(taken)}
        p.levels[category] = step
        events.append(ev.StepClimbed(player=p.id, category=category, level=step, robbed=None))
        return
    holders = _holders(state, seat, category, step)
    if from_id is None:
        raise Illegal("need_from", category=category, level=step)
    robbed = next((s for s in holders if state.players[s].id == from_id), None)
    if robbed is None:
        raise Illegal("not_holder", player=from_id, category=category, level=step)
    victim = state.players[robbed]
    # A robbed step 4 is replaced by the climber's own step 3; a robbed step 3 leaves step 2.
    victim.levels[category] = step - 1
    p.levels[category] = step
    assert state.privilege is not None
    state.privilege.robbed = robbed
    events.append(ev.StepClimbed(player=p.id, category=category, level=step, robbed=victim.id))
    events.append(ev.StepLost(player=victim.id, category=category, level=step - 1))


def _take_tile(state: GameState, seat: int, tile: str, events: list[Event]) -> None:
    p = state.players[seat]
    category = TILE_CATEGORY[tile]
    need = state.edition.tile_min_level[tile]
    if p.levels[category] < need:
        raise Illegal("level_too_low", what=tile, category=category, level=need)
    _acquire(state, seat, tile, events)


def _acquire(state: GameState, seat: int, tile: str, events: list[Event]) -> None:
    """Take the top tile of a stack; buildings are paid for (R18)."""
    p = state.players[seat]
    if holds_tile(p.tiles, tile):
        raise Illegal("tile_held", tile=tile)
    stack = state.tile_stacks[tile]
    if not stack:
        raise Illegal("stack_empty", tile=tile)
    value = stack[0]
    cost = tile_cost(tile, value)
    if cost > p.money:
        raise Illegal("cannot_afford", cost=cost, money=p.money, tile=tile)
    state.tile_stacks = {**state.tile_stacks, tile: stack[1:]}  # replaced: a clone shares the stacks
    p.money -= cost
    p.tiles = with_tile(p.tiles, tile, value)  # a new Tiles: a clone shares them
    events.append(ev.TileTaken(player=p.id, tile=tile, value=value, cost=cost))


def build(state: GameState, seat: int, action: Build, events: list[Event]) -> None:
    _need_card(state)
    t = state.privilege
    assert t is not None
    if not state.players[seat].tiles.master_builder:
        raise Illegal("no_master_builder")
    if t.built:
        raise Illegal("built")
    if action.what not in BUILDINGS:
        raise Illegal("bad_building", what=action.what)
    _acquire(state, seat, action.what, events)
    t.built = True


def discard(state: GameState, seat: int, action: Discard, events: list[Event]) -> None:
    t = state.privilege
    assert t is not None
    p = state.players[seat]
    if not t.pending_discard:
        raise Illegal("no_discard")
    if action.card not in p.hand:
        raise Illegal("not_in_hand", action="discard", card=action.card)
    p.hand = without(p.hand, [action.card])
    state.discard = (*state.discard, action.card)
    t.pending_discard = False
    events.append(ev.CardDiscarded(player=p.id, card=action.card))


def done(state: GameState, seat: int, action: Done, events: list[Event]) -> NobleFinished:
    _need_card(state)
    t = state.privilege
    assert t is not None
    ed = state.edition
    declined = ed.privileges_per_card - len(t.used)
    if declined:
        events.append(ev.PrivilegesDeclined(player=state.players[seat].id, count=declined))
        gain_prestige(state, seat, declined * ed.declined_privilege_prestige, "declined", events)
    state.privilege = None
    return NobleFinished()


def compensate(state: GameState, seat: int, action: Compensate, events: list[Event]) -> None:
    ed = state.edition
    take: Literal["money", "prestige"]
    if action.take == "money":
        take = "money"
        gain_money(state, seat, ed.compensation_money, "compensation", events)
    elif action.take == "prestige":
        take = "prestige"
        gain_prestige(state, seat, ed.compensation_prestige, "compensation", events)
    else:
        raise Illegal("bad_take", take=action.take, money=ed.compensation_money, prestige=ed.compensation_prestige)
    events.append(ev.CompensationChosen(player=state.players[seat].id, take=take))
    assert state.privilege is not None
    state.privilege.robbed = None


# --- what the privilege phase allows


_A = TypeVar("_A", bound=ActionModel)


class _Options(Protocol):
    def __call__(self, kind: Callable[..., _A], /, **fields: str | int | None) -> _A: ...


def _made(kind: Callable[..., _A], **fields: str | int | None) -> _A:
    """An option, made once (they are frozen): the computer players' searches list them again and again.
    (Bounded: none names a player.)"""
    return kind(**fields)


# (lru_cache keeps the call's signature, which its type cannot say of a generic function: hence the cast.)
_option = cast(_Options, lru_cache(maxsize=4096)(_made))


def legal(state: GameState, seat: int) -> list[LegalOption]:
    t = state.privilege
    assert t is not None
    p = state.players[seat]
    if t.robbed is not None:
        return [_option(Compensate, take="money"), _option(Compensate, take="prestige")]
    if t.card is None:
        return [_option(TakeCard, card=c) for c in state.privilege_display]
    if t.pending_discard:
        return [_option(Discard, card=c) for c in dict.fromkeys(p.hand)]
    options: list[LegalOption] = []
    ed = state.edition
    if len(t.used) < ed.privileges_per_card:
        for slot, kind in enumerate(ed.privilege_cards[t.card]):
            if slot not in t.used:
                options.extend(_uses(state, seat, slot, kind))
    if p.tiles.master_builder and not t.built:
        options.extend(_option(Build, what=b) for b in BUILDINGS if _can_acquire(state, seat, b))
    options.append(_option(Done))
    return options


def _uses(state: GameState, seat: int, slot: int, kind: str) -> list[Use]:
    p = state.players[seat]
    if kind not in CATEGORY_KINDS:
        return [_option(Use, slot=slot)]
    out: list[Use] = []
    ed = state.edition
    level = p.levels[kind]
    if level < ed.max_level:
        if level + 1 in state.step_supply[kind]:
            out.append(_option(Use, slot=slot, as_="step"))
        else:
            # (made each time: remembered, options naming players filled the table with every player of a
            # bot's thousands of games, 16,000 objects for each full garbage collection to walk)
            out.extend(Use(slot=slot, as_="step", from_=state.players[s].id)
                       for s in _holders(state, seat, kind, level + 1))
    for alt in CATEGORY_ALTERNATIVES[kind]:
        if alt == "trade300":
            if level >= ed.trade_alternative_min_level:
                out.append(_option(Use, slot=slot, as_=alt))
        elif level >= ed.tile_min_level[alt] and _can_acquire(state, seat, alt):
            out.append(_option(Use, slot=slot, as_=alt))
    return out


def _can_acquire(state: GameState, seat: int, tile: str) -> bool:
    p = state.players[seat]
    stack = state.tile_stacks[tile]
    if holds_tile(p.tiles, tile) or not stack:
        return False
    return tile_cost(tile, stack[0]) <= p.money
