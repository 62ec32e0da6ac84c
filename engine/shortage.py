"""R24: too few cards left to deal at a round end, so players return cards from their hands.

It ends in CardsReturned once the deck is refilled (or nobody holds a card any more).
"""

from __future__ import annotations

from . import events as ev
from . import rng
from .actions import LegalOption, ReturnCard
from .common import without
from .events import Event
from .outcomes import CardsReturned
from .refusals import Illegal
from .rules import free_cards
from .state import GameState, Shortage, clockwise_from


def needed(state: GameState) -> bool:
    """Whether the round-end deal must wait for returned cards (only if somebody has one to return)."""
    return _short(state) and any(p.hand for p in state.players)


def _short(state: GameState) -> bool:
    ed = state.edition
    owed = sum(free_cards(p.levels["offices"], p.tiles.minter, ed) + ed.offices_cards[p.levels["offices"]]
               for p in state.players)
    return len(state.deck) + len(state.discard) < owed


def _holders_in_order(state: GameState) -> list[int]:
    return [s for s in clockwise_from(state, state.lead) if state.players[s].hand]


def start(state: GameState, events: list[Event]) -> None:
    events.append(ev.ShortageStarted())
    state.phase = "shortage"
    state.shortage = Shortage(remaining=_holders_in_order(state))


def to_act(state: GameState) -> list[int]:
    assert state.shortage is not None
    return state.shortage.remaining[:1]


def return_card(state: GameState, seat: int, action: ReturnCard, events: list[Event]) -> CardsReturned | None:
    """Each player in turn puts one card from hand under the deck."""
    p = state.players[seat]
    if action.card not in p.hand:
        raise Illegal("not_in_hand", action="return_card", card=action.card)
    p.hand = without(p.hand, [action.card])
    state.deck = (*state.deck, action.card)
    events.append(ev.CardReturned(player=p.id))
    events.append(ev.CardReturnedPrivate(to=p.id, card=action.card))
    sh = state.shortage
    assert sh is not None
    sh.remaining.pop(0)
    if sh.remaining:
        return None
    # Enough now is asked only after a complete pass.
    if _short(state):
        sh.remaining = _holders_in_order(state)
        if sh.remaining:
            return None
    # Everything but the current top card is shuffled under it.
    top, rest = state.deck[:1], [*state.deck[1:], *state.discard]
    state.rng = rng.shuffle(state.rng, rest)
    state.deck = (*top, *rest)
    state.discard = ()
    state.shortage = None
    events.append(ev.DeckReshuffled())
    return CardsReturned()


def legal(state: GameState, seat: int) -> list[LegalOption]:
    return [ReturnCard(card=c) for c in dict.fromkeys(state.players[seat].hand)]
