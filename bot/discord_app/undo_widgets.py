"""The Undo button of a private panel (service/undo.py). Durable like every item (widgets.py): its custom_id
names the game and the move it takes back, so after a restart it acts, or is refused as stale."""

from __future__ import annotations

import discord

from .widgets import Button, Routed


class UndoButton(Routed[Button], template=r"aug:undo:(?P<game>\d+):(?P<move>\d+)"):
    """On a private panel right after a decision: take it back (move `move` of the log, so a stale one is
    recognised: after a restart too)."""

    handler = "undo.undo_click"

    def __init__(self, game: int, move: int | str, label: str = "…"):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, emoji="↩️", row=4,
                                           custom_id=f"aug:undo:{game}:{move}"))
        self.game, self.move = game, int(move)

    def route(self, interaction: discord.Interaction) -> tuple[int, int]:
        return self.game, self.move


UNDO_ITEMS = (UndoButton,)
