"""Buttons and select menus. Every one is a DynamicItem: its custom_id names the game and the decision,
so it keeps working after a restart and a stale one is recognised (the templates never change).

Public messages carry only Join/Leave/Start and "My hand" buttons. Everything
built from a hand lives on ephemeral panels that only their owner sees.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TypeVar

import discord
from discord.ext import commands

from engine.ai.levels import LEVELS
from engine.edition import Edition
from storage import Table

from ..service.turns import AWAY_CHOICES, TURN_CHOICES
from ..wording import Words, clock, names, notices
from ..wording import table as words
from ..wording import words as language
from ..wording.languages import LANGUAGES
from . import answers
from .payload import values

MAX_OPTIONS = 25
ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])
Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]


async def _route(interaction: discord.Interaction, name: str, *args: Any) -> None:
    client = interaction.client
    serving = getattr(client, "serving", None)  # the bot's (bot/app/discord_bot.py): False once it must stop
    if serving is not None and not await serving(interaction):  # another process serves the games now
        return
    cog = client.get_cog("Augsburg") if isinstance(client, commands.Bot) else None
    handlers = getattr(cog, "handlers", None)
    if handlers is None:  # the extension is being reloaded: say so rather than fail silently
        await answers.send(interaction, notices.restarting(language(interaction.locale)))
        return
    await handlers.route(name)(interaction, *args)


class Routed(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """A durable item: rebuilt from its custom_id's named groups, and a click goes to one handler
    ("feature.method" of handlers/__init__.py's Handlers). Each kind names its own template; this base's
    matches nothing."""

    handler = ""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Routed[ItemT]:
        groups: dict[str, Any] = {k: int(v) if k == "game" else v for k, v in match.groupdict().items()}
        return cls(**groups)  # each kind's own keywords: its template's named groups

    def route(self, interaction: discord.Interaction) -> tuple[object, ...]:
        """The arguments the handler gets after the interaction."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _route(interaction, self.handler, *self.route(interaction))
        finally:
            unlink(self._view)  # discord.py built a view of the clicked message to dispatch this click


class LobbyButton(Routed[Button], template=r"aug:lob:(?P<game>\d+):(?P<what>join|leave|start|ai|rmai)"):
    handler = "lobby.lobby_click"
    STYLES = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
              "start": discord.ButtonStyle.primary, "ai": discord.ButtonStyle.secondary,
              "rmai": discord.ButtonStyle.secondary}

    def __init__(self, game: int, what: str, label: str = "…"):
        super().__init__(discord.ui.Button(label=label, style=self.STYLES[what], custom_id=f"aug:lob:{game}:{what}"))
        self.game, self.what = game, what

    def route(self, interaction: discord.Interaction) -> tuple[int, str]:
        return self.game, self.what


class LobbyMenu(Routed[Select], template=r"aug:lob:(?P<game>\d+):(?P<what>time|lang|level|ed)"):
    """A host's choice in the lobby: the time per decision ("time"; "0": no limit; or time away), the language of the
    table's public messages ("lang"), a computer seat's level ("level"; "ai2:strong"), or the edition the
    game is played with ("ed"; its id)."""

    HANDLERS = {"time": "lobby.lobby_clock", "lang": "lobby.lobby_language", "level": "lobby.lobby_level",
                "ed": "lobby.lobby_edition"}
    ROWS = {"time": 1, "lang": 2, "level": 3, "ed": 4}

    def __init__(self, game: int, what: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str = ""):
        super().__init__(discord.ui.Select(custom_id=f"aug:lob:{game}:{what}", placeholder=placeholder or None,
                                           options=options or [discord.SelectOption(label="…", value="0")],
                                           row=self.ROWS[what]))
        self.game, self.what = game, what
        self.handler = self.HANDLERS[what]  # the menu's own

    def route(self, interaction: discord.Interaction) -> tuple[int, list[str]]:
        return self.game, values(interaction)


class TableButton(Routed[Button], template=r"aug:tbl:(?P<game>\d+):hand"):
    handler = "play.show_panel"

    def __init__(self, game: int, label: str = "…"):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"aug:tbl:{game}:hand"))
        self.game = game

    def route(self, interaction: discord.Interaction) -> tuple[int]:
        return (self.game,)


class ActButton(Routed[Button], template=r"aug:do:(?P<game>\d+):(?P<key>[\w.]+):(?P<code>[\w.:\-]*)"):
    handler = "play.act_click"

    def __init__(self, game: int, key: str, code: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None,
                 disabled: bool = False):
        super().__init__(discord.ui.Button(label=label[:80], style=style, row=row, disabled=disabled,
                                           custom_id=f"aug:do:{game}:{key}:{code}"))
        self.game, self.key, self.code = game, key, code

    def route(self, interaction: discord.Interaction) -> tuple[int, str, str]:
        return self.game, self.key, self.code


class ActSelect(Routed[Select], template=r"aug:sel:(?P<game>\d+):(?P<key>[\w.]+):(?P<kind>pick|rev|buy)"):
    handler = "play.act_select"

    def __init__(self, game: int, key: str, kind: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str = "", min_values: int = 1, max_values: int = 1, row: int | None = None):
        super().__init__(discord.ui.Select(
            custom_id=f"aug:sel:{game}:{key}:{kind}",
            options=options or [discord.SelectOption(label="…", value="0")],
            placeholder=placeholder[:150] or None,
            min_values=min_values,
            max_values=max_values,
            row=row,
        ))
        self.game, self.key, self.kind = game, key, kind

    def route(self, interaction: discord.Interaction) -> tuple[int, str, str, list[str]]:
        return self.game, self.key, self.kind, values(interaction)


