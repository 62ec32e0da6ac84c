"""Phase 2: income and prestige, the deal for the next round, the next round's privilege cards, the end (R22-R27).

Nobody acts here; flow.py calls these in order between the other phases.
"""

from __future__ import annotations

from typing import Literal

from . import events as ev
from . import rng
from .common import draw, gain_prestige, ids
from .events import Event
from .outcomes import RoundScored
from .rules import free_cards, round_prestige
from .state import GameState, clockwise_from


def score(state: GameState, events: list[Event]) -> RoundScored:
    """After the fifth auction: spend the remaining privilege cards, then pay income and prestige (R22)."""
    if state.privilege_display:
        events.append(ev.PrivilegeCardsSpent(cards=list(state.privilege_display)))
        state.privilege_spent = state.privilege_spent + state.privilege_display
        state.privilege_display = ()
    last = state.round >= state.rounds
    ed = state.edition
    for seat in clockwise_from(state, state.lead):
        p = state.players[seat]
        # R25: in the last round only prestige counts.
        money = 0 if last else ed.trade_income[p.levels["trade"]]
        p.money += money
        prestige = round_prestige(p.levels["nobility"], p.tiles.coat, p.tiles.letter, ed)
        events.append(ev.RoundIncome(player=p.id, money=money, prestige=prestige))
        gain_prestige(state, seat, prestige, "round_end", events)
    return RoundScored(last)


def deal(state: GameState, events: list[Event]) -> list[int]:
    """R23: lead first, clockwise, each takes free cards into the hand, then the offered ones.

    Returns the dealing order, which the purchase keeps for its discard pile.
    """
    order = clockwise_from(state, state.lead)
    ed = state.edition
    for seat in order:
        p = state.players[seat]
        free = [c for c in (draw(state, events) for _ in range(free_cards(p.levels["offices"], p.tiles.minter, ed)))
                if c is not None]
        p.hand = (*p.hand, *free)
        offered = [c for c in (draw(state, events) for _ in range(ed.offices_cards[p.levels["offices"]]))
                   if c is not None]
        p.offered = tuple(offered)
        events.append(ev.CardsDealt(player=p.id, free=len(free), offered=len(offered)))
        if free:
            events.append(ev.HandCards(to=p.id, cards=free, reason="free"))
        events.append(ev.OfferedCards(to=p.id, cards=offered))
    return order


def turn_privilege_cards(state: GameState) -> None:
    """R7/R26: even rounds show the waiting half; odd rounds reshuffle all ten."""
    if state.round % 2 == 0:
        state.privilege_display = state.privilege_waiting
        state.privilege_waiting = ()
        return
    cards = sorted(state.privilege_display + state.privilege_waiting + state.privilege_spent, key=int)
    state.rng = rng.shuffle(state.rng, cards)
    display = state.edition.privilege_display_size
    state.privilege_display = tuple(cards[:display])
    state.privilege_waiting = tuple(cards[display:])
    state.privilege_spent = ()


def winners(state: GameState) -> tuple[list[int], Literal["cathedral", "church", "shared"] | None]:
    """R27: most prestige; ties go to the dearest Cathedral, else the dearest Church, else shared."""
    top = max(p.score for p in state.players)
    tied = [s for s, p in enumerate(state.players) if p.score == top]
    if len(tied) == 1:
        return tied, None
    buildings: tuple[Literal["cathedral", "church"], ...] = ("cathedral", "church")
    for tile in buildings:
        values = {s: getattr(state.players[s].tiles, tile) for s in tied}
        held = [v for v in values.values() if v is not None]
        if held:
            best = max(held)
            return [s for s in tied if values[s] == best], tile
    return tied, "shared"


def finish(state: GameState, events: list[Event]) -> None:
    """R27: the game is over; name the winners."""
    won, tiebreak = winners(state)
    state.phase = "game_over"
    state.winners = ids(state, won)
    scores = {p.id: p.score for p in state.players}
    events.append(ev.GameOver(winners=state.winners, scores=scores, tiebreak=tiebreak))
