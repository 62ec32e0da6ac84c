"""The table as text: the lobby, each player's line, the supply, a private hand, the final standings.

Only views reach these functions (R28): the public table is worded from
`spectator_view`, a hand from its owner's own view.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from engine import View
from engine.components import CATEGORIES, JOKER
from engine.edition import Edition
from engine.rules import prestige_limit
from engine.views import PublicPlayer
from storage import Table

from . import names, views
from .words import People, Words


def people_at(w: Words, table: Table, call: Callable[[str], str] | None = None) -> People:
    """The players of a `storage.Table` by their seat names; `call` addresses whoever must act."""

    def name(player: str) -> str:
        seat = table.seat(player)
        return names.seat(w, seat) if seat is not None else player

    return People(name=name, call=call)


def lobby_buttons(w: Words) -> dict[str, str]:
    return {"join": w._("Join"), "leave": w._("Leave"), "ai": w._("Add computer player"),
            "rmai": w._("Remove computer player"), "start": w._("Start game")}


def language_name(lang: str) -> str:
    """A language by its own name, so that its speakers find it whatever the table reads now."""
    return {"en": "English", "de": "Deutsch", "it": "Italiano"}[lang]


def language_placeholder(w: Words) -> str:
    return w._("Language of the table…")


def edition_placeholder(w: Words) -> str:
    return w._("Edition of the game (its components)…")


def level_placeholder(w: Words) -> str:
    return w._("Levels of the computer players…")


def level_choice(w: Words, name: str, level: str) -> str:
    """An option of the host's level menu: 'Computer 2: Strong'."""
    return w._("{computer}: {level}", computer=name, level=names.level(w, level))


def level_now(w: Words) -> str:
    """The description of the option naming a computer's present level."""
    return w._("its level now")


def hand_button(w: Words) -> str:
    return w._("My hand & actions")


def lobby_title(w: Words) -> str:
    return w._("Augsburg 1520 — a new table")


def lobby_intro(w: Words) -> str:
    return w._("Join with the button below. 2 to 5 players; the host starts the game.")


def seats_heading(w: Words, count: int, most: int) -> str:
    return w._("Seats ({count}/{most})", count=count, most=most)


def seat_line(w: Words, number: int, name: str, host: bool, level: str | None = None,
              reliability: int | None = None) -> str:
    """A lobby seat; `level`: a computer's; `reliability`: a person's (%), when they have finished games."""
    if host:
        line = w._("{number}. {name} (host)", number=number, name=name)
    elif level is not None:
        return w._("{number}. {name} · {level}", number=number, name=name, level=names.level(w, level))
    else:
        line = w._("{number}. {name}", number=number, name=name)
    return line if reliability is None else line + " · " + w._("reliability {percent}%", percent=reliability)


def min_reliability(w: Words, percent: int) -> str:
    return w._("To join: a reliability of at least {percent}% (people new to the game may join too).",
               percent=percent)


def round_title(w: Words, view: View) -> str:
    """The round being played; between rounds (their scoring done, cards being bought or returned) the end of
    the round just scored."""
    if view.phase in ("round_end_purchase", "shortage"):
        return w._("Augsburg 1520 — end of round {round} of {rounds}", round=view.round, rounds=view.rounds)
    return w._("Augsburg 1520 — round {round} of {rounds}", round=view.round, rounds=view.rounds)


def score(w: Words, p: PublicPlayer, ed: Edition) -> str:
    """'12/25 prestige': the score with the limit it cannot pass yet in edition `ed` (R21)."""
    limit = prestige_limit(p.tiles, ed)
    if limit is None:
        return w.prestige(p.score)
    return w.n_("{n}/{limit} prestige", "{n}/{limit} prestige", p.score, limit=limit)


def player_heading(w: Words, p: PublicPlayer, view: View, people: People) -> str:
    heading = w._("{name} — {score}", name=people.name(p.id), score=score(w, p, view.edition))
    return heading + lead_mark(w) if leads(view, p.id) else heading


def leads(view: View, player: str) -> bool:
    """Whether `player` opens the next auction (a finished game has none)."""
    return player == view.lead and view.phase != "game_over"


def lead_mark(w: Words) -> str:
    """Beside the lead player (R9): what being the lead means."""
    return w._(" · opens the next auction")


def levels(w: Words, p: PublicPlayer) -> str:
    return " / ".join(w._("{category} {level}", category=names.category(w, c), level=p.levels[c]) for c in CATEGORIES)


def tile_value(w: Words, kind: str, value: int) -> str:
    """A tile with its number: a building's price in guilders, a Coat of Arms' or Letter's prestige per round."""
    if kind in ("church", "cathedral"):
        return w._("{tile} ({money})", tile=names.tile(w, kind), money=w.money(value))
    return w._("{tile} +{value}", tile=names.tile(w, kind), value=value)


