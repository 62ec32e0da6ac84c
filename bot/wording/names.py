"""Names of the game's things: nobles, cards, categories, tiles, privileges."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from engine.components import JOKER
from engine.edition import Edition
from storage import Seat

from .words import Words


@lru_cache(maxsize=1024)  # (a name is asked for many times per panel and table)
def noble(w: Words, noble_id: str) -> str:
    return {
        "philipp": w._("Philipp"),
        "louise": w._("Louise"),
        "leo": w._("Leo"),
        "maria": w._("Maria"),
        "maximilian": w._("Maximilian"),
    }[noble_id]


@lru_cache(maxsize=1024)
def category(w: Words, category_id: str) -> str:
    return {"trade": w._("Trade"), "nobility": w._("Nobility"), "offices": w._("Offices")}[category_id]


@lru_cache(maxsize=1024)
def tile(w: Words, tile_id: str) -> str:
    return {
        "church": w._("Church"),
        "cathedral": w._("Cathedral"),
        "coat": w._("Coat of Arms"),
        "letter": w._("Letter of Nobility"),
        "minter": w._("Minter"),
        "master_builder": w._("Master Builder"),
    }[tile_id]


def privilege(w: Words, kind: str, ed: Edition) -> str:
    """One of the three privileges printed on a privilege card (with what it gives in edition `ed`)."""
    match kind:
        case "trade":
            return w._("Trade")
        case "nobility":
            return w._("Nobility")
        case "offices":
            return w._("Offices")
        case "guilders":
            return w._("+{money}", money=w.money(ed.guilders_privilege))
        case "prestige6" | "prestige7":
            return w._("+{points}", points=w.prestige(ed.prestige_privilege[kind]))
        case "draw2":
            return w._("draw {count}, discard 1", count=ed.draw_privilege_cards)
    raise KeyError(kind)


def use(w: Words, as_: str, ed: Edition) -> str:
    """How a Trade, Nobility or Offices privilege is used."""
    return {
        "step": w._("climb a step"),
        "trade300": w._("take {money}", money=w.money(ed.trade_alternative_money)),
        "coat": w._("take the Coat of Arms"),
        "letter": w._("take the Letter of Nobility"),
        "minter": w._("take a Minter"),
        "master_builder": w._("take a Master Builder"),
        "church": w._("build the Church"),
        "cathedral": w._("build the Cathedral"),
    }[as_]


def privilege_card(w: Words, card: str, ed: Edition) -> str:
    """A privilege card named by what it gives, in the order printed ('Trade · Nobility · Offices'): cards
    that give the same (9 and 10 of estimates-1) share a name, as they are interchangeable."""
    first, second, third = (privilege(w, k, ed) for k in ed.privilege_cards[card])
    return w._("{first} · {second} · {third}", first=first, second=second, third=third)


def privilege_card_number(w: Words, card: str) -> str:
    """The card's number, as a player may still type it ('Card 4')."""
    return w._("Card {card}", card=card)


def card_parts(card_id: str) -> tuple[str, int]:
    """A certificate's noble and value, as its id says them in every edition ('maria-15')."""
    noble_id, _, value = card_id.rpartition("-")
    return noble_id, int(value)


@lru_cache(maxsize=1024)
def card(w: Words, card_id: str) -> str:
    if card_id == JOKER:
        return w._("Joker")
    noble_id, value = card_parts(card_id)
    return w._("{noble} {value}", noble=noble(w, noble_id), value=value)


def card_with_price(w: Words, card_id: str, ed: Edition) -> str:
    """'Maria 15 (500 guilders)': a card with what it costs to buy (also the price on its back); a joker, the
    dearest card, with what it is good for, so that nobody buys it for a strong card."""
    if card_id == JOKER:
        return w._("Joker ({price}; counts for every noble, never wins a showdown)",
                   price=w.money(ed.card_price[card_id]))
    return _priced(w, card_id, ed.card_price[card_id])


@lru_cache(maxsize=4096)
def _priced(w: Words, card_id: str, price: int) -> str:
    return w._("{card} ({price})", card=card(w, card_id), price=w.money(price))


def joker_note(w: Words) -> str:
    """Beside a hand that holds jokers."""
    return w._("A joker counts as a card for every noble, but has no value: it never wins a showdown, and a "
               "lay-down needs at least one certificate.")


def hand_order(ed: Edition) -> Callable[[str], tuple[bool, int, int]]:
    """How a hand is sorted for reading (a sort key): by noble (Philipp, Louise, Leo, Maria, as the edition's
    `card_rank` breaks ties), then by value, jokers last: 'Philipp 2, Philipp 9, Philipp 15, Maria 3, Joker'."""
    rank = ed.card_rank

    def key(card_id: str) -> tuple[bool, int, int]:
        value, noble_rank = rank(card_id)
        return (card_id == JOKER, noble_rank, value)

    return key


def in_hand_order(card_ids: Iterable[str], ed: Edition) -> list[str]:
    return sorted(card_ids, key=hand_order(ed))


def cards(w: Words, card_ids: list[str]) -> str:
    return w.join(card(w, c) for c in card_ids) if card_ids else w._("nothing")


def seat(w: Words, seat: Seat) -> str:
    """A seat's name: a human's display name; a computer's from its number."""
    if seat.kind == "computer" and seat.number is not None:
        return w._("Computer {number}", number=seat.number)
    return seat.name


def level(w: Words, level: str) -> str:
    """A computer player's level."""
    return {"easy": w._("Easy"), "normal": w._("Normal"), "strong": w._("Strong")}[level]


def permission(w: Words, flag: str) -> str:
    """A Discord permission (discord.py's flag name) as Discord's channel settings name it."""
    return {
        "view_channel": w._("View Channel"),
        "send_messages": w._("Send Messages"),
        "send_messages_in_threads": w._("Send Messages in Threads"),
        "create_public_threads": w._("Create Public Threads"),
        "embed_links": w._("Embed Links"),
    }[flag]
