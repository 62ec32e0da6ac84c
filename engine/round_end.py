"""Phase 2: income, debt cards, purchases, the deck shortage, the next round and the end (R22-R27).

The initial purchase (R4) works exactly like the round-end one, so it lives here too.
"""

from __future__ import annotations

from collections import Counter

from . import auction, rng
from . import events as ev
from .actions import Buy, BuyChoice, ReturnCard
from .common import Illegal, draw, gain_prestige, ids, is_submultiset
from .components import (
    CARD_PRICE,
    MINTER_FREE_CARDS,
    NOBILITY_PRESTIGE,
    OFFICES_CARDS,
    OFFICES_FREE_CARDS_AT_4,
    PRIVILEGE_DISPLAY_SIZE,
    TRADE_INCOME,
)
from .state import GameState, Purchase, Shortage, clockwise_from


def begin(state: GameState, events: list) -> None:
    """After the fifth auction: spend the remaining cards, pay income, then cards or the end."""
    state.noble = None
    state.auction = state.showdown = state.privilege = None
    if state.privilege_display:
        events.append(ev.public("privilege_card_spent", cards=state.privilege_display[:]))
        state.privilege_spent.extend(state.privilege_display)
        state.privilege_display = []
    last = state.round >= state.rounds
    for seat in clockwise_from(state, state.lead):
        p = state.players[seat]
        # R25: in the last round only prestige counts.
        money = 0 if last else TRADE_INCOME[p.levels["trade"]]
        p.money += money
        prestige = NOBILITY_PRESTIGE[p.levels["nobility"]] + (p.tiles.coat or 0) + (p.tiles.letter or 0)
        events.append(ev.public("round_income", player=p.id, money=money, prestige=prestige))
        gain_prestige(state, seat, prestige, "round_end", events)
    if last:
        _game_over(state, events)
        return
    if _cards_short(state) and any(p.hand for p in state.players):
        events.append(ev.public("shortage_started"))
        state.phase = "shortage"
        state.shortage = Shortage(remaining=_holders_in_order(state))
        return
    _deal_round_end(state, events)


def _cards_owed(state: GameState) -> int:
    return sum(_free_cards(p) + OFFICES_CARDS[p.levels["offices"]] for p in state.players)


def _free_cards(p) -> int:
    return (OFFICES_FREE_CARDS_AT_4 if p.levels["offices"] == 4 else 0) + (MINTER_FREE_CARDS if p.tiles.minter else 0)


def _cards_short(state: GameState) -> bool:
    return len(state.deck) + len(state.discard) < _cards_owed(state)


def _holders_in_order(state: GameState) -> list[int]:
    return [s for s in clockwise_from(state, state.lead) if state.players[s].hand]


def return_card(state: GameState, seat: int, action: ReturnCard, events: list) -> None:
    """R24: each player in turn puts one card from hand under the deck."""
    p = state.players[seat]
    if action.card not in p.hand:
        raise Illegal("not_in_hand", "You can only return a card from your hand.")
    p.hand.remove(action.card)
    state.deck.append(action.card)
    events.append(ev.public("card_returned", player=p.id))
    events.append(ev.private(p.id, "card_returned_private", card=action.card))
    sh = state.shortage
    sh.remaining.pop(0)
    if sh.remaining:
        return
    # Enough now is asked only after a complete pass.
    if _cards_short(state):
        sh.remaining = _holders_in_order(state)
        if sh.remaining:
            return
    # Everything but the current top card is shuffled under it.
    top, rest = state.deck[:1], state.deck[1:] + state.discard
    state.rng = rng.shuffle(state.rng, rest)
    state.deck = top + rest
    state.discard = []
    state.shortage = None
    events.append(ev.public("deck_reshuffled"))
    _deal_round_end(state, events)


def _deal_round_end(state: GameState, events: list) -> None:
    """R23: lead first, clockwise, each takes free cards into the hand, then the offered ones."""
    order = clockwise_from(state, state.lead)
    for seat in order:
        p = state.players[seat]
        free = [c for c in (draw(state, events) for _ in range(_free_cards(p))) if c is not None]
        p.hand.extend(free)
        offered = [c for c in (draw(state, events) for _ in range(OFFICES_CARDS[p.levels["offices"]])) if c is not None]
        p.offered = offered
        events.append(ev.public("cards_dealt", player=p.id, free=len(free), offered=len(offered)))
        if free:
            events.append(ev.private(p.id, "hand_cards", cards=free, reason="free"))
        events.append(ev.private(p.id, "offered_cards", cards=offered))
    start_purchase(state, "round_end", order, events)


