"""Phase 1: the auction of one noble and its showdown (R9-R15).

It ends in NobleFinished when everybody passes, else in AuctionWon.
"""

from __future__ import annotations

from functools import cache

from . import events as ev
from .actions import Bid, Call, LegalOption, Pass, Reveal, RevealChoice
from .common import ids, without
from .components import JOKER
from .events import Event
from .outcomes import AuctionWon, NobleFinished
from .refusals import Illegal
from .rules import (
    bid_capacity,
    filler_order,
    keep_a_certificate,
    last_round_order,
    missing_card,
    suggest_reveal,
    valid_cards,
)
from .state import Auction, GameState, Showdown


def start(state: GameState, noble: int, events: list[Event]) -> None:
    n = len(state.players)
    state.phase = "auction"
    state.noble = noble
    state.auction = Auction(turn=state.lead, offers=[0] * n, passed=[False] * n)
    events.append(ev.AuctionStarted(noble=state.edition.nobles[noble], opener=state.players[state.lead].id))


def _noble(state: GameState) -> str:
    assert state.noble is not None  # auctions and showdowns are of a noble
    return state.edition.nobles[state.noble]


def to_act(state: GameState) -> list[int]:
    a = state.auction
    assert a is not None
    return [a.turn]


def showdown_to_act(state: GameState) -> list[int]:
    sd = state.showdown
    assert sd is not None
    return [s for s in sorted(sd.seats) if s not in sd.reveals]


def bid(state: GameState, seat: int, action: Bid, events: list[Event]) -> NobleFinished | None:
    a = state.auction
    assert a is not None
    if action.count < 1:
        raise Illegal("bad_count", count=action.count)
    if action.count <= a.high:
        raise Illegal("bid_too_low", high=a.high)
    _check_capacity(state, seat, action.count)
    a.offers[seat] = a.high = action.count
    a.high_seat = seat
    events.append(ev.BidMade(player=state.players[seat].id, count=action.count))
    return _advance(state, seat, events)


def call(state: GameState, seat: int, action: Call, events: list[Event]) -> NobleFinished | None:
    a = state.auction
    assert a is not None
    if a.high == 0:
        raise Illegal("nothing_to_call")
    _check_capacity(state, seat, a.high)
    a.offers[seat] = a.high
    events.append(ev.Called(player=state.players[seat].id, count=a.high))
    return _advance(state, seat, events)


def pass_(state: GameState, seat: int, action: Pass, events: list[Event]) -> NobleFinished | None:
    assert state.auction is not None
    state.auction.passed[seat] = True
    events.append(ev.Passed(player=state.players[seat].id))
    return _advance(state, seat, events)


def _check_capacity(state: GameState, seat: int, count: int) -> None:
    # The refusal goes only to the bidder: nobody else learns why (R10).
    noble = _noble(state)
    cap = bid_capacity(state.players[seat].hand, noble, state.edition)
    if cap == 0:
        raise Illegal("no_valid_card", noble=noble)
    if count > cap:
        raise Illegal("too_many_cards", max=cap)


def _advance(state: GameState, seat: int, events: list[Event]) -> NobleFinished | None:
    """Give the turn to the next player still in; end the auction when it reaches the high bid (R11)."""
    a = state.auction
    assert a is not None
    n = len(state.players)
    for i in range(1, n + 1):
        nxt = (seat + i) % n
        if a.passed[nxt]:
            continue
        if a.high and a.offers[nxt] == a.high:
            _end_bidding(state, events)
        else:
            a.turn = nxt
        return None
    # Everybody passed without a bid: nobody wins this noble, the opener stays (R15).
    events.append(ev.AuctionSkipped(noble=_noble(state)))
    state.auction = None
    return NobleFinished()


