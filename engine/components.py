"""The names of the game's things, which the rules and the wording know by heart.

Every number of the physical game (prices, values, stacks, the privilege cards, incomes, limits…) is an
edition's (engine/edition.py; the shipped ones in engine/editions/): a game reads them only through the
edition it was started with (`state.edition`, `view.edition`). What stays here is the vocabulary an
edition is written in and the rules act on: the ids of the nobles, the categories, the tiles and the
privileges. A new id here is a new rule, and needs words in every language (bot/wording/names.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

NOBLE_IDS: frozenset[str] = frozenset({"philipp", "louise", "leo", "maria", "maximilian"})
MAXIMILIAN = "maximilian"  # no certificates of his own: any certificate is valid for him (R10)
JOKER = "joker"

CATEGORIES: tuple[str, ...] = ("trade", "nobility", "offices")

# Privilege tiles, and the two that are buildings (bought for their value, R18).
TILE_KINDS: tuple[str, ...] = ("church", "cathedral", "coat", "letter", "minter", "master_builder")
BUILDINGS: tuple[str, ...] = ("church", "cathedral")
if TYPE_CHECKING:
    # A tile in a stack: its value, or True for the Minter and the Master Builder (which have none).
    TileValue: TypeAlias = int | bool
else:
    TileValue = Any  # at run time pydantic keeps a stored stack's values as they are (no coercion), as it always did

# Privilege kinds. Category privileges climb a step or take that category's alternative.
TRADE, NOBILITY, OFFICES = "trade", "nobility", "offices"
GUILDERS, PRESTIGE6, PRESTIGE7, DRAW2 = "guilders", "prestige6", "prestige7", "draw2"
CATEGORY_KINDS = frozenset({TRADE, NOBILITY, OFFICES})
PRESTIGE_KINDS: tuple[str, ...] = (PRESTIGE6, PRESTIGE7)
PRIVILEGE_KINDS = frozenset({TRADE, NOBILITY, OFFICES, GUILDERS, PRESTIGE6, PRESTIGE7, DRAW2})

# What a category privilege may be used `as`, besides a step (R18).
CATEGORY_ALTERNATIVES: dict[str, tuple[str, ...]] = {
    TRADE: ("trade300",),
    NOBILITY: ("coat", "letter"),
    OFFICES: ("minter", "master_builder", "church", "cathedral"),
}
# The category whose privilege may take each tile.
TILE_CATEGORY: dict[str, str] = {"coat": NOBILITY, "letter": NOBILITY, "minter": OFFICES, "master_builder": OFFICES,
                                 "church": OFFICES, "cathedral": OFFICES}
