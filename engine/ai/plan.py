"""Planning the use of a privilege card: which card, which two privileges, and how.

A plan is a short list of parts, each one action of the privilege phase:
`(order, slot, as_)` for a privilege (as_ is None for a fixed one) and
`(BUILD_ORDER, None, building)` for the Master Builder's extra build. Every
possible plan for a card is simulated on a copy of the player's own position and
valued with `position_value`; the best plan wins. Plans are carried out in a
fixed order that never hurts: money first (to pay for buildings), steps before
the tiles they unlock, buildings before prestige (so the raised limit keeps the
points), and declined privileges (+2 each) last, when the player is done.

After every action the player plans again from the view, so no plan has to be
remembered between decisions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product

from ..components import (
    BUILDINGS,
    CATEGORY_ALTERNATIVES,
    CATEGORY_KINDS,
    DRAW2,
    GUILDERS,
    PRESTIGE_KINDS,
    TILE_CATEGORY,
    TILE_KINDS,
)
from ..rules import holds_tile, take_step, tile_cost
from .atoms import atom
from .situation import Board, BoardKey, Horizon, Me, MeKey
from .valuation import WEIGHTS, Weights, gain_prestige, position_value

# How a category privilege may be used: a step or one of its alternatives (R18).
CHOICES: dict[str, tuple[str, ...]] = {kind: ("step", *alts) for kind, alts in CATEGORY_ALTERNATIVES.items()}
TILES = tuple(t for t in TILE_KINDS if t not in BUILDINGS)
BUILD_ORDER = 5
# One part of a plan: (order, slot, as_) for a privilege, (BUILD_ORDER, None, building) for the extra build.
Part = tuple[int, int | None, str | None]
Plan = tuple[Part, ...]


def _order(kind: str, as_: str | None) -> int:
    """The position of a privilege in the fixed carrying-out order (see the module docstring)."""
    if kind == GUILDERS:
        return 0
    if as_ == "step":
        return 1
    if as_ == "trade300":
        return 2
    if as_ in TILES:
        return 3
    if as_ in BUILDINGS:
        return 4
    if kind in PRESTIGE_KINDS:
        return 6
    return 7  # draw 2: it changes only the hand


def _worth_trying(kind: str, as_: str | None, me: Me, board: Board, same_colour: int) -> bool:
    """Cheap filter before simulating: drop choices that can never work on this card.

    `same_colour` is how many other chosen slots share this category and might climb first.
    """
    ed = board.ed
    if as_ is None or as_ == "step":
        return as_ is None or me.level(kind) < ed.max_level
    if as_ == "trade300":
        return me.trade + same_colour >= ed.trade_alternative_min_level
    if holds_tile(me, as_) or board.tops.get(as_) is None:
        return False
    return me.level(TILE_CATEGORY[as_]) + same_colour >= ed.tile_min_level[as_]


# What a list of plans depends on (see candidate_plans): the edition, the card, the used slots, whether the extra
# building is built, the player's levels and tiles, and which tile stacks are empty.
ListsKey = tuple[int, str, tuple[int, ...], bool, int, int, int, int | None, int | None, int | None, int | None,
                 bool, bool, tuple[bool, ...]]
_LISTS: dict[ListsKey, tuple[Plan, ...]] = {}
LISTS_KEPT = 10_000  # remembered lists of plans: they depend on few things, and planning asks for them constantly


def candidate_plans(card: str, used: list[int], built: bool, me: Me, board: Board) -> tuple[Plan, ...]:
    """Every combination of up to two unused privileges (and an extra build) worth simulating, each a tuple
    of parts in carrying-out order. Remembered by what the list depends on: the card, the levels and tiles
    held (not money or prestige) and which tile stacks are empty."""
    key: ListsKey = (atom(board.ed), card, tuple(used), built, me.trade, me.nobility, me.offices, me.church,
                     me.cathedral, me.coat, me.letter, me.minter, me.master_builder, board.empty)
    found = _LISTS.get(key)
    if found is None:
        if len(_LISTS) >= LISTS_KEPT:
            _LISTS.clear()
        found = _LISTS[key] = tuple(tuple(plan) for plan in _plans(card, used, built, me, board))
    return found


def _plans(card: str, used: list[int], built: bool, me: Me, board: Board) -> Iterator[list[Part]]:
    ed = board.ed
    kinds = ed.privilege_cards[card]
    free = [s for s in range(len(kinds)) if s not in used]
    room = ed.privileges_per_card - len(used)
    for size in range(min(room, len(free)) + 1):
        for slots in combinations(free, size):
            options: list[list[Part]] = []
            for s in slots:
                same = sum(1 for t in slots if t != s and kinds[t] == kinds[s])
                choices = CHOICES[kinds[s]] if kinds[s] in CATEGORY_KINDS else (None,)
                options.append([(_order(kinds[s], a), s, a) for a in choices
                                if _worth_trying(kinds[s], a, me, board, same)])
            for combination in product(*options):
                parts = list(combination)
                may_build = not built and (me.master_builder or any(p[2] == "master_builder" for p in parts))
                for extra in (None, *BUILDINGS) if may_build else (None,):
                    plan: list[Part] = parts + [(BUILD_ORDER, None, extra)] if extra else parts
                    plan.sort(key=lambda p: (p[0], p[1] if p[1] is not None else -1))
                    yield plan


def simulate(card: str, used: list[int], plan: Sequence[Part], me: Me, board: Board) -> Me | None:
    """The position after carrying out `plan` and saying done; None if some part is impossible."""
    ed = board.ed
    kinds = ed.privilege_cards[card]
    me = me.copy()
    supply: dict[str, list[int]] = {}
    for _, slot, as_ in plan:
        if slot is None:  # the Master Builder's extra build
            assert as_ is not None  # (the building)
            if not _acquire(me, board, as_):
                return None
            continue
        kind = kinds[slot]
        if kind == GUILDERS:
            me.money += ed.guilders_privilege
        elif kind in ed.prestige_privilege:
            gain_prestige(me, ed.prestige_privilege[kind])
        elif kind == DRAW2:
            me.extra_cards += 1  # draw two, discard the worst card of the hand: one card better off
        elif as_ == "step":
            if not _climb(me, board, kind, supply):
                return None
        elif as_ == "trade300":
            if me.trade < ed.trade_alternative_min_level:
                return None
            me.money += ed.trade_alternative_money
        else:
            assert as_ is not None  # a category privilege taking one of its tiles (the fixed ones are above)
            if me.level(TILE_CATEGORY[as_]) < ed.tile_min_level[as_] or not _acquire(me, board, as_):
                return None
    declined = ed.privileges_per_card - len(used) - sum(1 for p in plan if p[1] is not None)
    if declined:
        gain_prestige(me, declined * ed.declined_privilege_prestige)
    return me


def _climb(me: Me, board: Board, category: str, supply: dict[str, list[int]]) -> bool:
    level = me.level(category)
    if level >= board.ed.max_level:
        return False
    step = level + 1
    tiles = supply.setdefault(category, list(board.supply[category]))
    if step in tiles:
        take_step(tiles, step)
    elif (category, step) not in board.held:
        return False  # nobody to take it from
    setattr(me, category, step)
    return True


def _acquire(me: Me, board: Board, tile: str) -> bool:
    top = board.tops.get(tile)
    if top is None or holds_tile(me, tile):
        return False
    cost = tile_cost(tile, top)
    if cost > me.money:
        return False
    me.money -= cost
    setattr(me, tile, top)
    return True


# What a plan depends on (see best_plan): the card, the used slots, whether the extra building is built, the
# player's position, the board's key, the horizon and the weights.
PlansKey = tuple[str, tuple[int, ...], bool, MeKey, BoardKey, int, int]  # the horizon's, weights' atoms
_PLANS: dict[PlansKey, tuple[float, Sequence[Part]]] = {}
PLANS_KEPT = 10_000  # remembered plans (about 1.8 KB each: ~18 MB at most); searching players meet them often


def best_plan(card: str, used: list[int], built: bool, me: Me, board: Board, hz: Horizon,
              w: Weights = WEIGHTS) -> tuple[float, list[Part]]:
    """The most valuable way to finish using `card`, with its value (the position after it).

    Remembered: the same question always has the same answer, and searching players ask it again and again."""
    key: PlansKey = (card, tuple(used), built, me.key(), board.key, atom(hz), atom(w))
    found = _PLANS.get(key)
    if found is None:
        if len(_PLANS) >= PLANS_KEPT:
            _PLANS.clear()
        found = _PLANS[key] = _best_plan(card, used, built, me, board, hz, w)
    return found[0], list(found[1])


def _best_plan(card: str, used: list[int], built: bool, me: Me, board: Board, hz: Horizon,
               w: Weights) -> tuple[float, Sequence[Part]]:
    best_value = float("-inf")
    best: Sequence[Part] = []
    for plan in candidate_plans(card, used, built, me, board):
        after = simulate(card, used, plan, me, board)
        if after is None:
            continue
        value = position_value(after, hz, board.tops, w)
        if value > best_value + 1e-9:
            best_value, best = value, plan
    return best_value, best


# What the best card depends on (see best_card): the display, the player's position, the board's key, the horizon
# and the weights.
CardsKey = tuple[tuple[str, ...], MeKey, BoardKey, int, int]  # the horizon's, weights' atoms
_CARDS: dict[CardsKey, tuple[float, str]] = {}


def best_card(display: Sequence[str], me: Me, board: Board, hz: Horizon, w: Weights = WEIGHTS) -> tuple[float, str]:
    """The privilege card on display worth most to this player, and what using it well is worth.

    Remembered like plans: every bidder asks it at every turn of an auction."""
    key: CardsKey = (tuple(display), me.key(), board.key, atom(hz), atom(w))
    found = _CARDS.get(key)
    if found is None:
        if len(_CARDS) >= PLANS_KEPT:
            _CARDS.clear()
        found = _CARDS[key] = _best_card(display, me, board, hz, w)
    return found


def _best_card(display: Sequence[str], me: Me, board: Board, hz: Horizon, w: Weights) -> tuple[float, str]:
    best_value, best = float("-inf"), display[0]
    for card in display:
        value, _ = best_plan(card, [], False, me, board, hz, w)
        if value > best_value + 1e-9:
            best_value, best = value, card
    return best_value, best
