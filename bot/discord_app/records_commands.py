"""`/augsburg records …`: a player's statistics and ratings, the leaderboard (by rating, per season, or by
wins), a server's seasons (its managers'), past games and a game's file. A group of its own, as `me` is
(Discord allows a command 25 children)."""

from __future__ import annotations

import discord
from discord import app_commands

from .handlers.play import Suggestion
from .handlers.records import RecordsHandlers

MAX_INTEGER = 2**53 - 1  # the largest INTEGER option value Discord takes (larger: the whole sync is refused)


class RecordsCommands(app_commands.Group, name="records", description="Statistics, the leaderboard and past games"):
    # The cog hands its copy of the group the handlers (discord.py copies a group for each cog it loads).
    handlers: RecordsHandlers

    @app_commands.command(name="stats", description="A player's games, wins and scores (only you see it)")
    @app_commands.describe(player="Whose statistics (yours if left out)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        await self.handlers.show_stats(interaction, player)

    @app_commands.command(name="leaderboard", description="This server's players ranked by rating (only you see it)")
    @app_commands.describe(season="A past season, or the all-time table (default: the season under way)",
                           wins="Rank by wins instead of the rating",
                           finished="By wins, only players who finished at least 80% of their games")
    async def leaderboard(self, interaction: discord.Interaction, season: str | None = None, wins: bool = False,
                          finished: bool = False) -> None:
        await self.handlers.show_leaderboard(interaction, finished, wins, season)

    @leaderboard.autocomplete("season")
    async def _seasons(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        return await self.handlers.suggest_seasons(interaction, current)

    @app_commands.command(name="season",
                          description="Manage Server: start a new rating season, or run them by calendar")
    @app_commands.describe(what="Start the next season now, run them by month or quarter, or stop them")
    @app_commands.choices(what=[app_commands.Choice(name="start a new season now", value="new"),
                                app_commands.Choice(name="by calendar month", value="month"),
                                app_commands.Choice(name="by calendar quarter", value="quarter"),
                                app_commands.Choice(name="no seasons", value="off")])
    async def season(self, interaction: discord.Interaction, what: app_commands.Choice[str]) -> None:
        await self.handlers.seasons(interaction, what.value)

    @app_commands.command(name="history", description="The last games here, with their final tables and logs")
    @app_commands.describe(where="This channel (default) or the whole server")
    @app_commands.choices(where=[app_commands.Choice(name="this channel", value="channel"),
                                 app_commands.Choice(name="this server", value="server")])
    async def history(self, interaction: discord.Interaction, where: app_commands.Choice[str] | None = None) -> None:
        await self.handlers.show_history(interaction, where is not None and where.value == "server")

    @app_commands.command(name="export", description="This channel's game, or a past one, as a JSON file to replay")
    @app_commands.describe(game="A game's number from the history (default: this channel's game)")
    async def export(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, 1, MAX_INTEGER] | None = None) -> None:
        await self.handlers.export(interaction, game)
