"""Embeds of the public lobby and table. The table is drawn from `spectator_view` only (R28)."""

from __future__ import annotations

import discord

from engine import View
from storage import GameRecord

from ..service import MAX_PLAYERS
from ..wording import Words, log, names, phases
from ..wording import table as words
from .people import people

COLOUR = discord.Colour.from_rgb(156, 102, 31)
LOG_LINES = 8


def lobby_embed(w: Words, record: GameRecord) -> discord.Embed:
    table = record.table
    seats = "\n".join(words.seat_line(w, i, names.seat(w, s), s.id == table.host)
                      for i, s in enumerate(table.seats, start=1))
    embed = discord.Embed(title=words.lobby_title(w), colour=COLOUR, description=words.lobby_intro(w))
    embed.add_field(name=words.seats_heading(w, len(table.seats), MAX_PLAYERS), value=seats or "—", inline=False)
    return embed


def table_embed(w: Words, record: GameRecord, view: View) -> discord.Embed:
    who = people(w, record.table)
    embed = discord.Embed(title=words.round_title(w, view), colour=COLOUR, description=phases.status(w, view, who))
    for p in view.players:
        embed.add_field(name=words.player_heading(w, p, view, who)[:256],
                        value=f"{words.levels(w, p)}\n{words.tiles(w, p)}", inline=False)
    display = "\n".join(words.display(w, view)) or words.no_display(w)
    embed.add_field(name=words.display_heading(w), value=display, inline=False)
    supply = f"{words.deck_and_discard(w, view)}\n{words.next_tiles(w, view)}"
    embed.add_field(name=words.supply_heading(w), value=supply, inline=False)
    lines = log.lines(w, record.messages.log, who)[-LOG_LINES:]
    if lines:
        embed.add_field(name=words.log_heading(w), value="\n".join(lines)[-1024:], inline=False)
    return embed
