"""Embeds of the public lobby, the table and the final standings; drawn from public views only (R28)."""

from __future__ import annotations

import discord

from engine import View, spectator_view
from engine.editions import EditionUnavailable, resolve
from engine.events import GameOver
from storage import GameRecord, skill

from ..service import MAX_PLAYERS
from ..wording import Words, clock, end, hours, names, phases, records, rules
from ..wording import table as words
from .people import people

COLOUR = discord.Colour.from_rgb(156, 102, 31)


def lobby_embed(w: Words, record: GameRecord) -> discord.Embed:
    table = record.table
    seats = "\n".join(words.seat_line(w, i, names.seat(w, s), s.id == table.host,
                                      s.level if s.kind == "computer" else None, s.reliability)
                      for i, s in enumerate(table.seats, start=1))
    embed = discord.Embed(title=words.lobby_title(w), colour=COLOUR, description=words.lobby_intro(w))
    embed.add_field(name=words.seats_heading(w, len(table.seats), MAX_PLAYERS), value=seats or "—", inline=False)
    timing = f"{clock.per_decision(w, table.turn_seconds)}\n{clock.away_choice(w, table.away_days, table.away_waits)}"
    if table.min_reliability:
        timing += "\n" + words.min_reliability(w, table.min_reliability)
    embed.add_field(name=clock.clock_heading(w), value=timing, inline=False)
    if table.edition is not None:
        try:
            embed.set_footer(text=rules.edition_line(w, resolve(table.edition)))
        except EditionUnavailable:  # its file went away since it was chosen: starting says so
            embed.set_footer(text=table.edition.id)
    return embed


def table_embed(w: Words, record: GameRecord, view: View, latest: list[str], due: dict[str, float],
                back: dict[str, float] | None = None) -> discord.Embed:
    """`latest`: the last lines of the log; `due`: when each player on the clock runs out of time; `back`: when
    the hours begin of each person due and outside them (shown in each reader's own time)."""
    who = people(w, record.table)
    status = end.ended(w, record.status) if record.status in ("cancelled", "abandoned") else phases.status(w, view, who)
    embed = discord.Embed(title=words.round_title(w, view), colour=COLOUR, description=status)
    for p in view.players:
        seat = record.table.seat(p.id)
        note = clock.seat_note(w, seat) if seat is not None else ""
        embed.add_field(name=(words.player_heading(w, p, view, who) + note)[:256],
                        value=f"{words.levels(w, p)}\n{words.tiles(w, p)}", inline=False)
    display = "\n".join(words.display(w, view)) or words.no_display(w)
    embed.add_field(name=words.display_heading(w), value=display, inline=False)
    supply = f"{words.deck_and_discard(w, view)}\n{words.next_tiles(w, view)}\n{words.steps_left(w, view)}"
    embed.add_field(name=words.supply_heading(w), value=supply, inline=False)
    if record.status == "active":
        timing = [clock.per_decision(w, record.table.turn_seconds)]
        timing += [clock.due_by(w, who.name(p), at) for p, at in sorted(due.items(), key=lambda kv: kv[1])]
        away = [clock.away_line(w, who.name(s.id), s.away_until, record.table.away_waits)
                for s in record.table.seats if s.away_until is not None]
        away += [hours.back_line(w, who.name(p), at) for p, at in sorted((back or {}).items(), key=lambda kv: kv[1])]
        embed.add_field(name=clock.clock_heading(w), value="\n".join([" · ".join(timing), *away])[:1024],
                        inline=False)
    if latest:
        embed.add_field(name=words.log_heading(w), value="\n".join(latest)[-1024:], inline=False)
    embed.set_footer(text=rules.edition_line(w, view.edition))
    return embed


def standings_embed(w: Words, record: GameRecord, over: GameOver, prestige: dict[str, dict[str, int]],
                    changes: dict[str, tuple[skill.Rating, skill.Rating]]) -> discord.Embed:
    """Each player's score broken down, in the order of the standings; and each person's rating on this
    server before and after, if the game was rated (`changes`)."""
    assert record.state is not None, "a finished game has its state"
    who = people(w, record.table)
    embed = discord.Embed(colour=COLOUR)
    public = {p.id: p for p in spectator_view(record.state).players}
    money = {p.id: p.money for p in record.state.players}
    for player, points in end.ranked(over):
        value = end.breakdown(w, public[player], prestige.get(player, {}), money[player])
        if player in changes:
            value += "\n" + records.rating_change(w, *changes[player])
        embed.add_field(name=f"{who.name(player)} — {points}"[:256], value=value[:1024], inline=False)
    return embed
