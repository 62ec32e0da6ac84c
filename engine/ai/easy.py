"""The easy level: the normal player with a beginner's habits.

A beginner plays legal, sensible-looking moves but:
- does not see the prestige limits coming (it counts on building a Church or a
  Cathedral whenever it needs one), so points pile up against 25 and 45 and are lost;
- holds on to money, and leaves guilders unspent at the end;
- hopes the others will drop out, and so raises into showdowns it then loses;
- now and then takes a privilege card on a whim rather than the best one.
Its decisions are still its own view's and its seed's alone, so they are repeatable.
"""

from __future__ import annotations

from ..actions import ActionModel, LegalOption, TakeCard
from ..levels import Level
from .player import ComputerPlayer
from .seen import SeenView
from .valuation import Weights

BEGINNER = Weights(build_chance=0.3, build_chance_mb=0.6, money_value=0.005, money_value_late=0.002,
                   opp_stay=0.25, opp_first_noble=0.4, opp_first_max=0.6)
WHIM = 0.3  # how often the privilege card is picked at random


class EasyPlayer(ComputerPlayer):
    level: Level = "easy"

    def __init__(self, seed: int = 0):
        super().__init__(seed, BEGINNER)

    def _privilege(self, view: SeenView, legal: list[LegalOption]) -> ActionModel:
        rnd = self._rng(view)
        assert view.privilege is not None
        if view.privilege.awaiting == "take_card" and rnd.random() < WHIM:
            return TakeCard(card=rnd.choice(view.privilege_display))
        return super()._privilege(view, legal)
