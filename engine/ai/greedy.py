"""A one-ply greedy player: a yardstick for the levels, not a level offered to players.

It values positions as the normal level does (valuation.py) but looks one action
ahead and no further:
- a privilege is used one action at a time, each time the single action (or
  stopping) that leaves the best position; a card is taken for its best single action;
- it bids one card above the high bid (or calls) while what the best card on
  display adds is worth more than the cards it would lay down, with no thought of
  who else might stay in or what they hold;
- purchases, reveals and discards keep the plain rules of thumb of the normal level.
Its views are its own (it reads nothing hidden) and it keeps no state.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import (
    ActionModel,
    Bid,
    Build,
    Buy,
    BuyChoice,
    Call,
    Compensate,
    Discard,
    Done,
    LegalOption,
    Pass,
    ReturnCard,
    Reveal,
    RevealChoice,
    TakeCard,
    Use,
)
from ..events import Event
from ..rules import valid_cards
from ..views import View
from . import bidding, cards, plan
from .plan import Part
from .situation import Board, Horizon, Me, board_from_view, horizon, me_from_view
from .valuation import card_time_factor, card_worth, gain_prestige, position_value


class GreedyPlayer:
    level = "greedy"
    heavy = False

    def __init__(self, seed: int = 0):
        self.seed = seed

    def decide(self, view: View, history: Sequence[Event] = ()) -> ActionModel:
        assert view.you is not None
        legal = view.you.legal_actions
        first = legal[0]
        hz, me, board = horizon(view), me_from_view(view), board_from_view(view)
        ed = view.edition
        if isinstance(first, BuyChoice):
            return Buy(cards=cards.choose_purchase(first.offered, first.prices, first.budget, me, hz, board.tops))
        if isinstance(first, RevealChoice):
            assert view.showdown is not None
            return Reveal(cards=bidding.reveal_cards(first.cards, first.count, len(view.showdown.players) == 1, ed))
        if view.phase == "auction":
            return self._bid(view, legal, me, board, hz)
        if view.phase == "shortage":
            return ReturnCard(card=cards.least_useful(view.you.hand, ed))
        t = view.privilege
        assert t is not None
        if t.awaiting == "compensation":
            prouder = me.copy()
            gain_prestige(prouder, ed.compensation_prestige)
            return Compensate(take="prestige" if prouder.score > me.score else "money")
        if t.awaiting == "discard":
            return Discard(card=cards.least_useful(view.you.hand, ed))
        if t.awaiting == "take_card":
            return TakeCard(card=max(view.privilege_display, key=lambda c: best_step(c, [], False, me, board, hz)[0]))
        assert t.card is not None  # (taken: awaiting "privileges")
        _, part = best_step(t.card, t.used, t.built, me, board, hz)
        if part is None:
            return Done()
        _, slot, as_ = part
        if slot is None:
            assert as_ is not None  # (the extra build's building)
            return Build(what=as_)
        uses = [a for a in legal if isinstance(a, Use) and a.slot == slot and a.as_ == as_]
        return uses[0] if uses else Done()

    def _bid(self, view: View, legal: list[LegalOption], me: Me, board: Board, hz: Horizon) -> ActionModel:
        if not view.privilege_display:
            return Pass()
        gain = max(best_step(c, [], False, me, board, hz)[0] for c in view.privilege_display)
        gain -= position_value(me, hz, board.tops)
        ed = view.edition
        assert view.you is not None and view.auction is not None and view.noble is not None
        valid = valid_cards(view.you.hand, view.noble, ed)

        def worth_it(count: int) -> bool:
            laid = bidding.reveal_cards(valid, count, True, ed)
            return gain > sum(card_worth(c, ed) for c in laid) * card_time_factor(hz)

        raise_ = next((a for a in legal if isinstance(a, Bid)), None)
        if raise_ is not None and worth_it(raise_.count):
            return raise_
        if Call() in legal and worth_it(view.auction.high):
            return Call()
        return Pass()


def best_step(card: str, used: list[int], built: bool, me: Me, board: Board,
              hz: Horizon) -> tuple[float, Part | None]:
    """The value of the position after the best single next action on `card` (or stopping), and that action."""
    best = float("-inf")
    best_part: Part | None = None
    for candidate in plan.candidate_plans(card, used, built, me, board):
        if len(candidate) > 1:
            continue
        after = plan.simulate(card, used, candidate, me, board)
        if after is not None and (value := position_value(after, hz, board.tops)) > best + 1e-9:
            best, best_part = value, (candidate[0] if candidate else None)
    return best, best_part
