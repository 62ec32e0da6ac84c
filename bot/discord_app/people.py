"""How Discord messages name players, and what one carries beside its words: whom it may notify, buttons, a nonce."""

from __future__ import annotations

from typing import TypedDict

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



class Extras(TypedDict, total=False):
    """What a send carries only when there is one: discord.py's sends take each, or none at all (never None)."""

    view: discord.ui.View  # its buttons
    nonce: str  # Discord refuses a second message with it (a repeat after a restart)


def extras(view: discord.ui.View | None = None, nonce: str | None = None) -> Extras:
    given = Extras()
    if view is not None:
        given["view"] = view
    if nonce:
        given["nonce"] = nonce
    return given
