"""A player's legal options grouped as a front-end offers them, before any word is put on them: the cards a
discard or return may name, the lay-downs worth suggesting, the purchases worth listing. Pure, and built
from the player's own legal actions and view only, so they hold nothing of anyone else; the labels are the
front-end's (bot/discord_app/choices.py)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from engine import LegalOption, View
from engine.actions import BuyChoice, Discard, ReturnCard, RevealChoice
from engine.components import JOKER
from engine.rules import filler_order, reveal_set


def positions(hand: Sequence[str], cards: Sequence[str]) -> list[int]:
    """Where `cards` sit in `hand` (each card at a different position)."""
    taken: list[int] = []
    for c in cards:
        taken.append(next(i for i, h in enumerate(hand) if h == c and i not in taken))
    return taken


def cards_to_give(options: Sequence[LegalOption], kind: type[Discard] | type[ReturnCard], view: View) -> list[str]:
    """One card per distinct card of the hand that an option of `kind` names, lowest first."""
    return sorted({o.card for o in options if isinstance(o, kind)}, key=view.edition.card_rank)


def reveal_offers(options: Sequence[LegalOption], view: View) -> list[list[str]]:
    """The suggested lay-down first, then each certificate as the best card with the cheapest fillers."""
    choice = next((o for o in options if isinstance(o, RevealChoice)), None)
    if choice is None:
        return []
    offers = [list(choice.suggested)]
    ed = view.edition
    for best in sorted({c for c in choice.cards if c != JOKER}, key=ed.card_rank, reverse=True):
        offer = reveal_set(choice.cards, choice.count, best, filler_order(ed))
        if len(offer) == choice.count and sorted(offer) not in [sorted(o) for o in offers]:
            offers.append(offer)
    return [o for o in offers if o]


def purchase_sets(options: Sequence[LegalOption], view: View) -> list[tuple[list[str], int, list[int]]]:
    """Every distinct affordable purchase once, as (cards, price, positions in the offer), small and large
    sets taking turns (one card, two, three, ..., one card, ...; the dearest first within a size), so that
    whatever the offer, the first 25 hold single cards as well as the biggest sets. Buying nothing is not
    among them."""
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
    found: list[tuple[list[str], int, list[int]]] = []
    for turn in range(max((len(q) for q in queues), default=0)):
        for queue in queues:
            if turn < len(queue):
                cards, where = queue[turn]
                found.append((list(cards), sum(price[c] for c in cards), where))
    return found
