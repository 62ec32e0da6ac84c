"""Auctions: how many cards to offer, and which cards to lay down.

A bid is weighed as a bet: winning is worth the best privilege card still on
display (planned with `plan.best_card`), and costs the cards laid down. Whether
the others drop out or go to a showdown, and whether our highest card would win
it, is estimated from public information and our own hand only: a card we hold
cannot be in anybody else's hand.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..actions import ActionModel, Bid, Call, LegalOption, Pass
from ..components import JOKER, MAXIMILIAN
from ..edition import Edition, Rank
from ..rules import suggest_reveal, valid_cards
from .atoms import atom
from .seen import SeenView
from .situation import Horizon
from .valuation import WEIGHTS, Weights, card_time_factor, card_worth, money_value

_PASS = Pass()  # (frozen: one will do)


@cache
def _keep_order(w: Weights, ed: Edition) -> Callable[[str], tuple[float, Rank]]:
    """Sort key: least worth keeping first (a table per set of weights and edition: it is asked for constantly)."""
    return {c: (card_worth(c, ed, w), ed.card_rank(c)) for c in ed.all_cards}.__getitem__


def spend_order(cards: list[str], ed: Edition, w: Weights = WEIGHTS) -> list[str]:
    """Cards from least to most worth keeping."""
    return sorted(cards, key=_keep_order(w, ed))


def reveal_cards(valid: list[str], count: int, alone: bool, ed: Edition, w: Weights = WEIGHTS) -> list[str]:
    """R12/R13: alone, lay down the cards least worth keeping; in a showdown, the best card plus those fillers."""
    return suggest_reveal(valid, count, alone, ed, order_key=_keep_order(w, ed))


# What the cards laid down are worth, by (valid cards, count, alone, edition's and weights' atoms).
_LAID: dict[tuple[tuple[str, ...], int, bool, int, int], float] = {}
LAID_KEPT = 16384


def _laid_worth(valid: tuple[str, ...], count: int, alone: bool, ed: Edition, w: Weights) -> float:
    """What the cards laid down for `count` are worth (remembered: bids are weighed again and again)."""
    key = (valid, count, alone, atom(ed), atom(w))
    found = _LAID.get(key)
    if found is None:
        if len(_LAID) >= LAID_KEPT:
            _LAID.clear()
        found = _LAID[key] = sum(card_worth(c, ed, w) for c in reveal_cards(list(valid), count, alone, ed, w))
    return found


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
    above = _above(ed, noble)
    rank = ed.card_rank(best)
    mine = {c for c in hand if c in above and ed.card_rank(c) > rank}  # ours, so not theirs
    higher = above[best] - len(mine)
    share = min(1.0, w.opp_hand / max(1, len(ed.all_cards) - len(hand)))
    return 1.0 - (1.0 - share) ** higher


@cache
def _above(ed: Edition, noble: str) -> dict[str, int]:
    """For each certificate valid for `noble`: how many valid certificates rank above it."""
    valid = sorted((c for c in ed.certificates if ed.is_valid_for(c, noble)), key=ed.card_rank)
    return {c: len(valid) - 1 - i for i, c in enumerate(valid)}


def bid_value(view: SeenView, count: int, win: float, valid: list[str], beaten: float, hz: Horizon,
              w: Weights = WEIGHTS) -> float:
    """Expected points of holding the high bid at `count` cards (against passing, which is 0).

    `valid` are our cards valid for this noble; `beaten` the chance that one opponent who
    stays in holds a better card than our best.
    """
    return _bid_value(view, count, win, tuple(valid), beaten, card_time_factor(hz, w), money_value(hz, w), w)


def _bid_value(view: SeenView, count: int, win: float, valid: tuple[str, ...], beaten: float, factor: float,
               money: float, w: Weights, offers: list[int] | None = None) -> float:
    """`bid_value`, with what does not depend on the bid worked out once per decision (`factor`: the
    cards' time factor, `money`: points per guilder, `offers`: those of the others still in)."""
    if offers is None:
        offers = _offers(view)
    p_alone = p_win = 1.0
    noble = view.noble
    assert noble is not None  # (an auction is of a noble)
    for offer in offers:
        # The current high bidder stays when we only call; anyone else must find `count` cards.
        stays = 1.0 if offer >= count else w.opp_stay * _p_able(count, offer, noble, w)
        p_alone *= 1.0 - stays
        p_win *= 1.0 - stays * beaten
    ed = view.edition
    alone = p_alone * (win - _laid_worth(valid, count, True, ed, w) * factor)
    showdown = (p_win - p_alone) * (win - _laid_worth(valid, count, False, ed, w) * factor)
    lost = (1.0 - p_win) * w.consolation * money
    return alone + showdown + lost


def _offers(view: SeenView) -> list[int]:
    """The cards offered so far by each other player still in the auction, in seating order."""
    assert view.auction is not None and view.you is not None
    a, me = view.auction, view.you.id
    return [a.offers.get(p.id, 0) for p in view.players if p.id != me and p.id not in a.passed]


def choose_bid(view: SeenView, legal: list[LegalOption], win: float, hz: Horizon, jitter: float,
               w: Weights = WEIGHTS) -> ActionModel:
    """Pass, call or raise: whatever has the highest expected value (passing is worth 0).

    `jitter` is a tiny per-decision nudge per card offered, so that copies of the player
    do not all make the same close call.
    """
    assert view.you is not None and view.auction is not None and view.noble is not None
    hand = view.you.hand
    ed = view.edition
    valid = valid_cards(hand, view.noble, ed)
    certs = [c for c in valid if c != JOKER]
    beaten = _p_beaten(max(certs, key=ed.card_rank) if certs else None, hand, view.noble, ed, w)
    best: ActionModel = _PASS
    best_value = 0.0
    valid_t, factor, money, offers = tuple(valid), card_time_factor(hz, w), money_value(hz, w), _offers(view)
    for option in legal:
        if isinstance(option, Call):
            count = view.auction.high
        elif isinstance(option, Bid):
            count = option.count
        else:
            continue
        value = _bid_value(view, count, win, valid_t, beaten, factor, money, w, offers) + jitter * count
        if value > best_value:
            best, best_value = option, value
    return best
