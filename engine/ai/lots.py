"""What a player's purchases tell about the prices of the cards in their hand.

A purchase's count and total are public (PurchaseMade), and a card's price shows
its value band (200 for 1-3 ... 400 for 15-17 and jokers), so "three cards for
1,150" can only be 350+400+400, and "two for 600" is 200+400, 250+350 or 300+300.
`Lots` keeps, for one player, each purchase still (partly) in the hand as
(count, total), and how many unknown cards came without a price (free cards,
cards drawn by a privilege). When a card from the unknown part is seen (laid
down, taken back after a showdown, discarded), its price is taken out of a lot
that can still add up, or else out of the unpriced ones.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from ..edition import Edition


@lru_cache(maxsize=4096)
def splits(prices: tuple[int, ...], count: int, total: int, low: int = 0) -> tuple[tuple[int, ...], ...]:
    """Every way to pay `total` with `count` card prices of `prices` (the edition's, ascending; each at least
    prices[low]), prices ascending."""
    if count == 0:
        return ((),) if total == 0 else ()
    found = []
    for i in range(low, len(prices)):
        price = prices[i]
        if price * count > total:
            break
        found += [(price, *rest) for rest in splits(prices, count - 1, total - price, i)]
    return tuple(found)


@dataclass
class Lots:
    """The unknown part of one player's hand: priced purchases and a number of unpriced cards, in a game of
    edition `ed` (its prices)."""

    ed: Edition
    lots: list[tuple[int, int]] = field(default_factory=list)  # (cards, total paid), oldest first
    free: int = 0  # unknown cards whose price nobody saw

    @property
    def size(self) -> int:
        return self.free + sum(count for count, _ in self.lots)

    def bought(self, count: int, paid: int) -> None:
        if count:
            self.lots.append((count, paid))

    def seen(self, card: str) -> None:
        """A card of the unknown part became known (or left the hand openly)."""
        price = self.ed.card_price[card]
        for i in range(len(self.lots) - 1, -1, -1):  # the newest lot first: older cards were spent already
            count, total = self.lots[i]
            if splits(self.ed.prices, count - 1, total - price):
                if count == 1:
                    del self.lots[i]
                else:
                    self.lots[i] = (count - 1, total - price)
                return
        if self.free:
            self.free -= 1
        else:  # the records do not add up (cannot happen in a real game): keep the count, drop the prices
            self.forget(self.size - 1)

    def forget(self, size: int) -> None:
        """Prices unknown from now on (a card went back under the deck unseen): `size` unpriced cards."""
        self.lots, self.free = [], size

    def prices(self, pool: Counter[int], rnd: random.Random) -> list[int]:
        """Prices for the priced cards, one split per lot, chosen by how many unseen cards could make it."""
        left = Counter(pool)
        wanted: list[int] = []
        for count, total in self.lots:
            options = splits(self.ed.prices, count, total)
            weights = [_ways(split, left) for split in options]
            if not options or not any(weights):
                continue  # no unseen cards can make this lot: leave those cards unpriced
            split = rnd.choices(options, weights)[0]
            for price, n in _tally(split):  # (never below 0: a split the cards left cannot make has no weight)
                left[price] -= n
            wanted += split
        return wanted


def _ways(split: tuple[int, ...], left: Counter[int]) -> int:
    """How many sets of unseen cards have exactly these prices."""
    ways = 1
    for price, n in _tally(split):
        ways *= math.comb(left[price], n)
    return ways


@lru_cache(maxsize=4096)
def _tally(split: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(price, how many) in a split: remembered, as every world dealt weighs the same splits."""
    return tuple(Counter(split).items())
