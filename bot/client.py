"""The bot: a discord.py client with the /augsburg commands, the game service and durable buttons."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from storage import Store

from .cog import Augsburg
from .components import DYNAMIC_ITEMS
from .config import Settings
from .controller import SORRY, Controller
from .service import GameService

log = logging.getLogger(__name__)


def intents() -> discord.Intents:
    """Slash commands and components need no privileged intents; guilds is enough."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class AugsburgBot(commands.Bot):
    def __init__(self, settings: Settings, store: Store | None = None):
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(), help_command=None)
        self.settings = settings
        self.store = store
        self.controller: Controller | None = None
        self.tree.on_error = self.on_app_command_error

    async def setup_hook(self) -> None:
        if self.store is None:
            self.store = await Store.open(self.settings.database_path)
        service = GameService(self.store)
        self.controller = Controller(self, service, self.settings.table_edit_delay, self.settings.computer_delay)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.add_cog(Augsburg(self))
        guild = discord.Object(self.settings.discord_guild_id) if self.settings.discord_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        await self.controller.restore()

    async def on_ready(self) -> None:
        log.info("connected as %s", self.user)
        await self.controller.redraw_restored()

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        log.error("command error in channel %s", interaction.channel_id, exc_info=error)
        if interaction.response.is_done():
            await interaction.followup.send(SORRY, ephemeral=True)
        else:
            await interaction.response.send_message(SORRY, ephemeral=True)

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            await self.store.close()
