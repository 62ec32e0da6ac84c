"""Card decisions outside auctions: buying, the draw-2 discard, the R24 shortage return."""

from __future__ import annotations

from ..components import TileValue
from ..edition import Edition
from .bidding import spend_order
from .situation import Horizon, Me
from .valuation import WEIGHTS, Weights, card_time_factor, card_worth, position_value


def choose_purchase(offered: list[str], prices: list[int], budget: int, me: Me, hz: Horizon,
                    tops: dict[str, TileValue | None], w: Weights = WEIGHTS) -> list[str]:
    """Buy, best first, every card worth more in future auctions than the money it takes.

    The money side is measured with `position_value`, so what a card costs includes the
    Church or Cathedral it might leave us unable to pay for.
    """
    factor = card_time_factor(hz, w)
    ed = me.ed
    order = sorted(range(len(offered)), key=lambda i: card_worth(offered[i], ed, w) - prices[i] * w.money_value,
                   reverse=True)
    bought: list[str] = []
    after = me.copy()
    value = position_value(after, hz, tops, w)
    for i in order:
        if prices[i] > min(budget, after.money):
            continue
        poorer = after.copy()
        poorer.money -= prices[i]
        poorer_value = position_value(poorer, hz, tops, w)
        if card_worth(offered[i], ed, w) * factor + poorer_value - value > 0:
            bought.append(offered[i])
            after, value = poorer, poorer_value
    return bought


def least_useful(hand: list[str], ed: Edition, w: Weights = WEIGHTS) -> str:
    """The card to let go of: the draw-2 discard and the shortage return."""
    return spend_order(hand, ed, w)[0]
