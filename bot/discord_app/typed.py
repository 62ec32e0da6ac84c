"""What a person types for a typed command, read as one of that command's choices.

People type names, numbers, the start of words, in any case ('card:4', 'trade nob off', 'privilege:climb',
'card:MARIA 15'); autocomplete sends the choices' values (action codes, card names). `choose` matches either
against the (label, value) choices of the command; `read` turns a typed command into the action it names,
or into a Notice (ambiguous: which ones; unknown: what is possible now), so that nothing changes.

Choices come from the typist's own legal actions and view only (choices.py), so an answer shows nothing
of anyone else. Pure: no Discord here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine import LegalOption, View
from engine.actions import (
    ActionModel,
    Build,
    Buy,
    BuyChoice,
    Discard,
    ReturnCard,
    Reveal,
    RevealChoice,
    TakeCard,
    Use,
)

from ..service import Notice, codes
from ..service.decisions import Chosen
from ..wording import moves, names
from ..wording.words import ENGLISH, People, Words
from . import choices

COMMANDS = ("privilege", "use", "build", "discard", "return", "buy", "reveal")
NOTHING = ("nothing", "none")
V = TypeVar("V")  # a choice's value


@dataclass(frozen=True)
class Found(Generic[V]):
    """The labels of the choices that match (each choice once); `value` when exactly one does."""

    labels: tuple[str, ...] = ()
    value: V | None = None

    def one(self) -> V:
        """The value of the one choice that matched (asked once exactly one label did)."""
        assert len(self.labels) == 1 and self.value is not None, "exactly one choice matched"
        return self.value


def words(text: str) -> list[str]:
    """'+1,150 Guilders' -> ['1150', 'guilders']; 'card4' -> ['card', '4']: case, punctuation, '+' and
    separators do not count, nor do the separators within a number."""
    text = re.sub(r"(?<=\d)[,.'’](?=\d{3}(?!\d))", "", str(text).lower())
    text = re.sub(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])", " ", text)
    return re.findall(r"[^\W_]+", text)


def _prefixes(said: list[str], label: list[str]) -> bool:
    """Each typed word begins a different word of the label ('trade trade' needs two Trades); a number must
    be the whole number ('1' is not '10')."""
    fits = [[i for i, word in enumerate(label) if (word == s if s.isdigit() else word.startswith(s))] for s in said]
    taken: dict[int, int] = {}  # label word -> typed word

    def place(s: int, seen: set[int]) -> bool:  # a matching of typed words to label words (augmenting paths)
        for i in fits[s]:
            if i not in seen:
                seen.add(i)
                if i not in taken or place(taken[i], seen):
                    taken[i] = s
                    return True
        return False

    return all(place(s, set()) for s in range(len(said)))


def choose(typed: str, pairs: Sequence[tuple[str, V]], aliases: Sequence[tuple[str, V]] = ()) -> Found[V]:
    """The choice `typed` names among (label, value) `pairs`, or the candidates; `aliases` (text, value) are
    further names of a choice's value. The value or a name typed in full wins over the start of words;
    choices with equal values or equal labels count as one (the first is taken)."""
    said = words(typed)
    if not said:
        return Found()
    names_of = [[words(label), *(words(t) for t, v in aliases if v == value)] for label, value in pairs]
    matched = [p for p, ns in zip(pairs, names_of, strict=True) if said in ns or said == words(str(p[1]))]
    if not matched:  # the start of words of a name (a value, being a code, only in full)
        matched = [p for p, ns in zip(pairs, names_of, strict=True) if any(n and _prefixes(said, n) for n in ns)]
    kept: list[tuple[str, V]] = []
    for label, value in matched:
        if all(label != k and value != v for k, v in kept):
            kept.append((label, value))
    return Found(tuple(k for k, _ in kept), kept[0][1] if len(kept) == 1 else None)


def read(w: Words, command: str, text: str, options: Sequence[LegalOption], view: View,
         people: People) -> Chosen | Notice:
    """The action (or, for codes naming positions, codes.decode's resolver) of a typed command, or a Notice
    that changes nothing. When the command is not for now, an action the engine will refuse, saying why."""
    text = str(text or "").strip()
    if command in ("buy", "reveal"):
        return _cards(w, command, text, options, view, people)
    pairs, aliases = _named(w, command, options, view, people)
    if not pairs:
        return _not_now(command, text, view)
    number = re.fullmatch(r"(?:card|t)?\s*#?\s*(\d+)", text.lower())
    cards = view.edition.privilege_cards
    if command == "privilege" and number and number[1] in cards:  # its number: 'card:4', 'Card 4'
        twin = [v for _, v in pairs if cards.get(number[1]) == cards[v]]
        return TakeCard(card=twin[0]) if twin else _unknown(pairs)
    found = choose(text, pairs, aliases)
    if len(found.labels) > 1:
        return Notice("typed_ambiguous", {"candidates": list(found.labels)})
    if not found.labels:
        return _unknown(pairs)
    return _action(command, found.one())


def _named(w: Words, command: str, options: Sequence[LegalOption], view: View,
           people: People) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The command's (label, value) choices now, and further names of their values."""
    if command == "privilege":
        return choices.privilege_cards(w, options, view, people), []  # numbers: see read
    if command == "use":
        uses = [o for o in options if isinstance(o, Use)]
        if not uses:
            return [], []
        card, ed = view.privilege.card if view.privilege else None, view.edition
        assert card is not None, "a privilege card is used while one is held"
        pairs = [(moves.use(w, o, card, people, numbered=False, ed=ed), codes.encode(o)) for o in uses]
        return pairs, [(moves.use(w, o, card, people, ed=ed), codes.encode(o)) for o in uses]
    if command == "build":
        builds = [o for o in options if isinstance(o, Build)]
        return choices.buildings(w, options, view, people), [(names.tile(w, o.what), o.what) for o in builds]
    kind = Discard if command == "discard" else ReturnCard
    ed = view.edition
    cards = sorted({o.card for o in options if isinstance(o, kind)}, key=ed.card_rank)
    return [(names.card_with_price(w, c, ed), c) for c in cards], card_aliases(w, cards)


def card_aliases(w: Words, cards: Sequence[str]) -> list[tuple[str, str]]:
    """Further names of cards: in the typist's language and in English ('Philippe 3' or 'Philipp 3',
    'Jolly' or 'Joker': a player may know the cards from another edition), and their ids."""
    return [(n, c) for c in cards for n in {names.card(w, c), names.card(ENGLISH, c), c}]


def _action(command: str, value: str) -> Chosen:
    match command:
        case "privilege":
            return TakeCard(card=value)
        case "use":
            return codes.decode(value)
        case "build":
            return Build(what=value)
        case "discard":
            return Discard(card=value)
    return ReturnCard(card=value)


def _not_now(command: str, text: str, view: View) -> ActionModel:
    """The command's action as typed, for the engine to refuse (not your turn, not this moment, ...)."""
    if command == "privilege":
        return TakeCard(card=text)
    if command == "use":
        return Use(slot=0)
    if command == "build":
        return Build(what=text.lower())
    try:
        card = codes.card_from_name(text, view.edition)
    except ValueError:
        card = "?"
    return Discard(card=card) if command == "discard" else ReturnCard(card=card)


def _unknown(pairs: Sequence[tuple[str, object]]) -> Notice:
    labels = [label for i, (label, _) in enumerate(pairs) if label not in [k for k, _ in pairs[:i]]]
    return Notice("typed_unknown", {"choices": labels})


def _cards(w: Words, command: str, text: str, options: Sequence[LegalOption], view: View,
           people: People) -> Chosen | Notice:
    """Cards to buy or lay down: a suggestion's code or label, 'nothing', or cards by name separated by commas."""
    kind, model = ("buy", Buy) if command == "buy" else ("rev", Reveal)
    if text.lower().startswith(f"{kind}:"):
        return codes.decode(text)
    choice = next((o for o in options if isinstance(o, BuyChoice if kind == "buy" else RevealChoice)), None)
    if choice is None:
        return model(cards=[])  # not the moment: the engine says why
    said = words(text)
    if kind == "buy" and (said in ([n] for n in NOTHING) or said in (words(names.cards(x, [])) for x in (w, ENGLISH))):
        return Buy(cards=[])
    suggested = choices.purchases if kind == "buy" else choices.reveals
    for label, value in suggested(w, options, view, people):  # a suggestion typed out in full
        if said == words(label):
            return codes.decode(value)
    offered = choice.offered if isinstance(choice, BuyChoice) else choice.cards  # (the choice of this `kind`)
    cards = sorted(set(offered), key=view.edition.card_rank, reverse=True)
    pairs = [(names.card(w, c), c) for c in cards]
    picked: list[str] = []
    for part in re.split(r"[,;]", text):
        if not words(part):
            continue
        found = choose(part, pairs, card_aliases(w, cards))
        if len(found.labels) > 1:
            return Notice("typed_ambiguous", {"candidates": list(found.labels)})
        if not found.labels:
            extra = [names.cards(w, [])] if kind == "buy" else []
            return Notice("typed_unknown", {"choices": [n for n, _ in pairs] + extra})
        picked.append(found.one())
    if not picked:
        return Notice("typed_unknown", {"choices": [n for n, _ in pairs]})
    return model(cards=picked)
