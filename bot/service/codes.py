"""Engine actions <-> short codes that fit in a Discord custom_id (100 characters at most).

Codes name public things (counts, slots, privilege cards, player ids) or
positions in the clicking player's own hand or offer, so a custom_id on an
ephemeral panel carries nothing another player could use.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.actions import (
    ActionModel,
    Bid,
    Build,
    Buy,
    Call,
    Compensate,
    Discard,
    Done,
    Pass,
    ReturnCard,
    Reveal,
    TakeCard,
    Use,
)
from engine.components import JOKER, MAXIMILIAN, NOBLE_IDS
from engine.edition import Edition
from engine.state import GameState, seat_of

DOTTED_AT_MOST = 24  # characters of dotted positions; longer ones are written as a bitmask
MASK = re.compile(r"x[0-9a-f]{1,25}")  # a bitmask of up to 100 positions: more than a hand can hold


def encode(action: ActionModel) -> str:
    match action:
        case Pass():
            return "p"
        case Call():
            return "c"
        case Bid(count=n):
            return f"b{n}"
        case TakeCard(card=card):
            return f"t{card}"
        case Use(slot=slot, as_=as_, from_=from_):
            return f"u{slot}.{as_ or ''}.{from_ or ''}"
        case Build(what=what):
            return f"B{what}"
        case Done():
            return "d"
        case Compensate(take=take):
            return f"m{take}"
        case Discard(card=card):
            return f"x{card}"
        case ReturnCard(card=card):
            return f"r{card}"
    raise ValueError(f"no code for {action!r}")


def encode_positions(kind: str, positions: list[int]) -> str:
    """`buy:` / `rev:` followed by positions in the player's offer / hand: `rev:0.3.4`, or for many cards
    a bitmask, `rev:x19` (bit i: position i), so a lay-down of the whole deck still fits a custom_id and
    an autocomplete value (100 characters; 80 positions take 20 hex digits)."""
    dotted = ".".join(str(i) for i in sorted(positions))
    if len(dotted) <= DOTTED_AT_MOST:
        return f"{kind}:{dotted}"
    return f"{kind}:x{sum(1 << i for i in set(positions)):x}"


Resolver = Callable[[GameState, str], ActionModel]  # an action read from the game under the channel's lock


def decode(code: str) -> ActionModel | Resolver:
    """An action, or for positional codes a function (state, player) -> action, read under the lock."""
    if code.startswith(("buy:", "rev:")):
        kind, _, rest = code.partition(":")
        if MASK.fullmatch(rest):
            mask = int(rest[1:], 16)
            positions = [i for i in range(mask.bit_length()) if mask >> i & 1]
        elif rest and not re.fullmatch(r"[0-9.]+", rest):
            return _by_names(kind, rest)
        else:
            positions = [int(i) for i in rest.split(".") if i]
        if len(set(positions)) != len(positions):
            raise ValueError("a card was chosen twice")

        def resolve(state: GameState, player: str) -> ActionModel:
            seat = seat_of(state, player)
            if seat is None:
                raise KeyError(player)  # read as a stale choice (decisions.act)
            p = state.players[seat]
            source = p.offered if kind == "buy" else p.hand
            cards = [source[i] for i in positions]
            return Buy(cards=cards) if kind == "buy" else Reveal(cards=cards)

        return resolve
    head, rest = code[:1], code[1:]
    match head:
        case "p" if not rest:
            return Pass()
        case "c" if not rest:
            return Call()
        case "b":
            return Bid(count=int(rest))
        case "t":
            return TakeCard(card=rest)
        case "u":
            slot, as_, from_ = rest.split(".", 2)
            return Use(slot=int(slot), as_=as_ or None, from_=from_ or None)
        case "B":
            return Build(what=rest)
        case "d" if not rest:
            return Done()
        case "m":
            return Compensate(take=rest)
        case "x":
            return Discard(card=rest)
        case "r":
            return ReturnCard(card=rest)
    raise ValueError(f"unknown action code {code!r}")


def _by_names(kind: str, text: str) -> Resolver:
    """Cards typed by name ('Maria 15, Joker'); 'nothing' buys nothing."""
    if text.strip().lower() in ("nothing", "none"):
        cards: list[str] = []
    else:
        cards = [card_from_name(part) for part in text.split(",") if part.strip()]

    def resolve(state: GameState, player: str) -> ActionModel:
        return Buy(cards=cards) if kind == "buy" else Reveal(cards=cards)

    return resolve


def card_from_name(text: str, ed: Edition | None = None) -> str:
    """'Maria 15' / 'maria-15' / 'joker' -> the engine's card id (ValueError if it is no card of edition `ed`;
    without one, if it names no noble: the engine refuses a card its game does not have).

    Typed names are read in English and by the engine's ids; other languages add their names here.
    """
    words = text.strip().lower().replace("-", " ").split()
    if words in (["joker"], ["j"]):
        return JOKER
    if len(words) == 2 and words[1].isdigit():
        card_id = f"{words[0]}-{int(words[1])}"
        if card_id in ed.card_noble if ed is not None else words[0] in NOBLE_IDS - {MAXIMILIAN}:
            return card_id
    raise ValueError(text)
