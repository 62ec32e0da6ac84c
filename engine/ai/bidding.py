"""Auctions: how many cards to offer, and which cards to lay down.

A bid is weighed as a bet: winning is worth the best privilege card still on
display (planned with `plan.best_card`), and costs the cards laid down. Whether
the others drop out or go to a showdown, and whether our highest card would win
it, is estimated from public information and our own hand only: a card we hold
cannot be in anybody else's hand.
"""

from __future__ import annotations

from functools import cache

from ..actions import Bid, Call, LegalOption, Pass
from ..components import ALL_CARDS, CERTIFICATES, JOKER, MAXIMILIAN, card_rank, is_valid_for
from ..rules import suggest_reveal, valid_cards
from ..views import View
from .situation import Horizon
from .valuation import WEIGHTS, Weights, card_time_factor, card_worth, money_value


@cache
def _keep_order(w: Weights):
    """Sort key: least worth keeping first (a table per set of weights: it is asked for constantly)."""
    return {c: (card_worth(c, w), card_rank(c)) for c in ALL_CARDS}.__getitem__


def spend_order(cards: list[str], w: Weights = WEIGHTS) -> list[str]:
    """Cards from least to most worth keeping."""
    return sorted(cards, key=_keep_order(w))


def reveal_cards(valid: list[str], count: int, alone: bool, w: Weights = WEIGHTS) -> list[str]:
    """R12/R13: alone, lay down the cards least worth keeping; in a showdown, the best card plus those fillers."""
    return suggest_reveal(valid, count, alone, order_key=_keep_order(w))


def _spent_worth(valid: list[str], count: int, alone: bool, hz: Horizon, w: Weights) -> float:
    return sum(card_worth(c, w) for c in reveal_cards(valid, count, alone, w)) * card_time_factor(hz, w)


def _p_able(k: int, offer: int, noble: str, w: Weights) -> float:
    """Chance an opponent holds at least k valid cards, knowing they already offered `offer`."""
    if noble == MAXIMILIAN:
        first, decay = w.opp_first_max, w.opp_decay_max
    else:
        first, decay = w.opp_first_noble, w.opp_decay_noble
    if k <= offer:
        return 1.0
    if offer:
        return decay ** (k - offer)
    return first * decay ** (k - 1)


def _p_beaten(best: str | None, hand: list[str], noble: str, w: Weights) -> float:
    """Chance one opponent holds a valid card beating our best, each unseen card being theirs alike."""
    if best is None:
        return 1.0
    mine = set(hand)
    rank = card_rank(best)
    higher = sum(1 for c in CERTIFICATES
                 if c not in mine and is_valid_for(c, noble) and card_rank(c) > rank)
    share = min(1.0, w.opp_hand / max(1, len(ALL_CARDS) - len(hand)))
    return 1.0 - (1.0 - share) ** higher


def bid_value(view: View, count: int, win: float, valid: list[str], beaten: float, hz: Horizon,
              w: Weights = WEIGHTS) -> float:
    """Expected points of holding the high bid at `count` cards (against passing, which is 0).

    `valid` are our cards valid for this noble; `beaten` the chance that one opponent who
    stays in holds a better card than our best.
    """
    a = view.auction
    p_alone = p_win = 1.0
    for p in view.players:
        if p.id == view.you.id or p.id in a.passed:
            continue
        offer = a.offers.get(p.id, 0)
        # The current high bidder stays when we only call; anyone else must find `count` cards.
        stays = 1.0 if offer >= count else w.opp_stay * _p_able(count, offer, view.noble, w)
        p_alone *= 1.0 - stays
        p_win *= 1.0 - stays * beaten
    alone = p_alone * (win - _spent_worth(valid, count, True, hz, w))
    showdown = (p_win - p_alone) * (win - _spent_worth(valid, count, False, hz, w))
    lost = (1.0 - p_win) * w.consolation * money_value(hz, w)
    return alone + showdown + lost


def choose_bid(view: View, legal: list[LegalOption], win: float, hz: Horizon, jitter: float,
               w: Weights = WEIGHTS) -> LegalOption:
    """Pass, call or raise: whatever has the highest expected value (passing is worth 0).

    `jitter` is a tiny per-decision nudge per card offered, so that copies of the player
    do not all make the same close call.
    """
    hand = view.you.hand
    valid = valid_cards(hand, view.noble)
    certs = [c for c in valid if c != JOKER]
    beaten = _p_beaten(max(certs, key=card_rank) if certs else None, hand, view.noble, w)
    best, best_value = Pass(), 0.0
    for option in legal:
        if isinstance(option, Call):
            count = view.auction.high
        elif isinstance(option, Bid):
            count = option.count
        else:
            continue
        value = bid_value(view, count, win, valid, beaten, hz, w) + jitter * count
        if value > best_value:
            best, best_value = option, value
    return best
