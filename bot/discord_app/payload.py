"""What an interaction carries that discord.py types loosely: its channel, and its raw payload (Discord's JSON).

discord.py types `Interaction.data` as one TypedDict per kind of interaction; the bot reads a few keys of
whichever arrived, and trusts none of their values (anyone can send any data: inputs.py checks it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord


def channel_of(interaction: discord.Interaction) -> int:
    """The channel an interaction came from (discord.py allows none: only a ping, which the bot never gets)."""
    assert interaction.channel_id is not None, "commands and components come from a channel"
    return interaction.channel_id


def payload(interaction: discord.Interaction) -> Mapping[str, Any]:
    """The interaction's data (empty if none came): JSON whose values are whatever was sent, hence Any."""
    return interaction.data or {}


def values(interaction: discord.Interaction) -> list[str]:
    """The values chosen in a select menu (none for anything else)."""
    return list(payload(interaction).get("values", []))
