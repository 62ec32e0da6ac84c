"""An edition: every number of the physical game as data, and the lookup tables the rules read it through.

    edition = parse_edition(text)          # an edition file (TOML; engine/editions/ ships some)
    edition.card_price["maria-15"]         # 400
    state.edition.privilege_cards["4"]     # a game reads the edition it was started with

An edition is known by its id and the sha256 of its values (`sha256`): the values the engine uses, in a
canonical JSON, so comments, layout, names and the sources cited beside the values do not count, and
any changed value makes another edition. Games store that pair (and their rules version), and are
replayed only with an edition of the same values (storage refuses them otherwise).

Parsing is pure (text in, edition out); reading the files is engine/editions' (the shipped ones and
an operator's directory). Each edition is parsed once per process and kept by (id, sha256), so a stored
state's reference resolves to the very same object: the engine and the computer players, which copy
states thousands of times per decision, reach every value with an attribute and a dict look-up.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import ConfigDict, PlainSerializer, PlainValidator, WithJsonSchema

from .components import JOKER, MAXIMILIAN, TileValue
from .edition_file import LEVELS, EditionError, EditionFile, read
from .shared_fields import SharedFields

__all__ = ["Edition", "EditionError", "EditionRef", "Rank", "field", "known", "parse_edition"]


class EditionRef(SharedFields):
    """How a game names its edition: the id and the sha256 of its values."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    sha256: str


# A single card's strength in a showdown (R13): its value, then its noble's place in the ties (a joker: (0, -1)).
Rank = tuple[int, int]


class Edition:
    """The values of one edition, as the tables the rules look them up in. Never changed once built."""

    def __init__(self, file: EditionFile, prices: dict[int, int], source: str):
        self.id = file.id
        self.source = source  # the file's text: what an export carries, so a replay anywhere has it
        self.names: dict[str, str] = {lang: text for lang, text in file.name.model_dump().items() if text}
        s, c, lv, p = file.setup, file.cards, file.levels, file.privileges
        self.start_money, self.start_jokers, self.initial_deal = s.start_money, s.start_jokers, s.initial_deal
        self.rounds = {int(n): r for n, r in s.rounds.items()}
        self.nobles: tuple[str, ...] = tuple(file.nobles.order)
        self.certificate_nobles = tuple(n for n in self.nobles if n != MAXIMILIAN)
        self.ties: tuple[str, ...] = tuple(file.nobles.ties)  # who wins equal values for Maximilian, first first
        ties = list(reversed(file.nobles.ties))  # the weakest first: rank 0
        self.noble_tie_rank = {n: ties.index(n) for n in self.certificate_nobles}
        self.joker_count, self.joker_price = c.jokers, c.joker_price
        self.certificate_values = range(1, c.values + 1)
        self.max_certificate_value = c.values
        self.card_noble: dict[str, str] = {}
        self.card_value: dict[str, int] = {}
        self.card_price: dict[str, int] = {JOKER: c.joker_price}
        for noble in self.certificate_nobles:
            for value in self.certificate_values:
                card = f"{noble}-{value}"
                self.card_noble[card], self.card_value[card], self.card_price[card] = noble, value, prices[value]
        self.certificates: tuple[str, ...] = tuple(self.card_noble)
        self.all_cards: tuple[str, ...] = self.certificates + (JOKER,) * c.jokers
        self.prices: tuple[int, ...] = tuple(sorted(set(self.card_price.values())))
        rank: dict[str, Rank] = {card: (self.card_value[card], self.noble_tie_rank[self.card_noble[card]])
                                 for card in self.certificates}
        rank[JOKER] = (0, -1)  # a joker has no value (R13)
        self.card_rank: Callable[[str], Rank] = rank.__getitem__  # a showdown's strength of a single card
        # Per noble, the cards valid for it (R10; rules.valid_cards): a set, as hands are sifted constantly.
        self.valid_for: dict[str, frozenset[str]] = {
            noble: frozenset(c for c in self.all_cards if self.is_valid_for(c, noble)) for noble in self.nobles}
        self.max_level = LEVELS
        self.trade_income = dict(enumerate(lv.trade, start=1))
        self.nobility_prestige = dict(enumerate(lv.nobility, start=1))
        self.offices_cards = dict(enumerate(lv.offices, start=1))
        self.offices_free_cards_at_top, self.minter_free_cards = lv.offices_free_at_top, lv.minter_free
        self._steps = {int(n): (2,) * t.small + (3,) * t.medium + (4,) * t.large for n, t in file.steps.items()}
        t = file.tiles
        self.tile_stacks: dict[str, tuple[TileValue, ...]] = {
            "church": tuple(t.church), "cathedral": tuple(t.cathedral), "coat": tuple(t.coat),
            "letter": tuple(t.letter), "minter": (True,) * t.minter, "master_builder": (True,) * t.master_builder}
        self.tile_min_level = dict(file.tile_levels)
        self.privilege_cards: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in sorted(
            file.privilege_cards.items(), key=lambda item: int(item[0]))}
        self.privilege_display_size, self.privileges_per_card = p.display, p.per_card
        self.declined_privilege_prestige, self.guilders_privilege = p.declined, p.guilders
        self.prestige_privilege = {"prestige6": p.prestige6, "prestige7": p.prestige7}
        self.draw_privilege_cards = p.draw
        self.trade_alternative_money, self.trade_alternative_min_level = p.trade_money, p.trade_money_level
        self.church_limit, self.cathedral_limit = file.limits.church, file.limits.cathedral
        self.consolation: tuple[int, ...] = tuple(file.auction.consolation)
        self.compensation_money, self.compensation_prestige = file.robbery.money, file.robbery.prestige
        self._values = _values(file, prices)
        canonical = json.dumps(self._values, sort_keys=True, separators=(",", ":"))
        self.sha256 = hashlib.sha256(canonical.encode()).hexdigest()
        self.ref = EditionRef(id=self.id, sha256=self.sha256)

    def values(self) -> dict[str, Any]:
        """Every value of the file, as plain JSON data: what the sha256 is taken of (not the id, the names,
        the layout or the comments)."""
        values: dict[str, Any] = json.loads(json.dumps(self._values))  # a deep copy, as JSON values
        return values

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names["en"]

    def rounds_for(self, players: int) -> int:
        return self.rounds[players]

    def step_tiles(self, players: int) -> list[int]:
        """The step-tile supply of one colour, sorted: small = step 2, medium = 3, large = 4 (R5)."""
        return list(self._steps[players])

    def is_valid_for(self, card: str, noble: str) -> bool:
        """Whether a card may back a bid for `noble` (R10)."""
        if card == JOKER:
            return True
        return noble == MAXIMILIAN or self.card_noble.get(card) == noble

    def __repr__(self) -> str:
        return f"Edition({self.id!r}, sha256={self.sha256[:12]}…)"

    def __reduce__(self) -> tuple[Callable[[str, str, str], Edition], tuple[str, str, str]]:
        # To a worker process (the strong computer, pictures) as its text, parsed there once.
        return _revive, (self.id, self.sha256, self.source)


