"""The prestige a player expects to lose to the 25/45 limits (R21) while its Church or Cathedral is missing.

Prestige comes at every auction (what privileges bring, on average) and at every round end (Nobility,
Coat of Arms, Letter). The missing building may come at any auction (an Offices privilege, or the
Master Builder's extra build) with a chance per auction, but only if the player can pay for it then:
the money it has now, plus the incomes of the rounds ended by that time. Income comes at a round's end,
after that round's auctions, so money spent now is missing for the whole next round; a player at 25
with 21 points a round coming loses them all while it cannot pay.

The model follows the remaining auctions and round ends in order, with the player in one of three
states (no Church; Church, no Cathedral; both), each with its chance and mean score, and adds up the
points that would pass the state's limit. Points a player already lost are gone and are not counted.
"""

from __future__ import annotations

from functools import lru_cache

NONE, CHURCH, BOTH = 0, 1, 2


@lru_cache(maxsize=65536)
def expected_loss(score: int, money: int, income: int, per_round: float, per_auction: float,
                  has_church: bool, has_cathedral: bool, church_cost: int | None, cathedral_cost: int | None,
                  scorings: int, auctions: int, auctions_per_round: int, incomes: int,
                  limits: tuple[int, int], chance: float, poor: float) -> float:
    """Expected points lost above the limits from now to the game's end.

    `per_round` points come at each of the `scorings` round ends, `per_auction` at each of the `auctions`
    auctions (the first `auctions - auctions_per_round * (scorings - 1)` before the next round end).
    `chance`: of building per auction when the building can be paid for, times `poor` when it cannot.
    A cost of None: that stack is empty."""
    if has_church and has_cathedral:
        return 0.0
    church_limit, cathedral_limit = limits
    # mass[s]: chance to be in state s; mean[s]: the mean score there. A Cathedral without a Church
    # counts as no Church; once the Church comes, its state is BOTH.
    start = CHURCH if has_church else NONE
    after_church = BOTH if has_cathedral else CHURCH
    mass, mean = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
    mass[start], mean[start] = 1.0, float(score)
    limit = (church_limit, cathedral_limit)  # of the states NONE and CHURCH (BOTH has none)
    church_paid = 0 if has_church else (church_cost or 0)  # what the Church will have cost when the Cathedral comes
    lost = 0.0
    first = max(0, auctions - auctions_per_round * max(0, scorings - 1))
    for segment in range(scorings):
        steps = first if segment == 0 else auctions_per_round
        cash = money + income * min(segment, incomes)
        # The building is sought from the round in which the limit comes within reach (just in time:
        # building earlier gains nothing), at each of the round's auctions until it comes. The round's
        # auctions are taken as one block: half their prestige before the building, half after.
        ahead = per_round + per_auction * steps
        half = per_auction * steps / 2
        lost += _gain(mass, mean, limit, half)
        if mass[NONE] and church_cost is not None and mean[NONE] + ahead - half > church_limit:
            p = chance * (1.0 if cash >= church_cost else poor)
            _move(mass, mean, NONE, after_church, mass[NONE] * (1.0 - (1.0 - p) ** steps))
        if mass[CHURCH] and cathedral_cost is not None and mean[CHURCH] + ahead - half > cathedral_limit:
            p = chance * (1.0 if cash - church_paid >= cathedral_cost else poor)
            _move(mass, mean, CHURCH, BOTH, mass[CHURCH] * (1.0 - (1.0 - p) ** steps))
        lost += _gain(mass, mean, limit, half + per_round)
    return lost


def _move(mass: list[float], mean: list[float], src: int, dst: int, amount: float) -> None:
    if amount <= 0.0:
        return
    total = mass[dst] + amount
    mean[dst] = (mass[dst] * mean[dst] + amount * mean[src]) / total
    mass[dst] = total
    mass[src] -= amount


def _gain(mass: list[float], mean: list[float], limit: tuple[int, int], amount: float) -> float:
    """Every state gains `amount`; what passes a state's limit is lost, weighted by the state's chance."""
    lost = 0.0
    for s in (NONE, CHURCH):
        cap = limit[s]
        if mass[s] and mean[s] + amount > cap:
            kept = max(mean[s], cap)
            lost += mass[s] * (mean[s] + amount - kept)
            mean[s] = kept
        elif mass[s]:
            mean[s] += amount
    mean[BOTH] += amount
    return lost
