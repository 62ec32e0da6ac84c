"""Embeds for the public lobby and table, and the text of a player's private panel.

The table is drawn from `spectator_view` only, the panel from the player's own
view only: this module never sees another player's hand or money.
"""

from __future__ import annotations

from collections import defaultdict

import discord

from engine.components import CARD_NOBLE, CARD_PRICE, CARD_VALUE, CATHEDRAL_LIMIT, CHURCH_LIMIT, JOKER
from engine.views import View
from storage import GameRecord

from . import texts
from .service import name_lookup

COLOUR = discord.Colour.from_rgb(156, 102, 31)
PHASES = {
    "initial_purchase": "Everyone is choosing which of their 7 dealt cards to buy",
    "round_end_purchase": "Everyone is choosing which offered cards to buy",
    "shortage": "Too few debt cards: players return cards from hand",
}


def mention(pid: str) -> str:
    return f"<@{pid}>" if pid.isdigit() else pid


def lobby_embed(record: GameRecord) -> discord.Embed:
    setup = record.setup
    names = setup["names"]
    seats = "\n".join(
        f"{i}. {names.get(s, s)}" + (" (host)" if s == setup["host"] else "")
        for i, s in enumerate(setup["seats"], start=1)
    )
    embed = discord.Embed(
        title="Augsburg 1520 — a new table",
        colour=COLOUR,
        description="Join with the button below. 2 to 5 players; the host starts the game.",
    )
    embed.add_field(name=f"Seats ({len(setup['seats'])}/5)", value=seats or "—", inline=False)
    return embed


def _limit(p) -> str:
    if p.tiles.church is None:
        return f"/{CHURCH_LIMIT}"
    if p.tiles.cathedral is None:
        return f"/{CATHEDRAL_LIMIT}"
    return ""


def _tiles(p) -> str:
    t = p.tiles
    parts = [f"{texts.TILE_NAMES[k]} {v}" for k in ("church", "cathedral") if (v := getattr(t, k)) is not None]
    parts += [f"{texts.TILE_NAMES[k]} +{v}" for k in ("coat", "letter") if (v := getattr(t, k)) is not None]
    parts += [texts.TILE_NAMES[k] for k in ("minter", "master_builder") if getattr(t, k)]
    return ", ".join(parts) or "no tiles"


def status_line(view: View, name) -> str:
    """What is happening now, in one sentence."""
    who = ", ".join(mention(p) for p in view.to_act)
    if view.phase == "game_over":
        return (
            "The game is over. Winner"
            + ("s: " if len(view.winners) > 1 else ": ")
            + ", ".join(name(w) for w in view.winners)
            + "."
        )
    if view.phase in PHASES:
        return f"{PHASES[view.phase]} — waiting for {who}."
    noble = texts.NOBLE_NAMES.get(view.noble or "", "")
    if view.phase == "auction":
        a = view.auction
        high = f" Highest bid: {a.high} card{'s' if a.high != 1 else ''} by {name(a.high_player)}." if a.high else ""
        return f"Auction for **{noble}** — {who} to bid.{high}"
    if view.phase == "showdown":
        return f"Showdown for **{noble}**: {view.showdown.count} cards each — waiting for {who}."
    pv = view.privilege
    if pv.awaiting == "compensation":
        return f"{mention(pv.robbed)} lost a step and chooses compensation."
    card = f" ({texts.privilege_card_name(pv.card)})" if pv.card else ""
    return f"{mention(pv.player)} won **{noble}** and is using a privilege card{card}."


def table_embed(record: GameRecord, view: View) -> discord.Embed:
    name = name_lookup(record)
    embed = discord.Embed(
        title=f"Augsburg 1520 — round {view.round} of {view.rounds}", colour=COLOUR, description=status_line(view, name)
    )
    for p in view.players:
        lead = " · lead" if p.id == view.lead else ""
        levels = " / ".join(f"{texts.CATEGORY_NAMES[c]} {p.levels[c]}" for c in ("trade", "nobility", "offices"))
        embed.add_field(
            name=f"{name(p.id)} — {p.score}{_limit(p)} prestige{lead}", value=f"{levels}\n{_tiles(p)}", inline=False
        )
    display = "\n".join(texts.privilege_card_name(c) for c in view.privilege_display) or "none left this round"
    embed.add_field(name="Privilege cards on display", value=display, inline=False)
    deck = texts.money(view.deck_top_price) if view.deck_top_price else "empty"
    discard = texts.card_name(view.discard_top) if view.discard_top else "empty"
    stacks = ", ".join(
        f"{texts.TILE_NAMES[k]} {v[0]}" for k in ("church", "cathedral", "coat", "letter") if (v := view.tile_stacks[k])
    )
    embed.add_field(
        name="Supply",
        value=f"Deck top price: {deck} · Discard top: {discard}\nNext tiles: {stacks or '—'}",
        inline=False,
    )
    lines = record.ui.get("log", [])
    if lines:
        embed.add_field(name="Latest", value="\n".join(lines)[-1024:], inline=False)
    return embed


def hand_text(view: View) -> str:
    """The private panel: your money, hand grouped by noble with prices, and cards offered to you."""
    you = view.you
    by_noble: dict[str, list[str]] = defaultdict(list)
    for card in sorted(you.hand, key=lambda c: (c == JOKER, CARD_NOBLE.get(c, ""), CARD_VALUE.get(c, 0))):
        key = "Jokers" if card == JOKER else texts.NOBLE_NAMES[CARD_NOBLE[card]]
        by_noble[key].append(f"{CARD_VALUE[card]} ({CARD_PRICE[card]})" if card != JOKER else "J")
    lines = [f"**Your money:** {texts.money(you.money)}", f"**Your hand ({len(you.hand)} cards):**"]
    lines += [f"· {k}: {', '.join(v)}" for k, v in by_noble.items()] or ["· empty"]
    if you.offered:
        total = sum(you.offered_prices)
        lines.append(
            f"**Offered to you:** {', '.join(texts.card_with_price(c) for c in you.offered)} "
            f"(all together {texts.money(total)})"
        )
    if you.chosen is not None:
        lines.append(f"**Your secret choice:** {texts.cards_list(you.chosen)} — waiting for the others.")
    return "\n".join(lines)
