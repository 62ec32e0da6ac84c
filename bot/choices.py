"""A player's legal options as labelled choices, for buttons, menus, autocomplete and the terminal alike.

Every chooser takes (words, legal options, the player's view, people), so a
front-end can pick one by name for each typed command.

Built from the player's own legal actions and view only, so they show nothing
of anyone else. Values are action codes (codes.py), the same a button carries,
or card names as a player would type them.
"""

from __future__ import annotations

from itertools import combinations

from engine import View
from engine.actions import Bid, Build, BuyChoice, Discard, ReturnCard, RevealChoice, TakeCard, Use
from engine.components import JOKER
from engine.rules import filler_order, reveal_set

from . import codes
from .wording import moves, names
from .wording.words import People, Words

MAX_CHOICES = 25  # Discord's limit for autocomplete choices and select options


def labelled(w: Words, options: list, view: View, people: People, kind: type | tuple = object):
    """(label, code) for each concrete option of `kind`."""
    return [(moves.action(w, o, view, people), codes.encode(o)) for o in options if isinstance(o, kind)]


def bids(w: Words, options: list, view: View, people: People) -> list[tuple[str, int]]:
    return [(moves.action(w, o, view, people), o.count) for o in options if isinstance(o, Bid)]


def privilege_cards(w: Words, options: list, view: View, people: People) -> list[tuple[str, str]]:
    """One choice per name: cards that give the same share it and are interchangeable (9 and 10)."""
    pairs = [(names.privilege_card(w, o.card, view.edition), o.card) for o in options if isinstance(o, TakeCard)]
    return [(n, v) for i, (n, v) in enumerate(pairs) if n not in [m for m, _ in pairs[:i]]]


def buildings(w: Words, options: list, view: View, people: People) -> list[tuple[str, str]]:
    return [(moves.action(w, o, view, people), o.what) for o in options if isinstance(o, Build)]


def uses(w: Words, options: list, view: View, people: People) -> list[tuple[str, str]]:
    return labelled(w, options, view, people, Use)


def discards(w: Words, options: list, view: View, people: People) -> list[tuple[str, str]]:
    return _cards_to_give(w, options, Discard, view)


def returns(w: Words, options: list, view: View, people: People) -> list[tuple[str, str]]:
    return _cards_to_give(w, options, ReturnCard, view)


def _cards_to_give(w: Words, options: list, kind: type[Discard] | type[ReturnCard],
                   view: View) -> list[tuple[str, str]]:
    """One choice per distinct card of the hand, lowest first; the value is the card's typed name."""
    ed = view.edition
    cards = sorted({o.card for o in options if isinstance(o, kind)}, key=ed.card_rank)
    return [(names.card_with_price(w, c, ed), names.card(w, c)) for c in cards]


def reveals(w: Words, options: list, view: View, people: People) -> list[tuple[str, str]]:
    """The suggested lay-down first, then each certificate as the best card with the cheapest fillers.

    Values name positions in the player's hand, like a purchase's: card names would not fit
    Discord's 100 characters once ten cards are laid down (and many positions are a bitmask, codes.py).
    """
    choice = next((o for o in options if isinstance(o, RevealChoice)), None)
    if choice is None:
        return []
    offers = [list(choice.suggested)]
    ed = view.edition
    for best in sorted({c for c in choice.cards if c != JOKER}, key=ed.card_rank, reverse=True):
        offer = reveal_set(choice.cards, choice.count, best, filler_order(ed))
        if len(offer) == choice.count and sorted(offer) not in [sorted(o) for o in offers]:
            offers.append(offer)
    return [(moves.cards_within(w, o), codes.encode_positions("rev", positions(view.you.hand, o)))
            for o in offers if o]


def positions(hand: list[str], cards: list[str]) -> list[int]:
    """Where `cards` sit in `hand` (each card at a different position)."""
    taken: list[int] = []
    for c in cards:
        taken.append(next(i for i, h in enumerate(hand) if h == c and i not in taken))
    return taken


def purchases(w: Words, options: list, view: View, people: People) -> list[tuple[str, str]]:
    """Buying nothing, then every distinct affordable purchase once, small and large sets taking turns
    (one card, two, three, ..., one card, ...; the dearest first within a size), so that whatever the
    offer, the first 25 suggestions hold single cards as well as the biggest sets."""
    choice = next((o for o in options if isinstance(o, BuyChoice)), None)
    if choice is None:
        return []
    by_size: dict[int, dict[tuple[str, ...], list[int]]] = {}
    offered = list(enumerate(choice.offered))
    price, card_rank = view.edition.card_price, view.edition.card_rank
    for size in range(1, len(offered) + 1):
        for combo in combinations(offered, size):
            cards = tuple(sorted((c for _, c in combo), key=card_rank, reverse=True))
            if sum(price[c] for c in cards) <= choice.budget:
                by_size.setdefault(size, {}).setdefault(cards, [i for i, _ in combo])
    queues = [sorted(sets.items(), key=lambda s: (sum(price[c] for c in s[0]), [card_rank(c) for c in s[0]]),
                     reverse=True) for _, sets in sorted(by_size.items())]
    found = [(moves.buy_label(w, 0, 0), "buy:")]
    for turn in range(max((len(q) for q in queues), default=0)):
        for queue in queues:
            if turn < len(queue):
                cards, where = queue[turn]
                found.append((moves.purchase_label(w, list(cards), sum(price[c] for c in cards)),
                              codes.encode_positions("buy", where)))
    return found


def filtered(pairs: list[tuple[str, object]], typed: str) -> list[tuple[str, object]]:
    """Keep the choices matching what has been typed so far (case-insensitive), at most 25."""
    needle = str(typed or "").strip().lower()
    kept = [(n, v) for n, v in pairs if not needle or needle in n.lower() or needle in str(v).lower()]
    return [(n[:100], v) for n, v in kept[:MAX_CHOICES]]
