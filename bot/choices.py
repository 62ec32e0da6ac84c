"""What each typed command may be given now: autocomplete choices from the player's own legal actions.

Autocomplete answers are seen only by the person typing, and they are built
from that person's legal actions alone, so they show nothing of anyone else.
Every value is an action code of codes.py: the same code a button carries.
"""

from __future__ import annotations

from itertools import combinations

from engine import legal_actions
from engine.actions import (
    Bid,
    Build,
    BuyChoice,
    Call,
    Compensate,
    Discard,
    Done,
    Pass,
    ReturnCard,
    RevealChoice,
    TakeCard,
    Use,
)
from engine.components import CARD_PRICE, JOKER, card_rank

from . import codes, texts
from .components import use_label
from .service import name_lookup

MAX_CHOICES = 25


def bids(options: list) -> list[tuple[str, int]]:
    return [(f"{o.count} card{'s' if o.count != 1 else ''}", o.count) for o in options if isinstance(o, Bid)]


def privilege_cards(options: list) -> list[tuple[str, str]]:
    return [(texts.privilege_card_name(o.card), o.card) for o in options if isinstance(o, TakeCard)]


def uses(record, options: list) -> list[tuple[str, str]]:
    card = record.state.privilege.card if record.state.privilege else None
    name = name_lookup(record)
    return [(use_label(o, card, name), codes.encode(o)) for o in options if isinstance(o, Use)]


def buildings(options: list) -> list[tuple[str, str]]:
    return [(texts.TILE_NAMES[o.what], o.what) for o in options if isinstance(o, Build)]


def cards_to_give(options: list, kind: type) -> list[tuple[str, str]]:
    cards = sorted({o.card for o in options if isinstance(o, kind)}, key=card_rank)
    return [(texts.card_with_price(c), texts.card_name(c)) for c in cards]


def reveals(options: list) -> list[tuple[str, str]]:
    """The suggested lay-down first, then one offer per certificate as the best card with the cheapest fillers."""
    choice = next((o for o in options if isinstance(o, RevealChoice)), None)
    if choice is None:
        return []
    certs = sorted({c for c in choice.cards if c != JOKER}, key=card_rank, reverse=True)
    offers = [list(choice.suggested)]
    for best in certs:
        rest = sorted((c for c in choice.cards if c != best), key=lambda c: (CARD_PRICE[c], card_rank(c)))
        rest = [c for c in rest if c != JOKER] + [c for c in rest if c == JOKER]
        offer = [best, *rest[: choice.count - 1]]
        if len(offer) == choice.count and sorted(offer) not in [sorted(o) for o in offers]:
            offers.append(offer)
    return [(texts.cards_list(o), ", ".join(texts.card_name(c) for c in o)) for o in offers if o]


def purchases(options: list) -> list[tuple[str, str]]:
    """Every affordable set of offered cards, the larger sets first, and buying nothing."""
    choice = next((o for o in options if isinstance(o, BuyChoice)), None)
    if choice is None:
        return []
    found = []
    offered = list(enumerate(choice.offered))
    for size in range(len(offered), 0, -1):
        for combo in combinations(offered, size):
            cost = sum(CARD_PRICE[c] for _, c in combo)
            if cost <= choice.budget:
                cards = [c for _, c in combo]
                found.append(
                    (f"{texts.cards_list(cards)} — {cost}", codes.encode_positions("buy", [i for i, _ in combo]))
                )
            if len(found) >= MAX_CHOICES - 1:
                break
        if len(found) >= MAX_CHOICES - 1:
            break
    return [("Buy nothing", "buy:"), *found]


def filtered(pairs: list[tuple[str, object]], typed: str) -> list[tuple[str, object]]:
    """Keep the choices matching what has been typed so far (case-insensitive), at most 25."""
    needle = (typed or "").strip().lower()
    kept = [(n, v) for n, v in pairs if not needle or needle in n.lower() or needle in str(v).lower()]
    return [(n[:100], v) for n, v in kept[:MAX_CHOICES]]


def help_lines(record, player: str) -> list[str]:
    """What `player` can do right now, each with the command that does it."""
    state = record.state
    options = legal_actions(state, player)
    if not options:
        return [
            "Nothing right now — it is not your turn. `/augsburg hand` shows your cards; "
            "`/augsburg status` shows the table."
        ]
    kinds = {type(o) for o in options}
    counts = [o.count for o in options if isinstance(o, Bid)]
    described = {
        Pass: "`/augsburg pass` — leave this auction",
        Call: lambda: f"`/augsburg call` — offer {state.auction.high} cards too",
        Bid: lambda: f"`/augsburg bid count:` — raise to {counts[0]}–{counts[-1]} cards",
        RevealChoice: lambda: f"`/augsburg reveal cards:` — lay down {options[0].count} card(s)",
        BuyChoice: "`/augsburg buy cards:` — choose which offered cards to buy (or nothing)",
        TakeCard: "`/augsburg privilege card:` — take a privilege card",
        Use: "`/augsburg use privilege:` — use a privilege of your card",
        Build: "`/augsburg build what:` — the Master Builder's extra building",
        Done: "`/augsburg done` — finish with your privilege card",
        Discard: "`/augsburg discard card:` — discard one card after drawing two",
        Compensate: "`/augsburg compensate take:` — 100 guilders or 1 prestige for your lost step",
        ReturnCard: "`/augsburg return card:` — put a card from your hand under the deck",
    }
    return [text() if callable(text) else text for kind, text in described.items() if kind in kinds]