def _values(file: EditionFile, prices: dict[int, int]) -> dict[str, Any]:
    """The file's values, normalised (a price per certificate value, however the bands were written).

    Never change what this gives for an existing edition: games are stored with its sha256. A value added
    to the format later needs a default meaning what the rules did before it; left at its default, it is
    left out here (exclude_defaults), so the editions written before it keep their sha256."""
    values = file.model_dump(exclude={"format", "id", "name"}, exclude_defaults=True)
    values["cards"]["prices"] = [prices[v] for v in range(1, file.cards.values + 1)]
    return values


_KNOWN: dict[tuple[str, str], Edition] = {}


def parse_edition(text: str | bytes, name: str = "") -> Edition:
    """The edition a file's text describes (EditionError naming the wrong lines if it is none).

    The same values give the same object, so a game's edition is one object in this process."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    file, prices = read(text, name)
    edition = Edition(file, prices, text)
    return _KNOWN.setdefault((edition.id, edition.sha256), edition)


def _revive(id: str, sha256: str, text: str) -> Edition:
    return known(id, sha256) or parse_edition(text)


def known(id: str, sha256: str) -> Edition | None:
    """An edition this process has parsed, by its id and values."""
    return _KNOWN.get((id, sha256))


def _serialize(edition: Edition) -> dict[str, str]:
    return {"id": edition.id, "sha256": edition.sha256}


def validator(resolve: Callable[[EditionRef], Edition]) -> PlainValidator:
    """How a pydantic field reads an Edition: itself, or its EditionRef, which `resolve(ref)` finds again
    (editions/__init__.py passes one that also knows the shipped editions)."""

    def validate(value: Any) -> Edition:  # (Any: stored JSON, or an Edition)
        if isinstance(value, Edition):
            return value
        return resolve(EditionRef.model_validate(value))

    return PlainValidator(validate)


SERIALIZER = PlainSerializer(_serialize)  # an Edition is stored as its EditionRef
SCHEMA = WithJsonSchema(EditionRef.model_json_schema())


def field(resolve: Callable[[EditionRef], Edition]) -> object:
    """A pydantic field type holding an Edition, stored as its EditionRef; `resolve(ref)` finds it again.
    (Built at run time, so a type checker cannot read it: annotations use editions.EditionField, written out.)"""
    return Annotated[Edition, validator(resolve), SERIALIZER, SCHEMA]
