"""The computer player: one decision from one View.

`ComputerPlayer(seed).decide(view)` reads only `player_view(state, me)` and keeps
no state between calls, so it can be rebuilt at any time (after a bot restart)
and gives the same action for the same seed and view. The small random jitter
that keeps copies of it from mirroring each other comes from the seed, the
player's id and the move number.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from functools import lru_cache

from ..actions import (
    ActionModel,
    Build,
    Buy,
    BuyChoice,
    Compensate,
    Discard,
    Done,
    LegalOption,
    ReturnCard,
    Reveal,
    RevealChoice,
    TakeCard,
    Use,
)
from ..events import Event
from ..levels import Level
from . import bidding, cards, plan
from .seen import SeenView
from .situation import board_from_view, horizon, me_from_view, tops_from_view
from .valuation import WEIGHTS, Weights, gain_prestige, position_value


class ComputerPlayer:
    """The normal level."""

    level: Level = "normal"
    heavy = False  # a decision takes about a millisecond: fine on the event loop

    def __init__(self, seed: int = 0, weights: Weights = WEIGHTS):
        self.seed = seed
        self.w = weights  # tuning knobs; the defaults are the tuned ones

    def decide(self, view: SeenView, history: Sequence[Event] = ()) -> ActionModel:
        """The action to take now; `view` must be this player's own view while it is to act.
        (`history` is not needed: the normal player reads the view alone.)"""
        if view.you is None or not view.you.legal_actions:
            raise ValueError("this view has no decision to take")
        legal = view.you.legal_actions
        first = legal[0]
        if isinstance(first, BuyChoice):
            return self._buy(view, first)
        if isinstance(first, RevealChoice):
            return self._reveal(view, first)
        if view.phase == "auction":
            return self._auction(view, legal)
        if view.phase == "privilege":
            return self._privilege(view, legal)
        if view.phase == "shortage":
            return _legal(legal, ReturnCard(card=cards.least_useful(view.you.hand, view.edition, self.w)))
        raise ValueError(f"no decision known for phase {view.phase}")

    def _rng(self, view: SeenView) -> random.Random:
        """Randomness derived from the seed and the view: the same view always gets the same draw."""
        return random.Random(self._draw(view))

    def _draw(self, view: SeenView) -> int:
        assert view.you is not None
        return zlib.crc32(f"{self.seed}:{view.you.id}:{view.round}:{view.moves}".encode())

    # --- auctions

    def _auction(self, view: SeenView, legal: list[LegalOption]) -> ActionModel:
        if len(legal) == 1:
            only = legal[0]
            assert not isinstance(only, (BuyChoice, RevealChoice))  # (an auction offers actions only)
            return only
        hz = horizon(view)
        me, board = me_from_view(view), board_from_view(view)
        # Winning is worth the best card on display, used in the best way, against not winning.
        # (With nothing on display, which only hand-made positions allow, winning gives nothing.)
        win = 0.0
        if view.privilege_display:
            best, _ = plan.best_card(view.privilege_display, me, board, hz, self.w)
            win = best - position_value(me, hz, board.tops, self.w)
        jitter = _jitter(self._draw(view))
        return bidding.choose_bid(view, legal, win, hz, jitter, self.w)

    def _reveal(self, view: SeenView, option: RevealChoice) -> Reveal:
        assert view.showdown is not None
        alone = len(view.showdown.players) == 1
        return Reveal(cards=bidding.reveal_cards(option.cards, option.count, alone, view.edition, self.w))

    # --- privileges

    def _privilege(self, view: SeenView, legal: list[LegalOption]) -> ActionModel:
        t = view.privilege
        assert t is not None and view.you is not None
        if t.awaiting == "compensation":
            return self._compensation(view)
        if t.awaiting == "discard":
            return _legal(legal, Discard(card=cards.least_useful(view.you.hand, view.edition, self.w)))
        hz = horizon(view)
        me, board = me_from_view(view), board_from_view(view)
        if t.awaiting == "take_card":
            _, card = plan.best_card(view.privilege_display, me, board, hz, self.w)
            return _legal(legal, TakeCard(card=card))
        assert t.card is not None  # (taken: awaiting "privileges")
        _, steps = plan.best_plan(t.card, t.used, t.built, me, board, hz, self.w)
        if not steps:
            return Done()
        _, slot, as_ = steps[0]
        if slot is None:
            assert as_ is not None  # (the extra build's building)
            return _legal(legal, Build(what=as_))
        uses = [a for a in legal if isinstance(a, Use) and a.slot == slot and a.as_ == as_]
        if not uses:
            return Done()  # the plan misread the table; stopping is always legal
        # A step out of the supply has one option; a step taken from a player, one per holder:
        # rob the one with the most prestige, who is the most dangerous.
        return max(uses, key=lambda a: board.scores.get(a.from_, -1) if a.from_ is not None else -1)

    def _compensation(self, view: SeenView) -> Compensate:
        """Robbed of a step: the prestige unless the limit swallows it or the guilders are worth more."""
        hz = horizon(view)
        me, tops = me_from_view(view), tops_from_view(view)
        richer = me.copy()
        richer.money += view.edition.compensation_money
        prouder = me.copy()
        gain_prestige(prouder, view.edition.compensation_prestige)
        if position_value(prouder, hz, tops, self.w) >= position_value(richer, hz, tops, self.w):
            return Compensate(take="prestige")
        return Compensate(take="money")

    # --- purchases

    def _buy(self, view: SeenView, option: BuyChoice) -> Buy:
        hz = horizon(view)
        me = me_from_view(view)
        chosen = cards.choose_purchase(option.offered, option.prices, option.budget, me, hz, tops_from_view(view),
                                       self.w)
        return Buy(cards=chosen)


@lru_cache(maxsize=1 << 16)
def _jitter(draw: int) -> float:
    """`_rng(view).uniform(-0.05, 0.05)`, remembered: a search meets the same seat and move in world after world,
    and seeding a generator costs more than the rest of a bid."""
    return random.Random(draw).uniform(-0.05, 0.05)


def _legal(legal: list[LegalOption], action: ActionModel) -> ActionModel:
    """`action`, checked to be one of the legal options (so a decision can only ever be a legal one)."""
    if action not in legal:
        raise ValueError(f"{action!r} is not a legal option")
    return action
