"""Buying offered cards, all players at once and in secret: the initial purchase (R4) and the round-end one (R23).

It ends in PurchaseResolved once everyone's choice is in.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from . import events as ev
from .actions import Buy, BuyChoice, LegalOption
from .events import Event
from .outcomes import PurchaseResolved
from .refusals import Illegal
from .rules import missing_card
from .state import GameState, Purchase


def start(state: GameState, kind: Literal["initial", "round_end"], order: list[int],
          events: list[Event]) -> PurchaseResolved | None:
    """Players choose among their `offered` cards; `order` is the dealing order, for the discard pile."""
    state.phase = "initial_purchase" if kind == "initial" else "round_end_purchase"
    state.purchase = Purchase(kind=kind, order=order)
    if not to_act(state):
        return _resolve(state, events)
    return None


def to_act(state: GameState) -> list[int]:
    assert state.purchase is not None
    choices = state.purchase.choices
    return [s for s, p in enumerate(state.players) if p.offered and s not in choices]


def buy(state: GameState, seat: int, action: Buy, events: list[Event]) -> PurchaseResolved | None:
    p = state.players[seat]
    missing = missing_card(action.cards, p.offered)
    if missing is not None:
        raise Illegal("not_offered", card=missing)
    cost = sum(state.edition.card_price[c] for c in action.cards)
    if cost > p.money:
        raise Illegal("cannot_afford", cost=cost, money=p.money, tile=None)
    assert state.purchase is not None
    state.purchase.choices[seat] = list(action.cards)
    events.append(ev.ChoiceRecorded(to=p.id, decision="buy", cards=list(action.cards)))
    if to_act(state):
        events.append(ev.ChoiceMade(player=p.id, decision="buy"))
        return None
    return _resolve(state, events)


def _resolve(state: GameState, events: list[Event]) -> PurchaseResolved:
    """All choices are in: pay, take, and discard the rest in dealing order (SCENARIOS convention 7)."""
    pu = state.purchase
    assert pu is not None
    price = state.edition.card_price
    for seat in pu.order:
        p = state.players[seat]
        bought = pu.choices.get(seat, [])
        paid = sum(price[c] for c in bought)
        p.money -= paid
        p.hand = (*p.hand, *bought)
        left = Counter(bought)
        for c in p.offered:
            if left[c]:
                left[c] -= 1
            else:
                state.discard = (*state.discard, c)
        p.offered = ()
        events.append(ev.PurchaseMade(player=p.id, count=len(bought), paid=paid))
    state.purchase = None
    return PurchaseResolved(pu.kind)


def legal(state: GameState, seat: int) -> list[LegalOption]:
    p = state.players[seat]
    price = state.edition.card_price
    return [BuyChoice(offered=list(p.offered), prices=[price[c] for c in p.offered], budget=p.money)]
