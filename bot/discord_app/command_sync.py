"""Slash commands are synced to Discord only when their definition changed since the last sync.

Discord allows few command updates a day, and every sync replaces the whole set: a restart with the
same commands should not send one. The database remembers a hash of what was last synced, and where.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any, Protocol

import discord
from discord import app_commands

from ..service import GameService
from .backoff import with_backoff

log = logging.getLogger(__name__)
SYNCED = "synced_commands"  # meta key: the fingerprint of the last successful sync


class Retrying(Protocol):
    """How long a startup step waits after a transient failure (the bot's settings)."""

    @property
    def startup_retry_first(self) -> float: ...
    @property
    def startup_retry_max(self) -> float: ...


class Syncing(Protocol):
    """What a sync needs of the bot (bot/app/discord_bot.py): its command tree, its application, where the
    last sync is remembered, and its settings."""

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...
    @property
    def application_id(self) -> int | None: ...
    @property
    def service(self) -> GameService | None: ...
    @property
    def settings(self) -> Retrying: ...


async def fingerprint(bot: Syncing, guild: discord.abc.Snowflake | None) -> str:
    """What a sync would send (with its translations), and to which application and guild (None: global)."""
    tree, translator = bot.tree, bot.tree.translator
    commands = tree.get_commands(guild=guild)
    if translator is None:
        payload = [command.to_dict(tree) for command in commands]
    else:
        payload = [await command.get_translated_payload(tree, translator) for command in commands]
    where = {"application": bot.application_id, "guild": guild.id if guild is not None else None}
    text = json.dumps({"where": where, "commands": payload}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


async def sync_commands(bot: Syncing, guild: discord.abc.Snowflake | None) -> bool:
    """Sync `guild`'s commands (None: the global ones) unless they are what was synced last; True if sent."""
    service = bot.service
    assert service is not None, "commands are synced once the bot has its service (setup_hook)"
    digest = await fingerprint(bot, guild)
    if await service.settings.fact(SYNCED) == digest:
        log.info("slash commands unchanged since the last sync: not syncing")
        return False
    settings = bot.settings
    await with_backoff("sync the slash commands", lambda: bot.tree.sync(guild=guild),
                       first=settings.startup_retry_first, cap=settings.startup_retry_max)
    await service.settings.set_fact(SYNCED, digest)
    log.info("slash commands synced (%s)", f"guild {guild.id}" if guild is not None else "global")
    return True
