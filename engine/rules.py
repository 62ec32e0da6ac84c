"""Pure rule helpers on plain values, or on any object with the attributes named.

The engine's state-changing code and the computer player (engine/ai), which
sees only views, both use these, so each rule is written once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from .components import BUILDINGS, JOKER, TileValue
from .edition import Edition, Rank
from .edition_file import LEVELS

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

    OrderKey = Callable[[str], SupportsRichComparison]  # a sort key for cards


class Buildings(Protocol):
    """A state.Tiles, or the computer player's own position: anything with these two attributes."""

    church: int | None
    cathedral: int | None


def prestige_limit(holder: Buildings, ed: Edition) -> int | None:
    """R21: no Church stops at 25; a Church without a Cathedral stops at 45 (the edition's limits)."""
    if holder.church is None:
        return ed.church_limit
    if holder.cathedral is None:
        return ed.cathedral_limit
    return None


def capped_score(score: int, amount: int, limit: int | None) -> int:
    """The score after gaining `amount`: points past `limit` are lost, a score above it never drops (R21)."""
    new = score + amount
    if limit is not None and new > limit:
        new = max(score, limit)
    return new


def round_prestige(nobility: int, coat: int | None, letter: int | None, ed: Edition) -> int:
    """R22: prestige scored at a round end from the Nobility level and the coat of arms / letter tiles."""
    return ed.nobility_prestige[nobility] + (coat or 0) + (letter or 0)


def free_cards(offices: int, minter: bool, ed: Edition) -> int:
    """R23: cards dealt straight into the hand at a round end (Offices level 4, the Minter)."""
    return (ed.offices_free_cards_at_top if offices == LEVELS else 0) + (ed.minter_free_cards if minter else 0)


def held_steps(level: int) -> list[int]:
    """The step tiles a player at `level` holds (level 3: small + medium; level 4: small + large)."""
    return ([2] if level >= 2 else []) + ([3] if level == 3 else []) + ([4] if level == 4 else [])


def take_step(supply: list[int], step: int) -> None:
    """Climb to `step` from a category's supply; whoever takes the step 4 puts their step 3 back (R20)."""
    supply.remove(step)
    if step == LEVELS:
        supply.append(LEVELS - 1)
        supply.sort()


def holds_tile(holder: object, tile: str) -> bool:
    """Whether `holder` (a state.Tiles, or the computer player's position) has a `tile`; nobody holds two."""
    return getattr(holder, tile) not in (None, False)


def tile_cost(tile: str, value: TileValue) -> int:
    """Guilders paid for the top tile of a stack: buildings cost their value, other tiles are free (R18)."""
    return value if tile in BUILDINGS else 0


# --- debt cards


def valid_cards(hand: Iterable[str], noble: str, ed: Edition) -> list[str]:
    valid = ed.valid_for[noble]
    return [c for c in hand if c in valid]


def bid_capacity(hand: Sequence[str], noble: str, ed: Edition) -> int:
    """How many cards a player may offer for `noble`: 0 if they hold no valid certificate (R10)."""
    valid = valid_cards(hand, noble, ed)
    if all(c == JOKER for c in valid):
        return 0
    return len(valid)


def missing_card(part: Iterable[str], whole: Iterable[str]) -> str | None:
    """The first card of `part` that `whole` does not hold (repeats counted), or None if it holds them all."""
    left = Counter(whole)
    for card in part:
        if left[card] <= 0:
            return card
        left[card] -= 1
    return None


def filler_order(ed: Edition) -> Callable[[str], tuple[bool, int, Rank]]:
    """Cheapest first, the weaker of equal price first, jokers (valid for every noble) last."""
    price, rank = ed.card_price, ed.card_rank
    return lambda card: (card == JOKER, price[card], rank(card))


def reveal_set(valid: list[str], count: int, lead: str, order_key: OrderKey) -> list[str]:
    """`lead` and the first `count - 1` other cards of `valid` by `order_key`."""
    rest = list(valid)
    rest.remove(lead)
    rest.sort(key=order_key)
    return [lead, *rest[: count - 1]]


def suggest_reveal(valid: list[str], count: int, alone: bool, ed: Edition,
                   order_key: OrderKey | None = None) -> list[str]:
    """A sensible showdown reveal (R12/R13): the strongest certificate plus fillers; alone, the first by order_key
    (by default `filler_order`).

    The lead is a certificate, since at least one card laid down must be one; [] when there is none.
    """
    certs = [c for c in valid if c != JOKER]
    if not certs:
        return []
    order_key = order_key or filler_order(ed)
    lead = min(certs, key=order_key) if alone else max(certs, key=ed.card_rank)
    return reveal_set(valid, count, lead, order_key)


def last_round_order(ed: Edition) -> Callable[[str], tuple[bool, Rank]]:
    """Fillers in the last round, when money no longer counts: the weakest first, jokers last."""
    rank = ed.card_rank
    return lambda card: (card == JOKER, rank(card))


def keep_a_certificate(laid: list[str], hand: Sequence[str], ed: Edition) -> list[str]:
    """`laid`, with a joker laid down instead of its strongest certificate filler (never the lead, the first)
    when the hand would otherwise keep jokers only, which can never back a bid again (R10)."""
    left = list(hand)
    for card in laid:
        left.remove(card)
    fillers = [c for c in laid[1:] if c != JOKER]
    if any(c != JOKER for c in left) or JOKER not in left or not fillers:
        return laid
    swapped = list(laid)
    swapped[laid.index(max(fillers, key=ed.card_rank), 1)] = JOKER
    return swapped