def _end_bidding(state: GameState, events: list[Event]) -> None:
    a = state.auction
    assert a is not None and a.high_seat is not None  # the high bid was made by someone
    n = len(state.players)
    seats = [s for s in range(n) if not a.passed[s] and a.offers[s] == a.high]
    state.showdown = Showdown(count=a.high, seats=seats, high_seat=a.high_seat)
    state.phase = "showdown"
    events.append(ev.AuctionEnded(noble=_noble(state), players=ids(state, seats), count=a.high))


def reveal(state: GameState, seat: int, action: Reveal, events: list[Event]) -> AuctionWon | None:
    sd = state.showdown
    assert sd is not None
    hand = state.players[seat].hand
    noble = _noble(state)
    if len(action.cards) != sd.count:
        raise Illegal("wrong_count", count=sd.count)
    missing = missing_card(action.cards, hand)
    if missing is not None:
        raise Illegal("not_in_hand", action="reveal", card=missing)
    invalid = next((c for c in action.cards if not state.edition.is_valid_for(c, noble)), None)
    if invalid is not None:
        raise Illegal("invalid_card", card=invalid, noble=noble)
    if all(c == JOKER for c in action.cards):
        raise Illegal("jokers_only")
    sd.reveals[seat] = list(action.cards)
    if len(sd.reveals) < len(sd.seats):
        player = state.players[seat].id
        events.append(ev.ChoiceMade(player=player, decision="reveal"))
        events.append(ev.ChoiceRecorded(to=player, decision="reveal", cards=list(action.cards)))
        return None
    return _resolve_showdown(state, events)


def _resolve_showdown(state: GameState, events: list[Event]) -> AuctionWon:
    sd = state.showdown
    assert sd is not None
    noble = _noble(state)
    card_rank = state.edition.card_rank
    best = {s: max(card_rank(c) for c in sd.reveals[s]) for s in sd.seats}
    ranked = sorted(sd.seats, key=lambda s: best[s], reverse=True)
    winner = ranked[0]
    alone = len(sd.seats) == 1
    offers = {state.players[s].id: sd.reveals[s] for s in sd.seats}
    events.append(ev.CardsRevealed(noble=noble, offers=offers, winner=state.players[winner].id))
    cards = sd.reveals[winner]
    state.players[winner].hand = without(state.players[winner].hand, cards)
    state.discard = (*state.discard, *cards)
    events.append(ev.AuctionWon(noble=noble, player=state.players[winner].id, count=sd.count, alone=alone))
    # Consolation money only for the showdown's second and third best (R14).
    for place, amount in zip(ranked[1:], state.edition.consolation, strict=False):
        state.players[place].money += amount
        events.append(ev.Consolation(player=state.players[place].id, amount=amount))
    state.showdown = None
    state.auction = None
    return AuctionWon(winner)


# The options are frozen models, made once: the computer players' searches list them hundreds of thousands of times.
_PASS, _CALL = Pass(), Call()


@cache
def _bids(low: int, high: int) -> tuple[Bid, ...]:
    return tuple(Bid(count=c) for c in range(low, high + 1))


def legal_auction(state: GameState, seat: int) -> list[LegalOption]:
    a = state.auction
    assert a is not None
    cap = bid_capacity(state.players[seat].hand, _noble(state), state.edition)
    options: list[LegalOption] = [_PASS]
    if a.high and cap >= a.high:
        options.append(_CALL)
    options.extend(_bids(a.high + 1, cap))
    return options


def legal_reveal(state: GameState, seat: int) -> list[LegalOption]:
    """The lay-down, with a suggestion: the strongest certificate and the cheapest fillers (in the last round,
    when money no longer counts, the weakest), never leaving a hand of jokers only if it can be helped."""
    sd = state.showdown
    assert sd is not None
    ed = state.edition
    hand = state.players[seat].hand
    valid = valid_cards(hand, _noble(state), ed)
    order = last_round_order(ed) if state.round == state.rounds else filler_order(ed)
    suggested = keep_a_certificate(suggest_reveal(valid, sd.count, len(sd.seats) == 1, ed, order), hand, ed)
    return [RevealChoice(count=sd.count, cards=valid, suggested=suggested)]

