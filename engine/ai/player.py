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

from ..actions import ActionModel, Buy, Reveal, parse_action
from ..views import View
from . import bidding, cards, plan
from .situation import board_from_view, horizon, me_from_view
from .valuation import WEIGHTS, Weights, gain_prestige, position_value


class ComputerPlayer:
    def __init__(self, seed: int = 0, weights: Weights = WEIGHTS):
        self.seed = seed
        self.w = weights  # tuning knobs; the defaults are the tuned ones

    def decide(self, view: View) -> ActionModel:
        """The action to take now; `view` must be this player's own view while it is to act."""
        if view.you is None or not view.you.legal_actions:
            raise ValueError("this view has no decision to take")
        legal = view.you.legal_actions
        first = legal[0]
        if first.get("kind") == "buy_choice":
            return self._buy(view, first)
        if first.get("kind") == "reveal_choice":
            return self._reveal(view, first)
        if view.phase == "auction":
            return parse_action(self._auction(view, legal))
        if view.phase == "privilege":
            return parse_action(self._privilege(view, legal))
        if view.phase == "shortage":
            return parse_action(_matching(legal, "return_card", card=cards.least_useful(view.you.hand, self.w)))
        raise ValueError(f"no decision known for phase {view.phase}")

    def _rng(self, view: View) -> random.Random:
        """Randomness derived from the seed and the view: the same view always gets the same draw."""
        key = f"{self.seed}:{view.you.id}:{view.round}:{view.moves}".encode()
        return random.Random(zlib.crc32(key))

    # --- auctions

    def _auction(self, view: View, legal: list[dict]) -> dict:
        if len(legal) == 1:
            return legal[0]
        hz = horizon(view)
        me, board = me_from_view(view), board_from_view(view)
        # Winning is worth the best card on display, used in the best way, against not winning.
        # (With nothing on display, which only hand-made positions allow, winning gives nothing.)
        win = 0.0
        if view.privilege_display:
            best, _ = plan.best_card(view.privilege_display, me, board, hz, self.w)
            win = best - position_value(me, hz, board.tops, self.w)
        jitter = self._rng(view).uniform(-0.05, 0.05)
        return bidding.choose_bid(view, legal, win, hz, jitter, self.w)

    def _reveal(self, view: View, option: dict) -> Reveal:
        alone = len(view.showdown.players) == 1
        return Reveal(cards=bidding.reveal_cards(option["cards"], option["count"], alone, self.w))

    # --- privileges

    def _privilege(self, view: View, legal: list[dict]) -> dict:
        t = view.privilege
        if t.awaiting == "compensation":
            return self._compensation(view)
        if t.awaiting == "discard":
            return _matching(legal, "discard", card=cards.least_useful(view.you.hand, self.w))
        hz = horizon(view)
        me, board = me_from_view(view), board_from_view(view)
        if t.awaiting == "take_card":
            _, card = plan.best_card(view.privilege_display, me, board, hz, self.w)
            return _matching(legal, "take_card", card=card)
        _, steps = plan.best_plan(t.card, t.used, t.built, me, board, hz, self.w)
        if not steps:
            return {"do": "done"}
        _, slot, as_ = steps[0]
        if slot is None:
            return _matching(legal, "build", what=as_)
        uses = [a for a in legal if a["do"] == "use" and a["slot"] == slot and a.get("as") == as_]
        if not uses:
            return {"do": "done"}  # the plan misread the table; stopping is always legal
        # A step out of the supply has one option; a step taken from a player, one per holder:
        # rob the one with the most prestige, who is the most dangerous.
        return max(uses, key=lambda a: board.scores.get(a.get("from"), -1))

    def _compensation(self, view: View) -> dict:
        """Robbed of a step: +1 prestige unless the limit swallows it or 100 guilders are worth more."""
        hz = horizon(view)
        me, board = me_from_view(view), board_from_view(view)
        richer = me.copy()
        richer.money += 100
        prouder = me.copy()
        gain_prestige(prouder, 1)
        if position_value(prouder, hz, board.tops, self.w) >= position_value(richer, hz, board.tops, self.w):
            return {"do": "compensate", "take": "prestige"}
        return {"do": "compensate", "take": "money"}

    # --- purchases

    def _buy(self, view: View, option: dict) -> Buy:
        hz = horizon(view)
        me, board = me_from_view(view), board_from_view(view)
        chosen = cards.choose_purchase(option["offered"], option["prices"], option["budget"], me, hz, board.tops,
                                       self.w)
        return Buy(cards=chosen)


def _matching(legal: list[dict], do: str, **fields) -> dict:
    """The legal action with these fields (so a decision can only ever be a legal one)."""
    for a in legal:
        if a.get("do") == do and all(a.get(k) == v for k, v in fields.items()):
            return a
    raise ValueError(f"no legal {do} with {fields}")
