"""The prestige limits (R21) as the computer players value them (engine/ai/limits.py).

Without a Church a score stops at 25, without a Cathedral at 45. The normal level used to count on next
round's income to pay for the missing building and spent its money on cards, then sat at 25 for rounds,
losing everything it scored (7.4 points a game on average, by `augsburg simulate`).
"""

from __future__ import annotations

from engine.ai import simulate
from engine.ai.cards import choose_purchase
from engine.ai.limits import expected_loss
from engine.ai.situation import Horizon, Me
from engine.editions import default

ED = default()
LIMITS = (ED.church_limit, ED.cathedral_limit)
# After round 3 of 6: three round ends to score, two incomes to spend, two purchases, fifteen auctions.
AFTER_ROUND_3 = Horizon(scorings=3, incomes=2, purchases=2, auctions=15, last_round=False)
TOPS = {"church": 600, "cathedral": 1100, "coat": 3, "letter": 4, "minter": True, "master_builder": True}
OFFERED, PRICES = ["philipp-17", "maria-12", "leo-6", "louise-4"], [400, 350, 250, 250]


def loss(score=25, money=1000, income=900, per_round=8, per_auction=1.6, church=False, cathedral=False,
         church_cost=600, cathedral_cost=1100, scorings=3, auctions=15, incomes=2, chance=0.05, poor=0.3):
    return expected_loss(score, money, income, per_round, per_auction, church, cathedral, church_cost,
                         cathedral_cost, scorings, auctions, len(ED.nobles), incomes, LIMITS, chance, poor)


def spent(score: int, church: int | None, money: int = 1000) -> int:
    """What the normal level spends at a round-end purchase (Trade 2, Nobility 3: 8 points a round)."""
    me = Me(ED, score=score, money=money, trade=2, nobility=3, offices=2, church=church)
    bought = choose_purchase(OFFERED, PRICES, money, me, AFTER_ROUND_3, TOPS)
    return sum(PRICES[OFFERED.index(c)] for c in bought)


def test_at_25_without_a_church_it_keeps_the_money_to_build_one():
    """Income comes at a round's end, after its auctions: money spent now is missing all next round."""
    assert 1000 - spent(25, None) >= TOPS["church"]
    assert spent(25, 700) > spent(25, None), "with a Church the same cards are worth buying"
    assert spent(2, None) > spent(25, None), "far below the limit the money buys cards"


def test_nothing_is_lost_below_the_limits_or_with_both_buildings():
    assert loss(score=0, per_round=3, per_auction=0.0, scorings=1, auctions=0, incomes=0) == 0.0
    assert loss(score=40, church=True, cathedral=True) == 0.0


def test_at_the_limit_what_cannot_be_paid_for_is_lost_meanwhile():
    """At 25 without a Church, 8 points a round and 1.6 an auction: building it now saves most of what
    the rest of the game would lose; a player who cannot pay for it this round expects to lose more."""
    able, unable = loss(money=1000), loss(money=200)
    assert able > 25, "more than half of the 48 points still to come"
    assert loss(church=True, money=400) < able - 15, "the Church built now (the Cathedral still to come)"
    assert unable > able + 2
    assert loss(money=1000, chance=0.2) < able, "a likelier building loses less"
    assert loss(money=200, church_cost=None) == 48.0, "an empty stack: every point above 25 is lost"


def test_the_cathedral_limit_counts_once_the_church_is_there():
    at_45 = loss(score=45, church=True)
    assert at_45 > 0
    assert loss(score=45, church=True, money=200) > loss(score=45, church=True, money=1500)
    # A Cathedral without a Church still stops at 25 (R21): with no Church left to take, all is lost.
    assert loss(score=25, cathedral=True, church_cost=None) == 48.0


def test_the_normal_level_loses_little_to_the_limits():
    """Twelve seeded four-player games of the normal level: prestige lost to the limits per player and
    game (it was 7.4 before the limits were followed round by round)."""
    lost = []
    for seed in range(12):
        lost += simulate.play_game(["normal"] * 4, seed, 0).lost.values()
    assert sum(lost) / len(lost) < 3.5
