"""An edition file (TOML) read and checked: its shape by pydantic, its sense by the checks below.

Every error names the line of the file that is wrong (tomllib gives none for a value, so the key is looked
up in the text): `line 42 (tiles.church): the stack must run from the most valuable tile down`. The
format is the one of engine/editions/estimates-1.toml, whose comments explain each value.
"""

from __future__ import annotations

import re
import tomllib
from typing import Literal

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError

from .components import MAXIMILIAN, NOBLE_IDS, PRIVILEGE_KINDS, TILE_KINDS

LEVELS = 4  # a player board's levels (1 printed, step tiles for 2-4: R5, R20): the rules', not an edition's
PLAYER_COUNTS = ("2", "3", "4", "5")
CARD_SLOTS = 3  # privileges printed on a privilege card
ID = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")


class EditionError(ValueError):
    """A file that is no edition: `problems` are (line or None, path, message), in the file's order."""

    def __init__(self, problems: list[tuple[int | None, str, str]], name: str = ""):
        self.problems = sorted(problems, key=lambda p: (p[0] or 0, p[1]))
        lines = [(f"line {line}" + (f" ({path})" if path else "") if line else path or "the file") + f": {message}"
                 for line, path, message in self.problems[:8]]
        super().__init__((f"{name}: " if name else "") + "; ".join(lines))


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Names(_Part):
    en: StrictStr
    de: StrictStr | None = None
    it: StrictStr | None = None


class Setup(_Part):
    start_money: StrictInt
    start_jokers: StrictInt
    initial_deal: StrictInt
    rounds: dict[str, StrictInt]


class Nobles(_Part):
    order: list[StrictStr]
    ties: list[StrictStr]


class Cards(_Part):
    values: StrictInt
    jokers: StrictInt
    joker_price: StrictInt
    prices: dict[str, StrictInt]


class Levels(_Part):
    trade: list[StrictInt]
    nobility: list[StrictInt]
    offices: list[StrictInt]
    offices_free_at_top: StrictInt
    minter_free: StrictInt


class Steps(_Part):
    small: StrictInt
    medium: StrictInt
    large: StrictInt


class Tiles(_Part):
    church: list[StrictInt]
    cathedral: list[StrictInt]
    coat: list[StrictInt]
    letter: list[StrictInt]
    minter: StrictInt
    master_builder: StrictInt


class Privileges(_Part):
    per_card: StrictInt
    declined: StrictInt
    display: StrictInt
    guilders: StrictInt
    prestige6: StrictInt
    prestige7: StrictInt
    draw: StrictInt
    trade_money: StrictInt
    trade_money_level: StrictInt


class Limits(_Part):
    church: StrictInt
    cathedral: StrictInt


class Auction(_Part):
    consolation: list[StrictInt]


class Robbery(_Part):
    money: StrictInt
    prestige: StrictInt


class EditionFile(_Part):
    format: Literal[1]
    id: StrictStr
    name: Names
    setup: Setup
    nobles: Nobles
    cards: Cards
    levels: Levels
    steps: dict[str, Steps]
    tiles: Tiles
    tile_levels: dict[str, StrictInt]
    privileges: Privileges
    privilege_cards: dict[str, list[StrictStr]]
    limits: Limits
    auction: Auction
    robbery: Robbery


# A problem found by the checks: the path of the value (("tiles", "church")…) and what is wrong with it.
Problem = tuple[tuple[str, ...], str]


