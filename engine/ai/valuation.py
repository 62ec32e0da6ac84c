"""How much a position is worth to the computer player, in expected final prestige points.

Every decision compares positions with `position_value`, so money, steps, tiles,
buildings and cards all have to be put on one scale. The scale is points; the
weights below turn the rest into points. They were tuned head to head: one
variant against three copies of the defaults over 800 four-player games, keeping
a change only when the variant won clearly more than its 25% share.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..components import JOKER, TileValue
from ..edition import Edition
from ..rules import capped_score, free_cards, prestige_limit, round_prestige
from .limits import expected_loss
from .situation import Horizon, Me


@dataclass(frozen=True)
class Weights:
    # Points the player expects to collect from privileges per future auction (wins x card worth).
    priv_per_auction: float = 1.6
    # Points per guilder while card purchases remain; afterwards money only pays for buildings.
    money_value: float = 0.004
    money_value_late: float = 0.0005
    # Points per extra offered card, and per free card, at each remaining purchase.
    offer_card: float = 1.0
    free_card: float = 2.0
    # Chance per auction of getting to build a missing Church or Cathedral once it is needed (via an Offices
    # privilege / with a Master Builder), when it can be paid for then (limits.py); times poor_factor when not.
    build_chance: float = 0.05
    build_chance_mb: float = 0.35
    poor_factor: float = 0.3
    # Hand cards: a certificate is worth card_base + card_top * (value / 17) ** 2 points; a joker `joker`.
    card_base: float = 1.2
    card_top: float = 1.0
    joker: float = 1.8
    # Cards lose their worth as the game runs out of auctions to use them in.
    card_horizon: float = 6.0

    # A prior over the other bidders' hidden hands (see bidding.py).
    # Chance that an opponent holds at least k valid cards: first * decay ** (k - 1).
    opp_first_noble: float = 0.7
    opp_decay_noble: float = 0.55
    opp_first_max: float = 0.95
    opp_decay_max: float = 0.75
    # Chance that an opponent able to stay at k cards does stay.
    opp_stay: float = 0.6
    # Cards an opponent is guessed to hold.
    opp_hand: float = 5.0
    # Guilders expected from a lost showdown (second or third place), on average.
    consolation: float = 60.0
    _hash: int = field(init=False, repr=False, compare=False)  # (set by __post_init__, from the weights above)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(tuple(self.__dict__.values())))

    def __hash__(self) -> int:
        # Computed once: weights are part of the keys of the planners' caches, hashed millions of times a search.
        return self._hash


WEIGHTS = Weights()


def gain_prestige(me: Me, amount: int) -> None:
    """Add prestige the way the engine does: points past the current limit are lost."""
    me.score = capped_score(me.score, amount, prestige_limit(me, me.ed))


def prestige_per_round(me: Me) -> int:
    return round_prestige(me.nobility, me.coat, me.letter, me.ed)


def money_value(hz: Horizon, w: Weights = WEIGHTS) -> float:
    """Points per guilder: money buys cards while purchases remain."""
    return w.money_value if hz.purchases > 0 else w.money_value_late


def position_value(me: Me, hz: Horizon, tops: dict[str, TileValue | None], w: Weights = WEIGHTS) -> float:
    """Expected final score plus what money and card income are worth, in points."""
    ed = me.ed
    per_round = prestige_per_round(me)
    raw = me.score + per_round * hz.scorings + w.priv_per_auction * hz.auctions
    income = ed.trade_income[me.trade]
    final = raw
    if me.cathedral is None or me.church is None:
        final -= limit_loss(me, hz, tops, w, per_round, income)
    income *= hz.incomes
    cards = ed.offices_cards[me.offices] - ed.offices_cards[1]
    free = free_cards(me.offices, me.minter, ed)
    card_income = (w.offer_card * cards + w.free_card * free) * hz.purchases
    # (Helpers inlined where it costs nothing to read: planning values positions about a million times a search.)
    extra = me.extra_cards * w.card_base * card_time_factor(hz, w) if me.extra_cards else 0
    money = w.money_value if hz.purchases > 0 else w.money_value_late  # money_value(hz, w)
    return final + money * (me.money + income) + card_income + extra


def limit_loss(me: Me, hz: Horizon, tops: dict[str, TileValue | None], w: Weights = WEIGHTS,
               per_round: int | None = None, income: int | None = None) -> float:
    """The prestige `me` expects to lose to the limits from now on (limits.py; 0 with both buildings).
    (`per_round`, `income`: this round's prestige and money, when the caller has them at hand.)"""
    if me.cathedral is not None and me.church is not None:
        return 0.0
    ed = me.ed
    per_round = prestige_per_round(me) if per_round is None else per_round
    income = ed.trade_income[me.trade] if income is None else income
    chance = w.build_chance_mb if me.master_builder else w.build_chance
    return expected_loss(me.score, me.money, income, per_round, w.priv_per_auction, me.church is not None,
                         me.cathedral is not None, tops.get("church"), tops.get("cathedral"), hz.scorings,
                         hz.auctions, len(ed.nobles), hz.incomes, (ed.church_limit, ed.cathedral_limit),
                         chance, w.poor_factor)


# --- hand cards


def card_time_factor(hz: Horizon, w: Weights = WEIGHTS) -> float:
    """Cards are only worth something while auctions remain to spend them in."""
    return min(1.0, (hz.auctions + 1) / w.card_horizon)


def card_worth(card: str, ed: Edition, w: Weights = WEIGHTS) -> float:
    """Points a card in hand is worth before the time factor: high certificates win showdowns."""
    if card == JOKER:
        return w.joker
    return w.card_base + w.card_top * (ed.card_value[card] / ed.max_certificate_value) ** 2
