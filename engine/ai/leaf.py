"""What a position is worth where the strong player's playouts stop short of the game's end: the final score it
is likely to lead to.

A playout stops at the start of a later round (strong.py); each player's position there is scored as the final
score normal players went on to reach from such positions, a linear fit over 3,000 normal-level games per number
of players (`python tests/fit_leaf.py`, which prints FIT). The normal player's own valuation (valuation.py) is a
guide for choosing between moves, tuned head to head; read as a forecast of the final score it is far off. With
five scorings to come it gives a joker in hand 1.8 points where the games give about 5.5, and a strong certificate
2.2 where they give about 7.5 (four players), and it counts the prestige the limits will take in full where the
games lose a third to all of it. Scored by it, the search gave cards away for prestige too cheaply.

The features are the parts of the normal player's valuation, taken apart so that each gets its own weight.
"""

from __future__ import annotations

from ..components import JOKER
from ..rules import free_cards
from .seen import SeenView
from .situation import horizon, me_from_view, tops_from_view
from .valuation import limit_loss, prestige_per_round

FEATURES = (
    "score",  # prestige now
    "prestige_income",  # prestige per round end (Nobility, Coat of Arms, Letter) x scorings to come
    "limit_loss",  # the prestige the normal player expects to lose to the limits (negated: a loss)
    "money",  # guilders now
    "income",  # guilders per round end x incomes still to spend
    "offered_cards",  # cards offered beyond the first Offices level x purchases to come
    "free_cards",  # free cards x purchases to come
    "jokers",  # in hand
    "certificates",  # in hand
    "certificate_strength",  # the sum over the hand's certificates of (value / highest value) squared
)

# players -> scorings still to come -> a weight per feature (in FEATURES' order), fitted by tests/fit_leaf.py.
FIT: dict[int, dict[int, tuple[float, ...]]] = {
    2: {
        1: (1.178, 1.229, 0.4655, 0.003137, 0, 0, 0, 1.104, 0.6531, 2.36),
        2: (1.267, 1.306, 0.575, 0.005112, 0.007539, 1.373, 3.807, 1.689, 2.121, 3.418),
        3: (0.9532, 1.692, 0.9972, 0.007682, 0.007487, 1.699, 4.419, 2.311, 4.604, 3.122),
    },
    3: {
        1: (1.114, 1.088, 0.4069, 0.002162, 0, 0, 0, 1.023, 0.5074, 1.79),
        2: (1.154, 1.093, 0.4168, 0.004058, 0.0058, 0.608, 5.036, 2.033, 0.9904, 3.55),
        3: (1.153, 1.264, 0.5752, 0.001985, 0.006195, 1.263, 4.335, 3.109, 1.995, 4.441),
        4: (0.9279, 1.508, 0.8598, 0.007133, 0.005775, 1.726, 4.214, 4.213, 3.41, 5.193),
    },
    4: {
        1: (1.086, 1, 0.3421, 0.001555, 0, 0, 0, 0.9405, 0.3782, 1.682),
        2: (1.271, 0.9174, 0.3744, 0.003233, 0.004401, 0.2124, 4.04, 1.715, 0.9138, 2.62),
        3: (1.262, 0.9747, 0.4197, 0.00115, 0.00532, 0.4542, 4.461, 2.67, 1.427, 3.549),
        4: (1.381, 1.146, 0.6343, 0.001751, 0.005265, 1.171, 4.082, 3.991, 1.954, 3.874),
        5: (1.582, 1.456, 1.018, 0.002284, 0.006105, 1.799, 2.9, 5.48, 3.042, 4.468),
    },
    5: {
        1: (1.101, 0.9019, 0.3565, 0.001263, 0, 0, 0, 0.9519, 0.3773, 1.301),
        2: (1.246, 0.8737, 0.4131, 0.003463, 0.004351, 0.3905, 3.28, 1.767, 0.7117, 2.283),
        3: (1.325, 0.8586, 0.4477, 0.004028, 0.004592, 0.4973, 3.457, 2.748, 1.315, 3.076),
        4: (1.261, 0.9083, 0.4876, 0.001818, 0.005665, 0.6276, 3.739, 3.555, 1.809, 3.236),
        5: (1.404, 1.07, 0.751, 0.003768, 0.006016, 1.169, 2.741, 4.808, 2.572, 3.388),
        6: (1.06, 1.15, 0.8275, 0.007372, 0.007138, 1.378, 2.769, 6.734, 3.738, 3.471),
    },
}


def features(view: SeenView) -> tuple[float, ...]:
    """The position of the player whose view this is (a View, or worlds.quick_view's plain copy of one)."""
    hz = horizon(view)
    me = me_from_view(view)
    ed = view.edition
    assert view.you is not None
    hand = view.you.hand
    certificates = [c for c in hand if c != JOKER]
    top = ed.max_certificate_value
    return (
        me.score,
        prestige_per_round(me) * hz.scorings,
        -limit_loss(me, hz, tops_from_view(view)),
        me.money,
        ed.trade_income[me.trade] * hz.incomes,
        (ed.offices_cards[me.offices] - ed.offices_cards[1]) * hz.purchases,
        free_cards(me.offices, me.minter, ed) * hz.purchases,
        len(hand) - len(certificates),
        len(certificates),
        sum((ed.card_value[c] / top) ** 2 for c in certificates),
    )


def worth(view: SeenView) -> float:
    """The final score the position in `view` is likely to lead to (up to a constant the same for every player
    at that point, so only differences between players mean anything)."""
    return weighed(features(view), weights_for(len(view.players), horizon(view).scorings))


def weighed(parts: tuple[float, ...], weights: tuple[float, ...]) -> float:
    """A position's features, each times its weight, summed (the forecast, up to the fit's constant)."""
    return sum(w * x for w, x in zip(weights, parts, strict=True))


def weights_for(players: int, scorings: int) -> tuple[float, ...]:
    """The fitted weights for that many players and scorings to come (the nearest fitted ones beyond)."""
    table = FIT[min(max(players, min(FIT)), max(FIT))]
    return table[min(max(scorings, min(table)), max(table))]
