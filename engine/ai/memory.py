"""What the computer players remember between decisions, and a way to forget it all.

A searching player (strong) meets the same questions world after world, so plans, bid values, limit
losses and the like are remembered, tens of thousands of each (tens of MB when full). A process that
makes only light decisions for many games at once (the bot) rarely asks one question twice: there they
are memory that grows for minutes and objects every full garbage collection walks (a pause of the
whole bot). Such a process calls `forget()` now and then. Remembered answers are pure, so forgetting
changes no decision, only how soon the next one is made.
"""

from __future__ import annotations

from . import bidding, limits, plan, player

# Every remembered answer of the computer players that grows with the games played. Small tables
# (per edition and weights, per price set, per horizon: at most a few thousand) are kept.
SMALL = 4096
_REMEMBERED = (limits.expected_loss, player._jitter)
FEW = (bidding._keep_order, bidding._above)  # unbounded, but one per edition (and weights)
_KEPT = (plan._LISTS, plan._PLANS, plan._CARDS, bidding._LAID)


def forget() -> None:
    for remembered in _REMEMBERED:
        remembered.cache_clear()
    for kept in _KEPT:
        kept.clear()


def remembered() -> int:
    """How many answers are remembered now."""
    return sum(r.cache_info().currsize for r in _REMEMBERED) + sum(len(k) for k in _KEPT)
