"""A player's legal options as labelled choices, for buttons, menus and autocomplete: the service's groups
(bot/service/choices.py) with words on them.

Every chooser takes (words, legal options, the player's view, people), so a front-end can pick one by name
for each typed command. Values are action codes (the same a button carries), or card names as a player
would type them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from engine import LegalOption, View
from engine.actions import ActionModel, Bid, Build, BuyChoice, Discard, ReturnCard, TakeCard, Use

from ..service import choices, codes
from ..wording import moves, names
from ..wording.words import People, Words

MAX_CHOICES = 25  # Discord's limit for autocomplete choices and select options
V = TypeVar("V")


def labelled(w: Words, options: Sequence[LegalOption], view: View, people: People,
             kind: type[ActionModel] = ActionModel) -> list[tuple[str, str]]:
    """(label, code) for each concrete option of `kind`."""
    return [(moves.action(w, o, view, people), codes.encode(o)) for o in options if isinstance(o, kind)]


def bids(w: Words, options: Sequence[LegalOption], view: View, people: People) -> list[tuple[str, int]]:
    return [(moves.action(w, o, view, people), o.count) for o in options if isinstance(o, Bid)]


def privilege_cards(w: Words, options: Sequence[LegalOption], view: View, people: People) -> list[tuple[str, str]]:
    """One choice per name: cards that give the same share it and are interchangeable (9 and 10)."""
    pairs = [(names.privilege_card(w, o.card, view.edition), o.card) for o in options if isinstance(o, TakeCard)]
    return [(n, v) for i, (n, v) in enumerate(pairs) if n not in [m for m, _ in pairs[:i]]]


def buildings(w: Words, options: Sequence[LegalOption], view: View, people: People) -> list[tuple[str, str]]:
    return [(moves.action(w, o, view, people), o.what) for o in options if isinstance(o, Build)]


def uses(w: Words, options: Sequence[LegalOption], view: View, people: People) -> list[tuple[str, str]]:
    return labelled(w, options, view, people, Use)


def discards(w: Words, options: Sequence[LegalOption], view: View, people: People) -> list[tuple[str, str]]:
    return _cards_to_give(w, options, Discard, view)


def returns(w: Words, options: Sequence[LegalOption], view: View, people: People) -> list[tuple[str, str]]:
    return _cards_to_give(w, options, ReturnCard, view)


def _cards_to_give(w: Words, options: Sequence[LegalOption], kind: type[Discard] | type[ReturnCard],
                   view: View) -> list[tuple[str, str]]:
    """One choice per distinct card of the hand, lowest first; the value is the card's typed name."""
    ed = view.edition
    return [(names.card_with_price(w, c, ed), names.card(w, c)) for c in choices.cards_to_give(options, kind, view)]


def reveals(w: Words, options: Sequence[LegalOption], view: View, people: People) -> list[tuple[str, str]]:
    """The suggested lay-down first, then each certificate as the best card with the cheapest fillers.

    Values name positions in the player's hand, like a purchase's: card names would not fit
    Discord's 100 characters once ten cards are laid down (and many positions are a bitmask, codes.py).
    """
    assert view.you is not None, "a lay-down is offered from its player's own view"
    return [(moves.cards_within(w, o), codes.encode_positions("rev", choices.positions(view.you.hand, o)))
            for o in choices.reveal_offers(options, view)]


def purchases(w: Words, options: Sequence[LegalOption], view: View, people: People) -> list[tuple[str, str]]:
    """Buying nothing, then every distinct affordable purchase once (service/choices.py orders them)."""
    if not any(isinstance(o, BuyChoice) for o in options):
        return []
    sets = choices.purchase_sets(options, view)
    found = [(moves.buy_label(w, 0, 0), "buy:")]
    found += [(moves.purchase_label(w, cards, price), codes.encode_positions("buy", where))
              for cards, price, where in sets]
    return found


def filtered(pairs: Iterable[tuple[str, V]], typed: str) -> list[tuple[str, V]]:
    """Keep the choices matching what has been typed so far (case-insensitive), at most 25."""
    needle = str(typed or "").strip().lower()
    kept = [(n, v) for n, v in pairs if not needle or needle in n.lower() or needle in str(v).lower()]
    return [(n[:100], v) for n, v in kept[:MAX_CHOICES]]
