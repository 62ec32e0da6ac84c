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
from ..components import JOKER, MAXIMILIAN
from ..edition import Edition
from ..rules import suggest_reveal, valid_cards
from ..views import View
from .situation import Horizon
from .valuation import WEIGHTS, Weights, card_time_factor, card_worth, money_value


@cache
def _keep_order(w: Weights, ed: Edition):
    """Sort key: least worth keeping first (a table per set of weights and edition: it is asked for constantly)."""
    return {c: (card_worth(c, ed, w), ed.card_rank(c)) for c in ed.all_cards}.__getitem__


def spend_order(cards: list[str], ed: Edition, w: Weights = WEIGHTS) -> list[str]:
    """Cards from least to most worth keeping."""
    return sorted(cards, key=_keep_order(w, ed))


def reveal_cards(valid: list[str], count: int, alone: bool, ed: Edition, w: Weights = WEIGHTS) -> list[str]:
    """R12/R13: alone, lay down the cards least worth keeping; in a showdown, the best card plus those fillers."""
    return suggest_reveal(valid, count, alone, ed, order_key=_keep_order(w, ed))


def _spent_worth(valid: list[str], count: int, alone: bool, hz: Horizon, ed: Edition, w: Weights) -> float:
    return sum(card_worth(c, ed, w) for c in reveal_cards(valid, count, alone, ed, w)) * card_time_factor(hz, w)


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


def _p_beaten(best: str | None, hand: list[str], noble: str, ed: Edition, w: Weights) -> float:
    """Chance one opponent holds a valid card beating our best, each unseen card being theirs alike."""
    if best is None:
        return 1.0
    mine = set(hand)
    card_rank = ed.card_rank
    rank = card_rank(best)
    higher = sum(1 for c in ed.certificates
                 if c not in mine and ed.is_valid_for(c, noble) and card_rank(c) > rank)
    share = min(1.0, w.opp_hand / max(1, len(ed.all_cards) - len(hand)))
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
    ed = view.edition
    alone = p_alone * (win - _spent_worth(valid, count, True, hz, ed, w))
    showdown = (p_win - p_alone) * (win - _spent_worth(valid, count, False, hz, ed, w))
    lost = (1.0 - p_win) * w.consolation * money_value(hz, w)
    return alone + showdown + lost


def choose_bid(view: View, legal: list[LegalOption], win: float, hz: Horizon, jitter: float,
               w: Weights = WEIGHTS) -> LegalOption:
    """Pass, call or raise: whatever has the highest expected value (passing is worth 0).

    `jitter` is a tiny per-decision nudge per card offered, so that copies of the player
    do not all make the same close call.
    """
    hand = view.you.hand
    ed = view.edition
    valid = valid_cards(hand, view.noble, ed)
    certs = [c for c in valid if c != JOKER]
    beaten = _p_beaten(max(certs, key=ed.card_rank) if certs else None, hand, view.noble, ed, w)
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
