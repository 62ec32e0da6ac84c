"""The controls of deciding ahead (service/ahead.py), on a player's private panel only: a menu of what to do
when their turn in the running auction comes, and a button that clears it. Durable like every item
(widgets.py): the custom_id names the game and the auction ("round.noble"), so the choice lapses with it."""

from __future__ import annotations

import discord

from .payload import values
from .widgets import Button, Routed, Select


class AheadMenu(Routed[Select], template=r"aug:ahd:(?P<game>\d+):(?P<auction>\d+\.\d+)"):
    handler = "play.ahead"

    def __init__(self, game: int, auction: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str = "", row: int | None = None):
        super().__init__(discord.ui.Select(custom_id=f"aug:ahd:{game}:{auction}", placeholder=placeholder[:150] or None,
                                           options=options or [discord.SelectOption(label="…", value="p")], row=row))
        self.game, self.auction = game, auction

    def route(self, interaction: discord.Interaction) -> tuple[int, str, str]:
        chosen = values(interaction) or [""]
        return self.game, self.auction, str(chosen[0])


class AheadClear(Routed[Button], template=r"aug:ahx:(?P<game>\d+):(?P<auction>\d+\.\d+)"):
    handler = "play.ahead"

    def __init__(self, game: int, auction: str, label: str = "…", row: int | None = None):
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.secondary, row=row,
                                           custom_id=f"aug:ahx:{game}:{auction}"))
        self.game, self.auction = game, auction

    def route(self, interaction: discord.Interaction) -> tuple[int, str, str]:
        return self.game, self.auction, ""


AHEAD_ITEMS = (AheadMenu, AheadClear)