class CancelButton(Routed[Button], template=r"aug:cancel:(?P<game>\d+)"):
    handler = "lobby.cancel_confirmed"

    def __init__(self, game: int, label: str = "…"):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=f"aug:cancel:{game}"))
        self.game = game

    def route(self, interaction: discord.Interaction) -> tuple[int]:
        return (self.game,)


class RematchButton(Routed[Button], template=r"aug:again:(?P<game>\d+)"):
    """Under a finished game's standings: play it again (a new table like it; see GameService.rematch)."""

    handler = "lobby.rematch"

    def __init__(self, game: int, label: str = "…"):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success,
                                           custom_id=f"aug:again:{game}"))
        self.game = game

    def route(self, interaction: discord.Interaction) -> tuple[int]:
        return (self.game,)


class ConfirmButton(Routed[Button], template=r"aug:ok:(?P<game>\d+):(?P<what>leave|replace):(?P<player>\w*)"):
    """The second step of leaving a game or handing a seat to the computer."""

    handler = "seats.confirmed"

    def __init__(self, game: int, what: str, player: str = "", label: str = "…"):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=f"aug:ok:{game}:{what}:{player}"))
        self.game, self.what, self.player = game, what, player

    def route(self, interaction: discord.Interaction) -> tuple[int, str, str]:
        return self.game, self.what, self.player


class PictureButton(Routed[Button], template=r"aug:pic:(?P<game>\d+):hand"):
    """On a private panel: the player's own hand as a picture, for them alone."""

    handler = "info.show_board"

    def __init__(self, game: int, label: str = "…"):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, emoji="🖼️", row=4,
                                           custom_id=f"aug:pic:{game}:hand"))
        self.game = game

    def route(self, interaction: discord.Interaction) -> tuple[bool, int]:
        return True, self.game


class LogPage(Routed[Button], template=r"aug:log:(?P<game>\d+):(?P<round>\d+):(?P<page>\d+)"):
    """A page of the game's log, counted back from the newest (0: the newest); round 0: every round. (Before
    2026-12-08 counted from the oldest: an older message's button shows another page of the same log.)"""

    handler = "info.log_page"

    def __init__(self, game: int, round: str | int, page: str | int, label: str = "…", disabled: bool = False):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"aug:log:{game}:{round}:{page}"))
        self.game, self.round, self.page = game, int(round), int(page)

    def route(self, interaction: discord.Interaction) -> tuple[int, int, int]:
        return self.game, self.round, self.page


DYNAMIC_ITEMS = (LobbyButton, LobbyMenu, TableButton, ActButton, ActSelect, CancelButton, ConfirmButton, LogPage,
                 PictureButton, RematchButton)


class StaticView(discord.ui.View):
    """A view that only carries its components; DynamicItems route every click.

    Stopped at once, so discord.py keeps no copy (it would keep an ephemeral one 15 minutes, a message's
    forever); and its items do not point back at it, so a sent view is freed at once rather than left as
    a reference cycle for the garbage collector to find (each of which adds to the bot's pauses).
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()

    def add_item(self, item: discord.ui.Item[Any]) -> StaticView:
        super().add_item(item)
        unlink(self)
        return self


def unlink(view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    """Undo a view's reference cycles (its items point back at it), so it is freed as soon as it is dropped."""
    if view is not None:
        for item in view.children:
            item._update_view(None)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = StaticView()
    for item in items:
        view.add_item(item)
    return view


def lobby_view(w: Words, game_id: int, table: Table, editions: Sequence[Edition] = ()) -> discord.ui.View:
    """The lobby's buttons, the host's clock, the host's choice of the table's language, once there are
    computer seats of each one's level (4 computers x 3 levels: 12 options, within Discord's 25), and when the
    server offers more than one, of the edition (`editions`, the default first; 25 at most are offered)."""
    buttons = [LobbyButton(game_id, what, label) for what, label in words.lobby_buttons(w).items()]
    turn = table.turn_seconds
    options = [discord.SelectOption(label=clock.clock_choice(w, s), value=str(s or 0), default=s == turn)
               for s in TURN_CHOICES]
    # Time away shares the clock's menu (a message holds 5 rows, all taken): the menu shows the clock chosen,
    # the lobby's embed both; its values are "away:<days>:<wait|play>".
    options += [discord.SelectOption(label=clock.away_choice(w, days, waits), value=f"away:{days}:{how}")
                for days in AWAY_CHOICES for waits, how in ((False, "play"), (True, "wait")) if days or not waits]
    languages = [discord.SelectOption(label=words.language_name(lang), value=lang, default=lang == table.lang)
                 for lang in LANGUAGES]
    menus = [LobbyMenu(game_id, "time", options, clock.clock_placeholder(w)),
             LobbyMenu(game_id, "lang", languages, words.language_placeholder(w))]
    levels = [discord.SelectOption(label=words.level_choice(w, names.seat(w, seat), level)[:100],
                                   value=f"{seat.id}:{level}",
                                   description=words.level_now(w) if level == seat.level else None)
              for seat in table.seats if seat.kind == "computer" for level in LEVELS][:MAX_OPTIONS]
    if levels:
        menus.append(LobbyMenu(game_id, "level", levels, words.level_placeholder(w)))
    chosen = table.edition.id if table.edition is not None else None
    offered = [discord.SelectOption(label=e.name(w.lang)[:100], value=e.id, default=e.id == chosen)
               for e in editions][:MAX_OPTIONS]
    if len(offered) > 1:
        menus.append(LobbyMenu(game_id, "ed", offered, words.edition_placeholder(w)))
    return view_of(*buttons, *menus)


def table_view(w: Words, game_id: int) -> discord.ui.View:
    return view_of(TableButton(game_id, words.hand_button(w)))
