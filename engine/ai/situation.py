"""What the computer player reads from its own View: itself, the time left, the board.

Everything here is built from `player_view(state, me)` alone, never from the
GameState, so the computer player cannot use hidden information by accident.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..components import CATEGORIES, TILE_KINDS, TileValue
from ..edition import Edition
from .atoms import atom
from .seen import SeenView


@dataclass(frozen=True)
class Horizon:
    """How much of the game is left, counted in the events that give points, money and cards."""

    scorings: int  # round-end prestige scorings still to come
    incomes: int  # round-end incomes still to come that can still be spent
    purchases: int  # round-end card purchases still to come (not counting one in progress)
    auctions: int  # auctions still to come after the current one
    last_round: bool  # the round being played (or bought for) is the last one
    _hash: int = field(init=False, repr=False, compare=False)  # (set by __post_init__)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.scorings, self.incomes, self.purchases, self.auctions,
                                                self.last_round)))

    def __hash__(self) -> int:  # computed once: a horizon is part of the planners' cache keys
        return self._hash


def horizon(view: SeenView) -> Horizon:
    return _horizon(view.phase, view.round, view.rounds, view.edition.nobles, view.noble)


@lru_cache(maxsize=1024)
def _horizon(phase: str, r: int, rounds: int, nobles: tuple[str, ...], noble: str | None) -> Horizon:
    """(Remembered: every decision asks, and a game has few horizons.)"""
    per_round = len(nobles)  # auctions in a round
    if phase in ("auction", "showdown", "privilege"):
        at = nobles.index(noble)
        return Horizon(
            scorings=rounds - r + 1,
            incomes=rounds - r,
            purchases=rounds - r,
            auctions=(per_round - 1 - at) + per_round * (rounds - r),
            last_round=r == rounds,
        )
    if phase == "initial_purchase":
        return Horizon(scorings=rounds, incomes=rounds - 1, purchases=rounds - 1,
                       auctions=per_round * rounds, last_round=rounds == 1)
    # Round-end purchase or deck shortage: round r has been scored; rounds r+1.. remain.
    return Horizon(
        scorings=rounds - r,
        incomes=max(0, rounds - r - 1),
        purchases=max(0, rounds - r - 1),
        auctions=per_round * (rounds - r),
        last_round=r + 1 == rounds,
    )


class Me:
    """The computer player's own position, as a small mutable record for what-if planning; `ed`: the edition
    of its game, whose values price it."""

    __slots__ = ("ed", "score", "money", "trade", "nobility", "offices",
                 "church", "cathedral", "coat", "letter", "minter", "master_builder", "extra_cards")

    def __init__(self, ed: Edition, score: int, money: int, trade: int, nobility: int, offices: int,
                 church: int | None = None, cathedral: int | None = None, coat: int | None = None,
                 letter: int | None = None, minter: bool = False, master_builder: bool = False, extra_cards: int = 0):
        self.ed = ed
        self.score = score
        self.money = money
        self.trade = trade
        self.nobility = nobility
        self.offices = offices
        self.church = church
        self.cathedral = cathedral
        self.coat = coat
        self.letter = letter
        self.minter = minter
        self.master_builder = master_builder
        self.extra_cards = extra_cards  # cards gained by a planned draw-2 (net of the discard)

    def copy(self) -> Me:
        # Written out field by field: planning copies positions about a million times a search.
        new = Me.__new__(Me)
        new.ed, new.score, new.money = self.ed, self.score, self.money
        new.trade, new.nobility, new.offices = self.trade, self.nobility, self.offices
        new.church, new.cathedral, new.coat, new.letter = self.church, self.cathedral, self.coat, self.letter
        new.minter, new.master_builder, new.extra_cards = self.minter, self.master_builder, self.extra_cards
        return new

    def level(self, category: str) -> int:
        level: int = getattr(self, category)  # trade, nobility or offices
        return level

    def key(self) -> MeKey:
        """Every field, in __slots__ order (the edition as its atom: a key of numbers and text only)."""
        return (atom(self.ed), self.score, self.money, self.trade, self.nobility, self.offices, self.church,
                self.cathedral, self.coat, self.letter, self.minter, self.master_builder, self.extra_cards)


# Me's fields, in __slots__ order.
MeKey = tuple[int, int, int, int, int, int, int | None, int | None, int | None, int | None, bool, bool, int]


def me_from_view(view: SeenView) -> Me:
    you = view.you
    assert you is not None  # (a computer decides from its own view)
    pub = next(p for p in view.players if p.id == you.id)
    t = pub.tiles
    return Me(ed=view.edition, score=pub.score, money=you.money, trade=pub.levels["trade"],
              nobility=pub.levels["nobility"], offices=pub.levels["offices"], church=t.church,
              cathedral=t.cathedral, coat=t.coat, letter=t.letter, minter=t.minter, master_builder=t.master_builder)


# What plans depend on (Board.key): the edition, the supply per category, the levels the others hold, and the
# tops of the tile stacks.
BoardKey = tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...], tuple[TileValue | None, ...]]


class Board:
    """The public parts of the table that privilege planning needs, and the game's edition. Read only.

    (A plain class: every decision builds one, and a frozen dataclass takes twice as long to.)"""

    __slots__ = ("ed", "supply", "others", "scores", "tops", "_key", "_empty", "_held")

    def __init__(self, ed: Edition, supply: dict[str, tuple[int, ...]], others: dict[str, dict[str, int]],
                 scores: dict[str, int], tops: dict[str, TileValue | None]):
        self.ed = ed
        self.supply = supply  # step tiles still in the supply per category
        self.others = others  # opponent id -> category -> level
        self.scores = scores  # opponent id -> score
        self.tops = tops  # tile kind -> value of the top tile, or None if the stack is empty
        # Worked out on first use:
        self._key: BoardKey | None = None
        self._empty: tuple[bool, ...] | None = None
        self._held: frozenset[tuple[str, int]] | None = None

    @property
    def key(self) -> BoardKey:
        """What plans depend on, as a flat hashable value (for remembering them): the supply, the levels
        the others hold (not who holds them, nor the scores) and the tops of the tile stacks, read in the
        fixed orders of CATEGORIES and TILE_KINDS, the only names planning reads them by."""
        if self._key is None:
            supply, tops = self.supply, self.tops
            self._key = (atom(self.ed), tuple([supply[c] for c in CATEGORIES]),
                         tuple([lv[c] for lv in self.others.values() for c in CATEGORIES]),
                         tuple([tops.get(kind) for kind in TILE_KINDS]))
        return self._key

    @property
    def held(self) -> frozenset[tuple[str, int]]:
        """(category, level) for every level an opponent holds."""
        if self._held is None:
            self._held = frozenset((c, lv[c]) for lv in self.others.values() for c in CATEGORIES)
        return self._held

    @property
    def empty(self) -> tuple[bool, ...]:
        """For each tile kind (TILE_KINDS), whether its stack is empty."""
        if self._empty is None:
            self._empty = tuple([top is None for top in self.key[3]])
        return self._empty


def board_from_view(view: SeenView) -> Board:
    """(The levels are the view's own dicts, not copies: a board lives for one decision and is only read.)"""
    assert view.you is not None
    me = view.you.id
    others: dict[str, dict[str, int]] = {}
    scores: dict[str, int] = {}
    for p in view.players:
        if p.id != me:
            others[p.id], scores[p.id] = p.levels, p.score
    supply = view.step_supply
    return Board(
        ed=view.edition,
        supply={c: tuple(supply[c]) for c in CATEGORIES},
        others=others,
        scores=scores,
        tops=tops_from_view(view),
    )


def tops_from_view(view: SeenView) -> dict[str, TileValue | None]:
    """Tile kind -> the value of the top tile of its stack, or None if the stack is empty."""
    return {k: (v[0] if v else None) for k, v in view.tile_stacks.items()}
