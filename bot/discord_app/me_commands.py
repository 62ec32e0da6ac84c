"""`/augsburg me …`: a person's own commands, which work in any server and in a direct message with the bot
(issue 43): every game of theirs in every server, their hours, their daily word. A group of its own (Discord
allows a command 25 children; /augsburg has 24 besides)."""

from __future__ import annotations

import discord
from discord import app_commands

from .handlers.me import MyHandlers
from .handlers.play import Suggestion


class MeCommands(app_commands.Group, name="me", description="Your games in every server, your hours, your daily word"):
    # The cog hands its copy of the group the handlers (discord.py copies a group for each cog it loads).
    handlers: MyHandlers

    @app_commands.command(name="games", description="Every game you sit at, in every server, with whose move it is")
    async def games(self, interaction: discord.Interaction) -> None:
        await self.handlers.games(interaction)

    @app_commands.command(name="hours",
                          description="Your time zone and the hours you play (without options: what is set)")
    @app_commands.describe(zone="Your time zone, e.g. Europe/Berlin", start="The hour your hours begin (your time)",
                           end="The hour they end (your time; below the start: past midnight)",
                           any_time="Play at any time: no hours")
    async def hours(self, interaction: discord.Interaction, zone: str | None = None,
                    start: app_commands.Range[int, 0, 23] | None = None,
                    end: app_commands.Range[int, 0, 24] | None = None, any_time: bool = False) -> None:
        await self.handlers.hours(interaction, zone, start, end, any_time)

    @hours.autocomplete("zone")
    async def _zones(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.suggest_zones(interaction, current)

    @app_commands.command(name="daily", description="One direct message a day listing your moves, instead of pings")
    @app_commands.describe(at="The hour it comes (your time)", off="No daily word: be told of each move again")
    async def daily(self, interaction: discord.Interaction, at: app_commands.Range[int, 0, 23] | None = None,
                    off: bool = False) -> None:
        await self.handlers.daily(interaction, at, off)
