"""The strong player's leaf (engine/ai/leaf.py): where a playout stops at a round's start, each position is scored
by the final score it is likely to lead to, fitted to normal-level games (tests/fit_leaf.py)."""

from __future__ import annotations

import random
import statistics as st

import pytest
from fit_leaf import game, least_squares
from test_strong import positions

from engine.ai import leaf
from engine.ai.strong import lead
from engine.ai.worlds import quick_view
from engine.components import JOKER
from engine.game import new_game

HELD_OUT = 90000000  # deals far from the fit's (50000000 on): games the weights have never seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_fitted_leaf_forecasts_who_ends_ahead_better_than_the_normal_valuation(players):
    """What the search compares is players at the same moment: on fresh games, the leaf's differences between
    the players at a round's start follow the differences in their final scores more closely than the normal
    player's own valuation (which strong.py used before)."""
    fitted, normal, final = [], [], []
    for seed in range(HELD_OUT, HELD_OUT + 24):
        by_round: dict[int, list] = {}
        for scorings, x, worth, score in game((players, seed)):
            by_round.setdefault(scorings, []).append((x, worth, score))
        for scorings, rows in by_round.items():
            assert len(rows) == players
            weights = leaf.weights_for(players, scorings)
            guesses = [leaf.weighed(x, weights) for x, _, _ in rows]
            for column, values in ((fitted, guesses), (normal, [w for _, w, _ in rows]),
                                   (final, [s for _, _, s in rows])):
                mean = st.mean(values)
                column += [v - mean for v in values]
    assert st.correlation(fitted, final) > st.correlation(normal, final) + 0.03


def test_the_weights_cover_every_round_a_playout_can_stop_at():
    """For every number of players, a playout can stop at the start of rounds 2 to the last: scorings
    from rounds - 1 down to 1 still to come."""
    for players in (2, 3, 4, 5):
        state, _ = new_game([f"p{i}" for i in range(players)], seed=1)
        assert sorted(leaf.FIT[players]) == list(range(1, state.rounds))
        assert all(len(w) == len(leaf.FEATURES) for w in leaf.FIT[players].values())


def test_cards_in_hand_weigh_more_the_more_rounds_remain():
    """Cards win auctions, and early on there are many auctions left to win: the fit gives a joker more
    points the more scorings are to come, and early on more than the normal valuation's 1.8."""
    joker = leaf.FEATURES.index("jokers")
    for players in (3, 4, 5):
        table = leaf.FIT[players]
        weights = [table[s][joker] for s in sorted(table)]
        assert weights == sorted(weights)
        assert weights[-1] > 3.0


def test_a_playout_stopped_at_a_round_start_is_scored_by_the_leaf():
    """lead() at a round's start: one more joker in our hand adds exactly the leaf's weight of a joker
    to our lead (as long as another player is ahead of the rest)."""
    for state, _events, _player in positions(4, 11, phases=("auction",)):
        if state.round == 3 and not any(state.auction.offers) and not any(state.auction.passed):
            break
    me = state.players[0].id
    before = lead(state, me)
    richer = state.model_copy(deep=True)
    richer.players[0].hand += (JOKER,)
    scorings = state.rounds - state.round + 1
    joker = leaf.weights_for(4, scorings)[leaf.FEATURES.index("jokers")]
    assert lead(richer, me) - before == pytest.approx(joker)
    assert leaf.worth(quick_view(richer, me)) - leaf.worth(quick_view(state, me)) == pytest.approx(joker)


def test_least_squares_finds_the_weights_behind_exact_data():
    rnd = random.Random(5)
    rows = [(rnd.uniform(0, 40), rnd.uniform(0, 2000), rnd.randint(0, 6)) for _ in range(200)]
    ys = [1.5 * a - 0.004 * b + 3.25 * c + 7.0 for a, b, c in rows]
    assert least_squares(rows, ys) == pytest.approx((1.5, -0.004, 3.25, 7.0), rel=1e-6, abs=1e-9)


def test_a_feature_that_never_varies_gets_no_weight():
    rows = [(float(i), 0.0) for i in range(10)]
    ys = [2.0 * i + 1.0 for i in range(10)]
    weights = least_squares(rows, ys)
    assert weights[0] == pytest.approx(2.0)
    assert weights[1] == 0.0
