"""The /augsburg command group."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from . import texts

RuleTopic = Literal[tuple(texts.RULES)]  # type: ignore[valid-type]


class Augsburg(commands.GroupCog, group_name="augsburg", group_description="Play Augsburg 1520 in this channel"):
    def __init__(self, bot):
        self.bot = bot
        super().__init__()

    @property
    def controller(self):
        return self.bot.controller

    @app_commands.command(name="new", description="Open a table for a new game in this channel")
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction) -> None:
        await self.controller.new_table(interaction)

    @app_commands.command(name="hand", description="Show your hand, your money and your next move (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        record = await self.controller._load(interaction)
        if record is None:
            if not interaction.response.is_done():
                await self.controller._say(interaction, "There is no game in this channel.")
            return
        await self.controller.show_panel(interaction, record.id)

    @app_commands.command(name="status", description="Show the table again (only you see it)")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.controller.show_status(interaction)

    @app_commands.command(name="rules", description="The rules of Augsburg 1520, in short")
    @app_commands.describe(topic="Which part of the rules")
    async def rules(self, interaction: discord.Interaction, topic: RuleTopic | None = None) -> None:
        await self.controller.show_rules(interaction, topic)

    @app_commands.command(name="cancel", description="End the game in this channel (host or Manage Channels)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.controller.cancel_request(interaction)