def start_purchase(state: GameState, kind: str, order: list[int], events: list) -> None:
    state.phase = "initial_purchase" if kind == "initial" else "round_end_purchase"
    state.purchase = Purchase(kind=kind, order=order)
    if not purchase_to_act(state):
        _resolve_purchase(state, events)


def purchase_to_act(state: GameState) -> list[int]:
    choices = state.purchase.choices
    return [s for s, p in enumerate(state.players) if p.offered and s not in choices]


def buy(state: GameState, seat: int, action: Buy, events: list) -> None:
    p = state.players[seat]
    if not is_submultiset(action.cards, p.offered):
        raise Illegal("not_offered", "You can only buy cards that were offered to you.")
    cost = sum(CARD_PRICE[c] for c in action.cards)
    if cost > p.money:
        raise Illegal("cannot_afford", f"Those cards cost {cost} guilders; you have {p.money}.")
    state.purchase.choices[seat] = list(action.cards)
    events.append(ev.private(p.id, "choice_recorded", decision="buy", cards=list(action.cards)))
    if purchase_to_act(state):
        events.append(ev.public("choice_made", player=p.id, decision="buy"))
        return
    _resolve_purchase(state, events)


def _resolve_purchase(state: GameState, events: list) -> None:
    """All choices are in: pay, take, and discard the rest in dealing order (SCENARIOS convention 7)."""
    pu = state.purchase
    for seat in pu.order:
        p = state.players[seat]
        bought = pu.choices.get(seat, [])
        paid = sum(CARD_PRICE[c] for c in bought)
        p.money -= paid
        p.hand.extend(bought)
        left = Counter(bought)
        for c in p.offered:
            if left[c]:
                left[c] -= 1
            else:
                state.discard.append(c)
        p.offered = []
        events.append(ev.public("purchase_made", player=p.id, count=len(bought), paid=paid))
    state.purchase = None
    if pu.kind == "round_end":
        state.round += 1
        _turn_privilege_cards(state)
    events.append(ev.public("round_started", round=state.round, opener=state.players[state.lead].id))
    auction.start_auction(state, 0, events)


def _turn_privilege_cards(state: GameState) -> None:
    """R7/R26: even rounds show the waiting half; odd rounds reshuffle all ten."""
    if state.round % 2 == 0:
        state.privilege_display = state.privilege_waiting
        state.privilege_waiting = []
        return
    cards = state.privilege_display + state.privilege_waiting + state.privilege_spent
    cards.sort(key=int)
    state.rng = rng.shuffle(state.rng, cards)
    state.privilege_display = cards[:PRIVILEGE_DISPLAY_SIZE]
    state.privilege_waiting = cards[PRIVILEGE_DISPLAY_SIZE:]
    state.privilege_spent = []


def winners(state: GameState) -> tuple[list[int], str | None]:
    """R27: most prestige; ties go to the dearest Cathedral, else the dearest Church, else shared."""
    top = max(p.score for p in state.players)
    tied = [s for s, p in enumerate(state.players) if p.score == top]
    if len(tied) == 1:
        return tied, None
    for tile in ("cathedral", "church"):
        values = {s: getattr(state.players[s].tiles, tile) for s in tied}
        held = [v for v in values.values() if v is not None]
        if held:
            best = max(held)
            return [s for s in tied if values[s] == best], tile
    return tied, "shared"


def _game_over(state: GameState, events: list) -> None:
    won, tiebreak = winners(state)
    state.phase = "game_over"
    state.winners = ids(state, won)
    events.append(
        ev.public(
            "game_over",
            winners=state.winners,
            scores={p.id: p.score for p in state.players},
            tiebreak=tiebreak,
        )
    )


# --- what phase 2 allows


def legal_buy(state: GameState, seat: int) -> list:
    p = state.players[seat]
    return [BuyChoice(offered=p.offered[:], prices=[CARD_PRICE[c] for c in p.offered], budget=p.money)]


def legal_return(state: GameState, seat: int) -> list:
    return [ReturnCard(card=c) for c in dict.fromkeys(state.players[seat].hand)]
