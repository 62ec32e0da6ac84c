"""The bot: a discord.py client that loads the /augsburg extension on one SQLite store."""

from __future__ import annotations

import gc
import logging

import discord
from discord.ext import commands

from storage import Store

from ..backups import start_backups
from ..config import Settings
from ..scheduler import Clock
from ..wording import ENGLISH, notices
from .monitor import LoopMonitor

log = logging.getLogger(__name__)
YOUNG_THRESHOLD = 6000  # allocations between young collections (Python's default: 700)
EXTENSION = "bot.discord_app.extension"


def intents() -> discord.Intents:
    """Slash commands and components need no privileged intents; guilds is enough."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class AugsburgBot(commands.Bot):
    def __init__(self, settings: Settings, store: Store | None = None, clock: Clock | None = None):
        # Nobody is notified unless a message names exactly whom (a ping): a display name like
        # "@everyone" in a table or a log line never notifies anyone.
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(), help_command=None,
                         allowed_mentions=discord.AllowedMentions.none())
        self.settings = settings
        self.store = store
        self.clock = clock  # None: the system's; tests pass one they can move forward
        self.tree.on_error = self.on_app_command_error

    async def setup_hook(self) -> None:
        if self.settings.monitor_path:
            self.monitor = LoopMonitor(self.settings.monitor_path)
            self.monitor.start()
        if self.store is None:
            self.store = await Store.open(self.settings.database_path)
        self.backups = start_backups(self.settings, self.store.path)
        await self.load_extension(EXTENSION)
        guild = discord.Object(self.settings.discord_guild_id) if self.settings.discord_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        # What exists now lives as long as the process (modules, discord.py's structures): freezing it
        # spares every later full garbage collection from walking it again, halving its pause.
        gc.collect()
        gc.freeze()
        # Each interaction leaves short-lived objects in reference cycles (discord.py's). A young
        # collection every 700 allocations (Python's default) catches many still in flight and moves
        # them to the old generation, whose full collections then pause the bot for tens of ms.
        # Collecting the young generation less often lets most of them die young.
        gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])

    async def on_ready(self) -> None:
        log.info("connected as %s", self.user)
        gc.freeze()  # the guilds and channels just received live as long as the connection

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        log.error("command error in channel %s", interaction.channel_id, exc_info=error)
        if interaction.response.is_done():
            await interaction.followup.send(notices.sorry(ENGLISH), ephemeral=True)
        else:
            await interaction.response.send_message(notices.sorry(ENGLISH), ephemeral=True)

    async def close(self) -> None:
        if getattr(self, "backups", None) is not None:
            await self.backups.stop()
        if getattr(self, "monitor", None) is not None:
            await self.monitor.stop()
        await super().close()
        if self.store is not None:
            await self.store.close()
