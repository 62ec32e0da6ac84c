"""The buttons of the records (handlers/records.py): leaderboard pages, history pages and past games.
Durable like every item (widgets.py): their custom_ids name what they show, so they work after a restart."""

from __future__ import annotations

import discord

from .ahead_widgets import AHEAD_ITEMS
from .undo_widgets import UNDO_ITEMS
from .widgets import DYNAMIC_ITEMS, Button, Routed


class BoardPage(Routed[Button], template=r"aug:lb:(?P<guild>\d+):(?P<page>\d+)(?::(?P<steady>s))?"):
    """A page of a server's leaderboard (records.py); `steady`: only who finished most games (buttons made
    before the filter existed carry none, and show everyone, as they did)."""

    handler = "records.leaderboard_page"

    def __init__(self, guild: str | int, page: str | int, label: str = "…", disabled: bool = False,
                 steady: str | bool | None = None):
        self.steady = bool(steady)
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"aug:lb:{guild}:{page}" + (":s" if self.steady else "")))
        self.guild, self.page = int(guild), int(page)

    def route(self, interaction: discord.Interaction) -> tuple[int, int, bool]:
        return self.guild, self.page, self.steady


class RatingPage(Routed[Button], template=r"aug:rb:(?P<guild>\d+):(?P<page>\d+):(?P<season>[\w-]*)"):
    """A page of a server's rating table (records.py) in a season ('': all time)."""

    handler = "records.rating_page"

    def __init__(self, guild: str | int, page: str | int, season: str = "", label: str = "…",
                 disabled: bool = False, row: int | None = None):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"aug:rb:{guild}:{page}:{season}", row=row))
        self.guild, self.page, self.season = int(guild), int(page), season

    def route(self, interaction: discord.Interaction) -> tuple[int, int, str]:
        return self.guild, self.page, self.season


class HistoryPage(Routed[Button], template=r"aug:hp:(?P<scope>[cs]):(?P<before>\d+)"):
    """A page of past games of the channel ("c") or server ("s") where it is clicked: those before game
    `before` (0: the newest)."""

    handler = "records.history_page"

    def __init__(self, scope: str, before: str | int, label: str = "…", disabled: bool = False):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"aug:hp:{scope}:{before}", row=2))
        self.scope, self.before = scope, int(before)

    def route(self, interaction: discord.Interaction) -> tuple[str, int]:
        return self.scope, self.before


class HistoryGame(Routed[Button], template=r"aug:hg:(?P<game>\d+)"):
    """One past game: its final table and its public log."""

    handler = "records.history_game"

    def __init__(self, game: int, label: str = "…", row: int | None = None):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, row=row,
                                           custom_id=f"aug:hg:{game}"))
        self.game = game

    def route(self, interaction: discord.Interaction) -> tuple[int]:
        return (self.game,)


RECORD_ITEMS = (BoardPage, RatingPage, HistoryPage, HistoryGame)
ALL_ITEMS = DYNAMIC_ITEMS + RECORD_ITEMS + AHEAD_ITEMS + UNDO_ITEMS  # every item discord.py routes
