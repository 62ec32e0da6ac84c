"""The table's picture on its message (issue 15), and a player's own hand as a picture.

Drawing takes ~20 ms of Pillow work, so it runs on a thread of its own (Pillow lets go of the interpreter
lock for most of it): never on the event loop, never on an interaction's path. The table picture is drawn
from the spectator view only (R28), so it cannot show what is hidden; the last few are kept, keyed by the
game's version and language, so a redraw of the same state (a table posted again, /augsburg board) costs
nothing. The attachment goes on the table edits that happen anyway: no request of its own.
"""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import discord

from engine import player_view, spectator_view
from storage import GameRecord

from ..picture import hand_picture, table_alt_text, table_picture
from ..wording import Words, words
from ..wording import table as table_words
from .people import people

TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
KEPT = 32  # pictures kept (about 60 KB each): the tables drawn most recently
SOON = 0.25  # seconds an answer waits for a picture (one takes ~20 ms, unless many are queued)


@dataclass(frozen=True)
class Picture:
    png: bytes
    alt: str  # what it shows, for screen readers (Discord's attachment description)
    filename: str = TABLE_FILE

    def file(self) -> discord.File:
        """A fresh upload of it (a discord.File is read once)."""
        return discord.File(io.BytesIO(self.png), filename=self.filename, description=self.alt[:1024])

    def show_in(self, embed: discord.Embed) -> discord.Embed:
        return embed.set_image(url=f"attachment://{self.filename}")


def _draw_table(view, names: dict[str, str], lang: str) -> Picture:
    w = words(lang)
    return Picture(table_picture(view, names.get, w), table_alt_text(view, names.get, w))


class Pictures:
    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="pictures")
        self._kept: OrderedDict[tuple, Picture] = OrderedDict()

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)

    async def table(self, w: Words, record: GameRecord, always: bool = False) -> Picture | None:
        """The public table of a started game, in `w`'s language (None before the start, or if the tables
        carry no pictures and this is not `always` asked for)."""
        if not (self.enabled or always) or record.state is None:
            return None
        who = people(w, record.table)
        names = {p: who.name(p) for p in record.table.players}
        key = (record.id, record.version, w.lang, tuple(names.values()))
        picture = self._kept.get(key)
        if picture is None:
            view = spectator_view(record.state)
            picture = await asyncio.get_running_loop().run_in_executor(self._thread, _draw_table, view, names, w.lang)
            self._kept[key] = picture
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return picture

    async def table_soon(self, w: Words, record: GameRecord, within: float = SOON) -> Picture | None:
        """The table picture if it is ready within `within` seconds (for an answer that cannot wait long);
        else None, and the drawing goes on, kept for whoever asks next."""
        drawing = asyncio.ensure_future(self.table(w, record))
        done, _ = await asyncio.wait({drawing}, timeout=within)
        return drawing.result() if done else None

    async def hand(self, w: Words, record: GameRecord, player: str) -> Picture:
        """One player's own hand, money and offer: only ever sent to that player."""
        view = player_view(record.state, player)
        png = await asyncio.get_running_loop().run_in_executor(self._thread, hand_picture, view, w)
        return Picture(png, table_words.hand(w, view).replace("**", ""), HAND_FILE)  # its alt text: the same
