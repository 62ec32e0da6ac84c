"""The table's picture on its message (issue 15), and a player's own hand as a picture.

Drawing takes ~20 ms of Pillow work, never on the event loop nor on an interaction's path: in worker
processes (`processes`, the bot's default), or on a thread of its own (0; the tests' bots). Much of a
drawing is Python holding the interpreter lock: on a thread, the event loop waited for it at every socket
read and write, and a thousand live games were answered at about two thirds of the rate. Pictures are
drawn at most `per_second` a second over all tables: with a thousand busy tables, drawing every table
edit's picture took the CPU the answers need (`tests/bench_bot.py`); over that budget a table edit waits
its turn, and reads the newest state when it goes, so a busy table's edits coalesce instead. The table
picture is drawn from the spectator view only (R28), so it cannot show what is hidden; the last few are
kept, keyed by the game's version and language, so a redraw of the same state (a table posted again,
/augsburg board) costs nothing. The attachment goes on the table edits that happen anyway: no request of
its own.
"""

from __future__ import annotations

import asyncio
import io
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar, TypeVarTuple

import discord

from engine import GameState, View, player_view, spectator_view
from storage import GameRecord

from ..picture import hand_picture, table_alt_text, table_picture
from ..picture.story import Story
from ..service.workers import OffTheLoop
from ..wording import Words, words
from ..wording import table as table_words
from .people import people

TABLE_FILE = "table.png"
HAND_FILE = "hand.png"
KEPT = 32  # pictures kept (about 60 KB each): the tables drawn most recently
SOON = 0.25  # seconds an answer waits for a picture (one takes ~20 ms, unless many are queued)
R = TypeVar("R")
Ts = TypeVarTuple("Ts")


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


def _draw_table(view: View, names: dict[str, str], lang: str, told: Story | None = None) -> Picture:
    w = words(lang)  # `names` has every player of the view
    return Picture(table_picture(view, names.__getitem__, w, told), table_alt_text(view, names.__getitem__, w))


def _draw_hand(view: View, lang: str) -> bytes:
    return hand_picture(view, words(lang))


class Budget:
    """At most `rate` drawings a second, evenly: each waits for its slot."""

    def __init__(self, rate: float):
        self.gap = 1.0 / rate if rate > 0 else 0.0
        self._next = 0.0

    async def take(self, within: float | None = None) -> bool:
        """Wait for a slot and take it; False, taking none, if the next is more than `within` seconds away."""
        now = time.monotonic()
        slot = max(now, self._next)
        if within is not None and slot - now > within:
            return False
        self._next = slot + self.gap
        if slot > now:
            await asyncio.sleep(slot - now)
        return True


class Pictures:
    def __init__(self, enabled: bool = True, processes: int = 0, per_second: float = 0.0,
                 drawn: Callable[[str, float], None] | None = None):
        self.enabled = enabled
        self.drawn = drawn  # told each drawing's kind ("table", "hand") and its seconds (the operator's metrics)
        # What the picture tells beyond the view (who won each noble this round, the end's breakdown), read
        # from the game's public log by whoever owns the store (the presenter); None: nothing.
        self.story: Callable[[GameRecord], Awaitable[Story]] | None = None
        self._budget = Budget(per_second)  # 0: no limit
        self._drawing = OffTheLoop(processes, "drawing")
        self._kept: OrderedDict[tuple[int, int, str, tuple[str, ...]], Picture] = OrderedDict()

    def close(self) -> None:
        self._drawing.shutdown()

    @property
    def pace(self) -> float:
        """Seconds between two drawings' turns (0: no limit)."""
        return self._budget.gap if self.enabled else 0.0

    async def _run(self, draw: Callable[[*Ts], R], *args: *Ts) -> R:
        started = time.perf_counter()
        try:
            return await self._drawing.run(draw, *args)
        finally:
            if self.drawn is not None:
                self.drawn(draw.__name__.removeprefix("_draw_"), time.perf_counter() - started)

    async def slot(self) -> None:
        """Wait for a drawing's turn (at most `per_second`), to draw with `table(…, slotted=True)` after it: the
        table's drawer waits here before it reads the game, so it holds none while it waits, and draws the
        game as it is once its turn has come rather than as it was when it started waiting."""
        if self.enabled:
            await self._budget.take()

    async def table(self, w: Words, record: GameRecord, always: bool = False, slotted: bool = False,
                    within: float | None = None) -> Picture | None:
        """The public table of a started game, in `w`'s language (None before the start, or if the tables
        carry no pictures and this is not `always` asked for). `slotted`: its turn was taken (`slot`);
        `within`: None too if its turn is more than that many seconds away."""
        if not (self.enabled or always) or record.state is None:
            return None
        who = people(w, record.table)
        names = {p: who.name(p) for p in record.table.players}
        key = (record.id, record.version, w.lang, tuple(names.values()))
        picture = self._kept.get(key)
        if picture is None:
            told = await self.story(record) if self.story is not None else None
            # Waiting for its slot, the game is kept as text: hundreds of drawings may wait at a busy time,
            # and parsed games would be walked by every full garbage collection (see bot/service/cache.py).
            if slotted:
                view = spectator_view(record.state)
            else:
                state = record.state.model_dump_json()
                del record
                if not await self._budget.take(within):
                    return None
                view = spectator_view(GameState.model_validate_json(state))
            picture = await self._run(_draw_table, view, names, w.lang, told)
            self._kept[key] = picture
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return picture

    async def table_soon(self, w: Words, record: GameRecord, within: float = SOON) -> Picture | None:
        """The table picture if it is ready within `within` seconds (for an answer that cannot wait long);
        else None, and the drawing goes on, kept for whoever asks next. When the drawings are further behind
        than that (many tables starting at once), none is drawn: it would take a turn from the tables
        waiting for theirs, and be drawn too late for this answer (the table's next edit adds the picture)."""
        drawing = asyncio.ensure_future(self.table(w, record, within=within))
        done, _ = await asyncio.wait({drawing}, timeout=within)
        return drawing.result() if done else None

    async def hand(self, w: Words, record: GameRecord, player: str) -> Picture:
        """One player's own hand, money and offer: only ever sent to that player."""
        assert record.state is not None, "a hand is shown in a started game"
        view = player_view(record.state, player)
        png = await self._run(_draw_hand, view, w.lang)
        return Picture(png, table_words.hand(w, view).replace("**", ""), HAND_FILE)  # its alt text: the same
