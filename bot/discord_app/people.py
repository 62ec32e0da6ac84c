"""How Discord messages name players, and whom a message may notify."""

from __future__ import annotations

import discord

from storage import Table

from ..wording import People


def mention(player: str) -> str:
    return f"<@{player}>"


def people(table: Table) -> People:
    """Players by their display name; whoever must act is addressed by a mention, computers by name."""
    return People(name=table.name, call=lambda p: table.name(p) if table.is_computer(p) else mention(p))


def notify(players: list[str]) -> discord.AllowedMentions:
    """Exactly these users are notified, whatever else the message names."""
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(int(p)) for p in players])


NOBODY = discord.AllowedMentions.none()
