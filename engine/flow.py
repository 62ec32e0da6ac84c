"""The order of play: what comes after each phase, in one place.

A game: deal seven cards each, the initial purchase (R4), then rounds. A round:
five auctions, one per noble in order (R9); each auction ends with nobody
winning (R15) or with a winner who takes and uses a privilege card (R16-R20).
After the fifth noble the round is scored (R22); after the last round the game
is over (R25, R27); otherwise the deck shortage is settled if needed (R24),
cards are dealt and bought (R23), and the next round begins (R26).

Phase modules change only their own phase and return an Outcome (outcomes.py)
when it ends; `advance` turns each outcome into the next phase until one waits
for a player.
"""

from __future__ import annotations

from . import auction, privileges, purchase, round_end, setup, shortage
from . import events as ev
from .events import Event
from .outcomes import AuctionWon, CardsReturned, NobleFinished, Outcome, PurchaseResolved, RoundScored
from .state import GameState, clockwise_from


def start_game(state: GameState, events: list[Event]) -> None:
    """R4: deal, then the initial purchase."""
    setup.deal_initial(state, events)
    advance(state, purchase.start(state, "initial", clockwise_from(state, state.lead), events), events)


def start_at_auction(state: GameState, noble: int, events: list[Event]) -> None:
    """A hand-made position (SCENARIOS.md) that begins with the auction of `noble`."""
    auction.start(state, noble, events)


def advance(state: GameState, outcome: Outcome | None, events: list[Event]) -> None:
    """Carry the game on from a phase's outcome until somebody must act (None: the phase goes on)."""
    while outcome is not None:
        outcome = _after(state, outcome, events)


def _after(state: GameState, outcome: Outcome, events: list[Event]) -> Outcome | None:
    match outcome:
        case PurchaseResolved(kind=kind):
            if kind == "round_end":  # R26: the next round, with its privilege cards
                state.round += 1
                round_end.turn_privilege_cards(state)
            events.append(ev.RoundStarted(round=state.round, opener=state.players[state.lead].id))
            auction.start(state, 0, events)
            return None
        case AuctionWon(seat=winner):
            state.lead = winner  # R9: the winner opens the next auction
            if not state.privilege_display:
                return NobleFinished()  # only in hand-made positions: nothing to take (SCENARIOS convention 11)
            privileges.start(state, winner)
            return None
        case NobleFinished():
            if state.noble is not None and state.noble < len(state.edition.nobles) - 1:
                auction.start(state, state.noble + 1, events)
                return None
            state.noble = None
            return round_end.score(state, events)
        case RoundScored(last=True):
            round_end.finish(state, events)
            return None
        case RoundScored():
            if shortage.needed(state):
                shortage.start(state, events)
                return None
            return _deal(state, events)
        case CardsReturned():
            return _deal(state, events)
    raise TypeError(f"unknown outcome {outcome!r}")


def _deal(state: GameState, events: list[Event]) -> PurchaseResolved | None:
    order = round_end.deal(state, events)
    return purchase.start(state, "round_end", order, events)
