"""How Discord messages name players, and whom a message may notify."""

from __future__ import annotations

import discord

from storage import Table

from ..wording import People, Words
from ..wording.table import people_at


def mention(player: str) -> str:
    return f"<@{player}>"


def people(w: Words, table: Table) -> People:
    """Players by their seat names; whoever must act is addressed by a mention (computers by name)."""
    named = people_at(w, table)
    return people_at(w, table, call=lambda p: named.name(p) if table.is_computer(p) else mention(p))


def notify(players: list[str]) -> discord.AllowedMentions:
    """Exactly these users are notified, whatever else the message names."""
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(int(p)) for p in players])


NOBODY = discord.AllowedMentions.none()
