"""Buttons and select menus. Every one is a DynamicItem: its custom_id names the game and the decision,
so it keeps working after a restart and a stale one is recognised (the templates never change).

Public messages carry only Join/Leave/Start and "My hand" buttons. Everything
built from a hand lives on ephemeral panels that only their owner sees.
"""

from __future__ import annotations

import discord

from ..wording import ENGLISH, Words, notices

MAX_OPTIONS = 25


def _handlers(interaction: discord.Interaction):
    cog = interaction.client.get_cog("Augsburg")
    return cog.handlers if cog is not None else None


async def _route(interaction: discord.Interaction, name: str, *args) -> None:
    handlers = _handlers(interaction)
    if handlers is None:  # the extension is being reloaded: say so rather than fail silently
        await interaction.response.send_message(notices.restarting(ENGLISH), ephemeral=True)
        return
    await getattr(handlers, name)(interaction, *args)


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"aug:lob:(?P<game>\d+):(?P<what>join|leave|start|ai)"
):
    STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
              "start": discord.ButtonStyle.primary, "ai": discord.ButtonStyle.secondary}

    def __init__(self, game_id: int, what: str, label: str = "…"):
        button = discord.ui.Button(label=label, style=self.STYLES[what], custom_id=f"aug:lob:{game_id}:{what}")
        super().__init__(button)
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, "lobby_click", self.game_id, self.what)


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=r"aug:tbl:(?P<game>\d+):hand"):
    def __init__(self, game_id: int, label: str = "…"):
        button = discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=f"aug:tbl:{game_id}:hand")
        super().__init__(button)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, "show_panel", self.game_id)


class ActButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"aug:do:(?P<game>\d+):(?P<key>[\w.]+):(?P<code>[\w.:\-]*)"
):
    def __init__(self, game_id: int, key: str, code: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None,
                 disabled: bool = False):
        button = discord.ui.Button(label=label[:80], style=style, row=row, disabled=disabled,
                                   custom_id=f"aug:do:{game_id}:{key}:{code}")
        super().__init__(button)
        self.game_id, self.key, self.code = game_id, key, code

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["key"], match["code"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, "act_click", self.game_id, self.key, self.code)


class ActSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"aug:sel:(?P<game>\d+):(?P<key>[\w.]+):(?P<kind>pick|rev|buy)"
):
    def __init__(self, game_id: int, key: str, kind: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str = "", min_values: int = 1, max_values: int = 1, row: int | None = None):
        select = discord.ui.Select(
            custom_id=f"aug:sel:{game_id}:{key}:{kind}",
            options=options or [discord.SelectOption(label="…", value="0")],
            placeholder=placeholder[:150] or None,
            min_values=min_values,
            max_values=max_values,
            row=row,
        )
        super().__init__(select)
        self.game_id, self.key, self.kind = game_id, key, kind

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["key"], match["kind"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(interaction.data.get("values", []))  # type: ignore[union-attr]
        await _route(interaction, "act_select", self.game_id, self.key, self.kind, values)


class CancelButton(discord.ui.DynamicItem[discord.ui.Button], template=r"aug:cancel:(?P<game>\d+)"):
    def __init__(self, game_id: int, label: str = "…"):
        button = discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=f"aug:cancel:{game_id}")
        super().__init__(button)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, "cancel_confirmed", self.game_id)


DYNAMIC_ITEMS = (LobbyButton, TableButton, ActButton, ActSelect, CancelButton)


def view_of(*items: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def lobby_view(w: Words, game_id: int) -> discord.ui.View:
    labels = {"join": w._("Join"), "leave": w._("Leave"), "ai": w._("Add computer player"), "start": w._("Start game")}
    return view_of(*(LobbyButton(game_id, what, label) for what, label in labels.items()))


def table_view(w: Words, game_id: int) -> discord.ui.View:
    return view_of(TableButton(game_id, w._("My hand & actions")))
