"""Words: card names, event sentences for the public log, and the rules in the project's own words.

Only views and public events reach these functions, so nothing here can leak
a hidden hand. Private events are worded by `private_line` for their owner.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.components import CARD_NOBLE, CARD_PRICE, CARD_VALUE, JOKER, PRIVILEGE_CARDS
from engine.events import Event

NOBLE_NAMES = {"philipp": "Philipp", "louise": "Louise", "leo": "Leo", "maria": "Maria", "maximilian": "Maximilian"}
CATEGORY_NAMES = {"trade": "Trade", "nobility": "Nobility", "offices": "Offices"}
TILE_NAMES = {
    "church": "Church",
    "cathedral": "Cathedral",
    "coat": "Coat of Arms",
    "letter": "Letter of Nobility",
    "minter": "Minter",
    "master_builder": "Master Builder",
}
PRIVILEGE_NAMES = {
    "trade": "Trade",
    "nobility": "Nobility",
    "offices": "Offices",
    "guilders": "+500 guilders",
    "prestige6": "+6 prestige",
    "prestige7": "+7 prestige",
    "draw2": "draw 2, discard 1",
}
USE_NAMES = {
    "step": "climb a step",
    "trade300": "take 300 guilders",
    "coat": "take the Coat of Arms",
    "letter": "take the Letter of Nobility",
    "minter": "take a Minter",
    "master_builder": "take a Master Builder",
    "church": "build the Church",
    "cathedral": "build the Cathedral",
}


def card_name(card: str) -> str:
    if card == JOKER:
        return "Joker"
    return f"{NOBLE_NAMES[CARD_NOBLE[card]]} {CARD_VALUE[card]}"


def card_with_price(card: str) -> str:
    return f"{card_name(card)} ({CARD_PRICE[card]})"


def privilege_card_name(card: str) -> str:
    return f"Card {card}: " + " · ".join(PRIVILEGE_NAMES[k] for k in PRIVILEGE_CARDS[card])


def money(amount: int) -> str:
    return f"{amount:,} guilders"


def cards_list(cards: list[str]) -> str:
    return ", ".join(card_name(c) for c in cards) if cards else "nothing"


# --- the public log


def public_line(event: Event, name: Callable[[str], str]) -> str | None:
    """One sentence for a public event, or None for events not worth a log line."""
    d = event.data
    who = name(d["player"]) if "player" in d else ""
    match event.type:
        case "game_started":
            return f"The game begins: {d['rounds']} rounds; {name(d['start_player'])} starts."
        case "purchase_made":
            return f"{who} bought {d['count']} card{'s' if d['count'] != 1 else ''} for {money(d['paid'])}."
        case "round_started":
            return f"Round {d['round']} begins; {name(d['opener'])} opens the auction."
        case "auction_started":
            return f"Auction for {NOBLE_NAMES[d['noble']]}: {name(d['opener'])} opens."
        case "bid":
            return f"{who} bids {d['count']} card{'s' if d['count'] != 1 else ''}."
        case "call":
            return f"{who} calls {d['count']}."
        case "pass":
            return f"{who} passes."
        case "auction_skipped":
            return f"Nobody bid for {NOBLE_NAMES[d['noble']]}."
        case "reveal":
            offers = "; ".join(f"{name(p)}: {cards_list(cards)}" for p, cards in d["offers"].items())
            return f"Cards laid down for {NOBLE_NAMES[d['noble']]}: {offers}."
        case "auction_won":
            alone = " (everyone else passed)" if d["alone"] else ""
            return f"{who} wins {NOBLE_NAMES[d['noble']]}{alone}."
        case "consolation":
            return f"{who} receives {money(d['amount'])} consolation."
        case "privilege_card_taken":
            return f"{who} takes privilege {privilege_card_name(d['card'])}."
        case "privilege_used":
            how = USE_NAMES.get(d["as"], "") if d["as"] else PRIVILEGE_NAMES[d["kind"]]
            kind = PRIVILEGE_NAMES[d["kind"]]
            return f"{who} uses {kind}" + (f": {how}." if d["as"] else ".")
        case "step_climbed":
            taken = f", taking it from {name(d['robbed'])}" if d["robbed"] else ""
            return f"{who} climbs to {CATEGORY_NAMES[d['category']]} level {d['level']}{taken}."
        case "compensation_chosen":
            return f"{who} takes {'100 guilders' if d['take'] == 'money' else '1 prestige'} as compensation."
        case "tile_taken":
            cost = f" for {money(d['cost'])}" if d["cost"] else ""
            return f"{who} takes the {TILE_NAMES[d['tile']]}{_tile_value(d)}{cost}."
        case "card_discarded":
            return f"{who} discards {card_name(d['card'])}."
        case "cards_drawn":
            return f"{who} draws {d['count']} card{'s' if d['count'] != 1 else ''}."
        case "privileges_declined":
            return f"{who} leaves {d['count']} privilege{'s' if d['count'] != 1 else ''} unused."
        case "prestige_gained":
            if d["requested"] and d["amount"] < d["requested"]:
                return f"{who} gains {d['amount']} of {d['requested']} prestige (limit reached)."
            return None
        case "round_income":
            cash = f"{money(d['money'])} and " if d["money"] else ""
            return f"{who} receives {cash}{d['prestige']} prestige."
        case "shortage_started":
            return "Too few debt cards are left: everyone returns cards from hand, starting with the lead player."
        case "card_returned":
            return f"{who} returns a card under the deck."
        case "deck_reshuffled":
            return "The discard pile is shuffled into a new deck."
        case "cards_dealt":
            free = f"{d['free']} free and " if d["free"] else ""
            return f"{who} receives {free}{d['offered']} cards to buy."
        case "choice_made":
            return f"{who} has chosen."
        case "game_over":
            return "The game is over."
    return None


def _tile_value(d: dict) -> str:
    if d["tile"] in ("coat", "letter"):
        return f" (+{d['value']} per round)"
    return ""


def private_line(event: Event) -> str | None:
    d = event.data
    match event.type:
        case "offered_cards":
            return f"Cards offered to you: {', '.join(card_with_price(c) for c in d['cards'])}."
        case "hand_cards":
            return f"Added to your hand: {cards_list(d['cards'])}."
        case "choice_recorded":
            what = "lay down" if d["decision"] == "reveal" else "buy"
            return f"Your choice is in: you {what} {cards_list(d['cards'])}."
        case "card_returned_private":
            return f"You returned {card_name(d['card'])}."
    return None


# --- rules, in the project's own words

RULES: dict[str, str] = {
    "overview": (
        "You are a merchant lending money to five nobles. In return they grant privileges, and privileges turn "
        "into prestige. After players + 2 rounds the most prestige wins. Each round has five auctions "
        "(Philipp, Louise, Leo, Maria, Maximilian) followed by income and new debt cards."
    ),
    "auction": (
        "Bids count cards, not values. On your turn pass (you are out of this auction), call (offer as many cards "
        "as the best bid) or raise. Only that noble's certificates and jokers are valid, and at least one card "
        "must be a certificate; for Maximilian any certificate is valid. When the turn comes back to the best "
        "bid, everyone holding it lays down that many cards at once: the single highest card wins (for Maximilian "
        "ties go Maria, Leo, Louise, Philipp). The winner's cards are spent; second place gets 100 guilders, "
        "third 50. A bidder left alone wins without a showdown but still spends the cards."
    ),
    "privileges": (
        "The winner takes one face-up privilege card and may use two of its three privileges, in any order; each "
        "one left unused is worth 2 prestige. Trade, Nobility and Offices privileges climb one step, or instead: "
        "Trade (level 2+) 300 guilders; Nobility a Coat of Arms (level 3+) or Letter of Nobility (level 4); "
        "Offices a Minter (level 3+), a Master Builder (level 4), or build the top Church or Cathedral by paying "
        "for it. The Master Builder may build one Church or Cathedral extra on every card its owner wins."
    ),
    "steps": (
        "Steps are taken one at a time. Taking step 4 puts your step 3 back. If the tile you need is gone from "
        "the supply, take it from another player who has it; they choose 100 guilders or 1 prestige, and if it "
        "was step 4 you give them your step 3. Tiles are never lost."
    ),
    "limits": (
        "Without a Church your score stops at 25; without a Cathedral it stops at 45. Anything beyond a limit is "
        "lost, whatever its source."
    ),
    "round end": (
        "After Maximilian: money by your Trade level (600/900/1,200/1,600), prestige by your Nobility level "
        "(3/5/8/12) plus your Coat of Arms and Letter, then debt cards by your Offices level (4/5/6/6) to buy at "
        "the price on their back; Offices 4 and the Minter each add a free card. In the last round only prestige "
        "is scored."
    ),
    "winning": (
        "Most prestige wins. On a tie, the dearest Cathedral decides; if none of the tied players has one, the "
        "dearest Church; otherwise the tied players share the win."
    ),
    "secrets": (
        "Your money, your hand and its size, the cards offered to you and the cards you will lay down are "
        "private: the bot shows them only to you. Levels, tiles, scores, face-up privilege cards, revealed "
        "offers, the top discard and the price on the deck's top card are public."
    ),
}