def tiles(w: Words, p: PublicPlayer) -> str:
    t = p.tiles
    parts = [tile_value(w, k, v) for k in ("church", "cathedral", "coat", "letter") if (v := getattr(t, k)) is not None]
    parts += [names.tile(w, k) for k in ("minter", "master_builder") if getattr(t, k)]
    return w.join(parts) or w._("no tiles")


def display_heading(w: Words) -> str:
    return w._("Privilege cards on display")


def display(w: Words, view: View) -> list[str]:
    return [names.privilege_card(w, c, view.edition) for c in view.privilege_display]


def no_display(w: Words) -> str:
    return w._("none left this round")


def supply_heading(w: Words) -> str:
    return w._("Supply")


def deck_and_discard(w: Words, view: View) -> str:
    """The deck's top card shows only its price on its back (R28); the discard pile's shows the card."""
    deck = w._("the next card costs {money}", money=w.money(view.deck_top_price)) if view.deck_top_price else w._(
        "empty")
    discard = names.card(w, view.discard_top) if view.discard_top else w._("empty")
    return w._("Deck: {deck} · Discard pile: {discard} on top", deck=deck, discard=discard) if view.discard_top \
        else w._("Deck: {deck} · Discard pile: empty", deck=deck)


def next_tiles(w: Words, view: View) -> str:
    """Every tile in the supply: the top one's price or prestige, and how many are left."""
    parts = []
    for kind in ("church", "cathedral", "coat", "letter", "minter", "master_builder"):
        stack = view.tile_stacks[kind]
        tile = names.tile(w, kind)
        if not stack:
            parts.append(w._("{tile}: none left", tile=tile))
        elif kind in ("church", "cathedral"):
            parts.append(w._("{tile}: {money}, {n} left", tile=tile, money=w.money(stack[0]), n=len(stack)))
        elif kind in ("coat", "letter"):
            parts.append(w._("{tile}: +{value} prestige a round, {n} left", tile=tile, value=stack[0], n=len(stack)))
        else:
            parts.append(w._("{tile}: {n} left", tile=tile, n=len(stack)))
    return w._("Tiles in the supply: {tiles}", tiles=" · ".join(parts))


def steps_left(w: Words, view: View) -> str:
    """The step tiles left in the supply at each level: where none is left, climbing there takes the tile from
    a player who holds it (R20)."""
    top = view.edition.max_level
    counts = " · ".join(w._("{category} {counts}", category=names.category(w, c), counts="/".join(
        str(view.step_supply[c].count(level)) for level in range(2, top + 1))) for c in CATEGORIES)
    return w._("Step tiles left at levels 2/3/4: {counts} (none left: a climb takes the tile from a player)",
               counts=counts)


def income(w: Words, ed: Edition) -> str:
    """What each level gives at every round's end (R22, R23), in the game's edition."""
    def levels(table: dict[int, int]) -> str:
        return "/".join(w.number(table[level]) for level in range(1, ed.max_level + 1))

    parts = [w._("{category} {amounts} guilders", category=names.category(w, "trade"),
                 amounts=levels(ed.trade_income)),
             w._("{category} {amounts} prestige", category=names.category(w, "nobility"),
                 amounts=levels(ed.nobility_prestige)),
             w._("{category} {amounts} cards offered", category=names.category(w, "offices"),
                 amounts=levels(ed.offices_cards))]
    return w._("Round end at levels 1/2/3/4: {parts}", parts=" · ".join(parts))


def log_heading(w: Words) -> str:
    return w._("Latest")


# --- private: the player's own view


def hand(w: Words, view: View) -> str:
    """Your money, your hand grouped by noble with prices, cards offered to you, your secret choice."""
    you, ed = views.you(view), view.edition
    by_noble: dict[str, list[str]] = defaultdict(list)
    for card in sorted(you.hand, key=lambda c: (c == JOKER, ed.card_noble.get(c, ""), ed.card_value.get(c, 0))):
        if card == JOKER:
            by_noble[w._("Jokers")].append("J")
        else:
            by_noble[names.noble(w, ed.card_noble[card])].append(
                w._("{value} ({price})", value=ed.card_value[card], price=w.money(ed.card_price[card])))
    lines = [
        w._("**Your money:** {money}", money=w.money(you.money)),
        w.n_("**Your hand ({n} card):**", "**Your hand ({n} cards):**", len(you.hand)),
    ]
    lines += [f"· {noble}: {', '.join(cards)}" for noble, cards in by_noble.items()] or [w._("· empty")]
    if JOKER in you.hand:
        lines.append(f"· {names.joker_note(w)}")
    if you.offered:
        offered = w.join(names.card_with_price(w, c, ed) for c in you.offered)
        lines.append(w._("**Offered to you:** {cards} (all together {total})", cards=offered,
                         total=w.money(sum(you.offered_prices))))
    if you.chosen is not None:
        lines.append(w._("**Your secret choice:** {cards} — waiting for the others.", cards=names.cards(w, you.chosen)))
    return "\n".join(lines)


def hand_picture_label(w: Words) -> str:
    return w._("My hand as a picture")
