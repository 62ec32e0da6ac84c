"""The moves the strong player weighs against each other at a decision it searches.

- an auction: passing, calling, the two lowest raises, the highest (every valid card: a bid the others may not
  be able to follow), and the normal player's choice;
- taking a privilege card: every card on display;
- using a privilege card: the first steps of the best PLANS_TRIED plans (plan.py), each then carried on as
  the normal player would from there (none now: see PLANS_TRIED);
- a round-end purchase: the normal player's, one card fewer, one card more, and nothing at all.
Anything else is the normal player's alone, the first purchase of the game too: its playouts end with round 1, too
soon to see what the cards bought are worth, and searched it bought one card fewer than the normal player in 35 of
437 games, each time played on in the true game to a final score lead 6.3 +- 4.3 points lower. The normal player's
choice is always among them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..actions import ActionModel, Bid, Build, Buy, BuyChoice, Call, Done, LegalOption, Pass, TakeCard, Use
from ..edition import Edition
from ..views import View
from . import plan
from .bidding import spend_order
from .plan import Part
from .situation import board_from_view, horizon, me_from_view
from .valuation import position_value

EXTRA_BIDS = 2  # the lowest raises tried (besides the highest and the normal player's own choice)
# Privilege plans whose first steps are tried: 1 leaves using a privilege card to the normal player's planner
# (plan.py). Searched, its first steps overruled the planner's for the worse in each of four measurements
# (the final lead, played on in the true state, summed over the overruled decisions: -167, -58, -75, -168)
# and took a quarter of the strong level's work.
PLANS_TRIED = 1


def candidates(view: View, usual: ActionModel) -> list[ActionModel]:
    assert view.you is not None
    legal = view.you.legal_actions
    picked: list[ActionModel]
    awaiting = None  # what a privilege card's user must do now (privilege phase only)
    if view.phase == "privilege":
        assert view.privilege is not None
        awaiting = view.privilege.awaiting
    if view.phase == "auction":
        picked = [a for a in legal if isinstance(a, (Pass, Call))]
        bids = [a for a in legal if isinstance(a, Bid)]
        picked += bids[:EXTRA_BIDS] + bids[-1:] if len(bids) > EXTRA_BIDS else bids
    elif awaiting == "take_card":
        picked = [a for a in legal if isinstance(a, TakeCard)]
    elif awaiting == "privileges" and PLANS_TRIED > 1:
        picked = first_steps(view, PLANS_TRIED)
    elif isinstance(usual, Buy) and view.phase == "round_end_purchase":
        option = legal[0]
        assert isinstance(option, BuyChoice)  # (a purchase's one option)
        picked = purchases(option, usual, view.edition)
    else:
        return [usual]
    if usual not in picked:
        picked.append(usual)
    return picked


def first_steps(view: View, count: int) -> list[ActionModel]:
    """The first actions of the `count` most valuable plans for the privilege card in use (distinct ones)."""
    t = view.privilege
    assert t is not None and t.card is not None and view.you is not None
    me, board, hz = me_from_view(view), board_from_view(view), horizon(view)
    ranked: list[tuple[float, plan.Plan]] = []
    for steps in plan.candidate_plans(t.card, t.used, t.built, me, board):
        after = plan.simulate(t.card, t.used, steps, me, board)
        if after is not None:
            ranked.append((position_value(after, hz, board.tops), steps))
    ranked.sort(key=lambda r: -r[0])
    picked: list[ActionModel] = []
    for _, steps in ranked:
        action = first_action(steps, view.you.legal_actions, board.scores)
        if action not in picked:
            picked.append(action)
            if len(picked) == count:
                break
    return picked


def first_action(steps: Sequence[Part], legal: list[LegalOption], scores: dict[str, int]) -> ActionModel:
    """The action that carries out the first step of a plan (as the normal player does it)."""
    if not steps:
        return Done()
    _, slot, as_ = steps[0]
    if slot is None:
        assert as_ is not None  # (the extra build's building)
        return Build(what=as_)
    uses = [a for a in legal if isinstance(a, Use) and a.slot == slot and a.as_ == as_]
    if not uses:
        return Done()
    # Rob the one with the most prestige.
    return max(uses, key=lambda a: scores.get(a.from_, -1) if a.from_ is not None else -1)


def purchases(option: BuyChoice, usual: Buy, ed: Edition) -> list[ActionModel]:
    """The normal player's purchase, one card fewer, one card more, and nothing at all."""
    price = dict(zip(option.offered, option.prices, strict=True))
    chosen = spend_order(usual.cards, ed)  # least worth keeping first
    picked: list[ActionModel] = [usual, Buy(cards=[])]
    if chosen:
        picked.append(Buy(cards=chosen[1:]))
    left = Counter(option.offered) - Counter(usual.cards)
    spent = sum(price[c] for c in usual.cards)
    more = [c for c in spend_order(list(left.elements()), ed) if spent + price[c] <= option.budget]
    if more:
        picked.append(Buy(cards=[*usual.cards, more[-1]]))
    return [b for i, b in enumerate(picked) if b not in picked[:i]]
