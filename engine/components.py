"""Every number and name of the physical game, in one place (rules/COMPONENTS.md).

Values marked ESTIMATE are not in the printed rules; a group that owns the box
can correct them here and nowhere else.
"""

from __future__ import annotations

NOBLES: tuple[str, ...] = ("philipp", "louise", "leo", "maria", "maximilian")
CERTIFICATE_NOBLES: tuple[str, ...] = ("philipp", "louise", "leo", "maria")
MAXIMILIAN = "maximilian"
# Maximilian ties between equal values: Maria > Leo > Louise > Philipp (rulebook).
NOBLE_TIE_RANK: dict[str, int] = {"philipp": 0, "louise": 1, "leo": 2, "maria": 3}

JOKER = "joker"
JOKER_COUNT = 12
JOKER_PRICE = 400
CERTIFICATE_VALUES = range(1, 18)
MAX_CERTIFICATE_VALUE = CERTIFICATE_VALUES[-1]


def _certificate_price(value: int) -> int:
    # ESTIMATE: the rulebook only says prices run from 200 to 400 and grow with value.
    if value <= 3:
        return 200
    if value <= 7:
        return 250
    if value <= 10:
        return 300
    if value <= 14:
        return 350
    return 400


CARD_NOBLE: dict[str, str] = {}
CARD_VALUE: dict[str, int] = {}
CARD_PRICE: dict[str, int] = {JOKER: JOKER_PRICE}
for _noble in CERTIFICATE_NOBLES:
    for _value in CERTIFICATE_VALUES:
        _card = f"{_noble}-{_value}"
        CARD_NOBLE[_card] = _noble
        CARD_VALUE[_card] = _value
        CARD_PRICE[_card] = _certificate_price(_value)

# The 80 debt cards as a multiset: 68 certificates and 12 identical jokers.
CERTIFICATES: tuple[str, ...] = tuple(CARD_NOBLE)
ALL_CARDS: tuple[str, ...] = CERTIFICATES + (JOKER,) * JOKER_COUNT

START_MONEY = 1500
START_JOKERS = 2
INITIAL_DEAL = 7

CATEGORIES: tuple[str, ...] = ("trade", "nobility", "offices")
MAX_LEVEL = 4
TRADE_INCOME: dict[int, int] = {1: 600, 2: 900, 3: 1200, 4: 1600}
NOBILITY_PRESTIGE: dict[int, int] = {1: 3, 2: 5, 3: 8, 4: 12}
OFFICES_CARDS: dict[int, int] = {1: 4, 2: 5, 3: 6, 4: 6}
OFFICES_FREE_CARDS_AT_4 = 1
MINTER_FREE_CARDS = 1


def step_tiles(players: int) -> list[int]:
    """The step-tile supply of one colour, sorted: small = step 2, medium = 3, large = 4.

    The size-to-step mapping is an ESTIMATE strongly implied by the counts (R5).
    """
    return [2] * players + [3] * max(1, players - 2) + [4]


# Privilege tile stacks, most valuable / most expensive first (R6).
TILE_KINDS: tuple[str, ...] = ("church", "cathedral", "coat", "letter", "minter", "master_builder")
TILE_STACKS: dict[str, list] = {
    "church": [700, 600, 500, 400, 300],  # 700 rulebook; the rest ESTIMATE
    "cathedral": [1100, 1000, 900, 800, 700],  # 900 appears in the rulebook; the rest ESTIMATE
    "coat": [4, 3, 2, 2, 1],  # range 4..1 rulebook; split ESTIMATE
    "letter": [5, 4, 3, 3, 2],  # range 5..2 rulebook; split ESTIMATE
    "minter": [True] * 5,  # count ESTIMATE
    "master_builder": [True] * 5,  # count ESTIMATE
}
BUILDINGS: tuple[str, ...] = ("church", "cathedral")

# Privilege kinds. Category privileges climb a step or take that category's alternative.
TRADE, NOBILITY, OFFICES = "trade", "nobility", "offices"
GUILDERS, PRESTIGE6, PRESTIGE7, DRAW2 = "guilders", "prestige6", "prestige7", "draw2"
CATEGORY_KINDS = frozenset({TRADE, NOBILITY, OFFICES})
# ESTIMATE: the full card list; each kind appears five times.
PRIVILEGE_CARDS: dict[str, tuple[str, str, str]] = {
    "1": (TRADE, TRADE, GUILDERS),
    "2": (NOBILITY, NOBILITY, PRESTIGE6),
    "3": (OFFICES, OFFICES, DRAW2),
    "4": (TRADE, NOBILITY, OFFICES),
    "5": (TRADE, OFFICES, PRESTIGE7),
    "6": (NOBILITY, OFFICES, GUILDERS),
    "7": (TRADE, NOBILITY, DRAW2),
    "8": (GUILDERS, PRESTIGE6, DRAW2),
    "9": (GUILDERS, PRESTIGE7, DRAW2),
    "10": (GUILDERS, PRESTIGE7, DRAW2),
}
PRIVILEGE_DISPLAY_SIZE = 5
PRIVILEGES_PER_CARD = 2
DECLINED_PRIVILEGE_PRESTIGE = 2
GUILDERS_PRIVILEGE = 500
PRESTIGE_PRIVILEGE: dict[str, int] = {PRESTIGE6: 6, PRESTIGE7: 7}
DRAW_PRIVILEGE_CARDS = 2
TRADE_ALTERNATIVE_MONEY = 300

# What a category privilege may be used `as`, besides a step (R18).
CATEGORY_ALTERNATIVES: dict[str, tuple[str, ...]] = {
    TRADE: ("trade300",),
    NOBILITY: ("coat", "letter"),
    OFFICES: ("minter", "master_builder", "church", "cathedral"),
}
# The category whose privilege may take each tile, and the lowest level of it that allows this.
TILE_CATEGORY: dict[str, str] = {"coat": NOBILITY, "letter": NOBILITY, "minter": OFFICES, "master_builder": OFFICES,
                                 "church": OFFICES, "cathedral": OFFICES}
TILE_MIN_LEVEL: dict[str, int] = {"coat": 3, "letter": 4, "minter": 3, "master_builder": 4, "church": 1, "cathedral": 1}
TRADE_ALTERNATIVE_MIN_LEVEL = 2  # 300 guilders instead of a Trade step

CHURCH_LIMIT = 25
CATHEDRAL_LIMIT = 45
CONSOLATION: tuple[int, ...] = (100, 50)  # second- and third-best showdown offers
COMPENSATION_MONEY = 100
COMPENSATION_PRESTIGE = 1


def rounds_for(players: int) -> int:
    return players + 2


def is_valid_for(card: str, noble: str) -> bool:
    """Whether a card may back a bid for `noble` (R10)."""
    if card == JOKER:
        return True
    return noble == MAXIMILIAN or CARD_NOBLE.get(card) == noble


def card_rank(card: str) -> tuple[int, int]:
    """Strength of a single card in a showdown; jokers have no value (R13)."""
    if card == JOKER:
        return (0, -1)
    return (CARD_VALUE[card], NOBLE_TIE_RANK[CARD_NOBLE[card]])