def read(text: str, name: str = "") -> tuple[EditionFile, dict[int, int]]:
    """The checked file and its certificate prices by value; EditionError naming the wrong lines."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # its message ends "(at line N, column M)"
        found = re.search(r"line (\d+)", str(exc))
        raise EditionError([(int(found.group(1)) if found else None, "", f"not TOML: {exc}")], name) from None
    try:
        file = EditionFile.model_validate(data)
    except ValidationError as exc:
        invalid: list[tuple[int | None, str, str]] = []
        for error in exc.errors():
            path = tuple(str(part) for part in error["loc"])
            invalid.append((locate(text, path), ".".join(path), error["msg"]))
        raise EditionError(invalid, name) from None
    problems: list[Problem] = []
    prices = _check(file, problems)
    if problems:
        raise EditionError([(locate(text, path), ".".join(path), message) for path, message in problems], name)
    return file, prices


def _check(f: EditionFile, problems: list[Problem]) -> dict[int, int]:
    """What the rules need of the values; appends (path, message) for each problem found."""

    def need(ok: bool, path: tuple[str, ...], message: str) -> None:
        if not ok:
            problems.append((path, message))

    need(ID.fullmatch(f.id) is not None, ("id",), "an id must be 1-32 lowercase letters, digits or '-'")
    s = f.setup
    for key, value in (("start_money", s.start_money), ("start_jokers", s.start_jokers),
                       ("initial_deal", s.initial_deal)):
        need(value >= 0, ("setup", key), "must not be negative")
    need(sorted(s.rounds) == list(PLAYER_COUNTS), ("setup", "rounds"),
         "one number of rounds is needed for each of 2, 3, 4 and 5 players")
    need(all(r >= 1 for r in s.rounds.values()), ("setup", "rounds"), "a game must have at least one round")
    order, ties = f.nobles.order, f.nobles.ties
    need(sorted(order) == sorted(NOBLE_IDS), ("nobles", "order"),
         f"the five nobles must each be named once: {sorted(NOBLE_IDS)}")
    need(sorted(ties) == sorted(NOBLE_IDS - {MAXIMILIAN}), ("nobles", "ties"),
         "the four nobles with certificates must each be named once, the strongest first")
    c = f.cards
    need(c.values >= 1, ("cards", "values"), "certificates must be numbered from 1 to at least 1")
    need(c.jokers >= 5 * s.start_jokers, ("cards", "jokers"), "there must be jokers enough for five players' start")
    need(c.joker_price >= 0, ("cards", "joker_price"), "must not be negative")
    prices = _prices(c, problems)
    lv = f.levels
    for key in ("trade", "nobility", "offices"):
        values = getattr(lv, key)
        need(len(values) == LEVELS and all(v >= 0 for v in values), ("levels", key),
             f"{LEVELS} numbers are needed, one per level, none negative")
    need(lv.offices_free_at_top >= 0 and lv.minter_free >= 0, ("levels",), "free cards must not be negative")
    need(sorted(f.steps) == list(PLAYER_COUNTS), ("steps",),
         "step tiles are needed for each of 2, 3, 4 and 5 players")
    for n, steps in f.steps.items():
        need(min(steps.small, steps.medium, steps.large) >= 0, ("steps", n), "counts must not be negative")
    t = f.tiles
    for kind in ("church", "cathedral", "coat", "letter"):
        stack = getattr(t, kind)
        need(stack == sorted(stack, reverse=True), ("tiles", kind),
             "a stack must run from the most valuable tile down")
        need(all(v >= 0 for v in stack), ("tiles", kind), "values must not be negative")
    need(t.minter >= 0 and t.master_builder >= 0, ("tiles",), "counts must not be negative")
    need(sorted(f.tile_levels) == sorted(TILE_KINDS), ("tile_levels",),
         f"one level is needed for each of {list(TILE_KINDS)}")
    need(all(1 <= v <= LEVELS for v in f.tile_levels.values()), ("tile_levels",),
         f"levels must be from 1 to {LEVELS}")
    p = f.privileges
    need(1 <= p.per_card <= CARD_SLOTS, ("privileges", "per_card"), f"must be between 1 and {CARD_SLOTS}")
    need(p.display >= 1, ("privileges", "display"), "at least one card must lie face up")
    need(1 <= p.trade_money_level <= LEVELS, ("privileges", "trade_money_level"), f"must be a level from 1 to {LEVELS}")
    need(p.draw >= 1, ("privileges", "draw"), "at least one card must be drawn")
    for key in ("declined", "guilders", "prestige6", "prestige7", "trade_money"):
        need(getattr(p, key) >= 0, ("privileges", key), "must not be negative")
    cards = f.privilege_cards
    need(len(cards) == 2 * p.display, ("privilege_cards",),
         f"there must be twice privileges.display ({2 * p.display}) cards: half face up, half waiting (R7)")
    for number, kinds in cards.items():
        need(number.isdigit() and int(number) >= 1 and str(int(number)) == number, ("privilege_cards", number),
             "privilege cards must be numbered 1, 2, 3…")
        need(len(kinds) == CARD_SLOTS and set(kinds) <= PRIVILEGE_KINDS, ("privilege_cards", number),
             f"a card must show {CARD_SLOTS} privileges of {sorted(PRIVILEGE_KINDS)}")
    need(0 <= f.limits.church <= f.limits.cathedral, ("limits",),
         "the Church's limit must not be above the Cathedral's")
    need(all(v >= 0 for v in f.auction.consolation), ("auction", "consolation"), "must not be negative")
    need(f.robbery.money >= 0 and f.robbery.prestige >= 0, ("robbery",), "must not be negative")
    return prices


def _prices(c: Cards, problems: list[Problem]) -> dict[int, int]:
    """Prices by value from bands such as "1-3" = 200; every value priced exactly once."""
    prices: dict[int, int] = {}
    for band, price in c.prices.items():
        found = re.fullmatch(r"(\d+)(?:-(\d+))?", band)
        if found is None or price < 0:
            problems.append((("cards", "prices", band), 'a band is "first-last" (or one value), its price >= 0'))
            continue
        low, high = int(found.group(1)), int(found.group(2) or found.group(1))
        for value in range(low, high + 1):
            if value in prices or not 1 <= value <= c.values:
                problems.append((("cards", "prices", band), f"value {value} is priced twice or does not exist"))
                break
            prices[value] = price
    missing = [v for v in range(1, c.values + 1) if v not in prices]
    if missing:
        problems.append((("cards", "prices"), f"no price for values {missing}"))
    return prices


_HEADER = re.compile(r"\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"\s*((?:\"[^\"]*\"|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:\"[^\"]*\"|[A-Za-z0-9_-]+))*)\s*=")


def _parts(dotted: str) -> tuple[str, ...]:
    return tuple(p.strip().strip('"') for p in re.findall(r'"[^"]*"|[^.]+', dotted))


def locate(text: str, path: tuple[str, ...]) -> int | None:
    """The line (from 1) that sets `path` (("tiles", "church"), ("steps", "3", "small")…), or the nearest line
    that holds it: its key's line, else its table's header; None if the file does not mention it."""
    best, best_depth = None, 0
    section: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            section = _parts(header.group(1))
            key: tuple[str, ...] = ()
        else:
            found = _KEY.match(line)
            if not found:
                continue
            key = _parts(found.group(1))
        full = section + key
        depth = 0
        while depth < min(len(full), len(path)) and full[depth] == path[depth]:
            depth += 1
        if depth == len(full) and depth > best_depth:  # this line (or table) holds the path so far
            best, best_depth = number, depth
    return best
