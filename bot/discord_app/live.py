"""Live panels: a player's private panel follows the game while they play.

The panel a player last used is redrawn in place when what it should offer
changes (their next decision comes up, or the one it shows has passed, or the
game ends), through the token of the interaction that last drew it. That token
lives 15 minutes and is not counted against the bot's global rate limit. So a
player who keeps playing clicks once per decision, on one panel, instead of
opening a new panel for each. Kept in memory only: after a restart, or 15
minutes after their last click, a player opens their panel from the table (or
the ping's link) as before.

A player whose panel follows the game and who used it within the last few
minutes is *watching*: their next decision shows up there, and their ping is
put off (presenter.py). If their panel cannot be redrawn, `lost` is told, so
they are pinged at once instead.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord

from storage import GameRecord, LoggedMove

from ..service import GameService
from ..wording import Words, history, notices, words
from .embeds import COLOUR
from .panels import panel
from .people import people
from .people_first import after_people
from .tokens import edit_original

log = logging.getLogger(__name__)
MISSING = discord.utils.MISSING
TOKEN_LIFE = 14 * 60.0  # an interaction's token lives 15 minutes: a minute to spare


async def private_panel(w: Words, service: GameService, record: GameRecord, user_id: int, note: str = "",
                        moves: list[LoggedMove] | None = None
                        ) -> tuple[str, discord.ui.View | None, discord.Embed | None]:
    """(content, view, embed) of a player's panel, with what happened since their last move (embed None:
    nothing, and a redrawn panel drops the one it had); `moves`: those, if read already."""
    player = str(user_id)
    if not record.open:
        return f"{note}\n{notices.game_over_here(w)}".strip(), None, None
    assert record.state is not None, "a panel is of a started game"
    if moves is None:
        moves = await service.games.since_last_move(record, player)
    text = history.catch_up(w, moves, people(w, record.table), player, ed=record.state.edition)
    embed = discord.Embed(title=history.catch_up_title(w), description=text, colour=COLOUR) if text else None
    content, view = panel(w, record, service.games.decision(record, player), note)
    return content, view, embed


# A live panel: the token of the interaction that drew it (it edits "@original", the panel), when that token
# expires and when its player last used it (the service's clock), the panel's message, what it shows (the
# marks: text and numbers) and its reader's language. A plain tuple of text and numbers, which the collector
# stops walking once it has seen it: 5,000 live games keep some 9,000 panels, as objects a tenth of what
# every full collection walked (issue 44).
_Panel = tuple[str, float, float, int, tuple[object, ...], str]


class LivePanels:
    def __init__(self, client: discord.Client, service: GameService,
                 lost: Callable[[GameRecord, str], None] = lambda record, player: None):
        self.client = client  # whose interactions' tokens redraw the panels (tokens.py)
        self.service = service
        self.lost = lost  # a due player's panel could not be redrawn: they must be pinged
        # Per (game, player), and per game its players with a panel: one dict of the panels, not one per game
        # (a dict is walked by every full collection from the first panel put into it until the next full
        # collection: 5,000 games' dicts were a tenth of what it walked, issue 44).
        self._panels: dict[tuple[int, str], _Panel] = {}
        self._players: dict[int, tuple[str, ...]] = {}
        self._tasks: dict[tuple[int, str], asyncio.Task[None]] = {}
        self._again: set[tuple[int, str]] = set()
        self._ended: dict[int, GameRecord] = {}  # an ended game leaves the service's cache; its panels say how

    def remember(self, interaction: discord.Interaction, record: GameRecord, message_id: int | None) -> None:
        """The interaction's "@original", message `message_id`, now shows the player's panel for `record`
        (None: it is not the "@original", so it cannot be followed). An older live panel of theirs in another
        message is told it has moved, so no two panels offer the same decision."""
        if message_id is None or record.state is None:
            return
        player, now = str(interaction.user.id), self.service.clock.now()
        old = self._panels.get((record.id, player))
        self._panels[record.id, player] = (interaction.token, now + TOKEN_LIFE, now, message_id,
                                           self.service.games.marks(record, player), words(interaction.locale).lang)
        if old is None:
            self._players[record.id] = (*self._players.get(record.id, ()), player)
        else:
            _, expires, _, shown_in, _, _ = old
            if now < expires and shown_in != message_id:
                asyncio.get_running_loop().create_task(self._retire((record.id, player), old), name="retire panel")
        self.follow(record)  # a move made meanwhile by someone else: shown at once

    def watching(self, game_id: int, player: str, within: float) -> bool:
        """Whether `player` used their panel of this game within the last `within` seconds, and it still
        follows the game (its token can redraw it)."""
        live = self._panels.get((game_id, player))
        if live is None:
            return False
        _, expires, used, _, _, _ = live
        now = self.service.clock.now()
        return now < expires and now - used < within

    def follow(self, record: GameRecord) -> None:
        """The game changed: redraw the live panels that should now offer something else."""
        players = self._players.get(record.id)
        if not players:
            return
        if not record.open:
            self._ended[record.id] = record
        for player in players:
            _, _, _, _, shows, _ = self._panels[record.id, player]
            if shows != self.service.games.marks(record, player):
                self._redraw_soon((record.id, player), record.channel_id)

    def _redraw_soon(self, key: tuple[int, str], channel_id: int) -> None:
        task = self._tasks.get(key)
        if task is not None and not task.done():
            self._again.add(key)  # the running redraw goes round once more with the newest state
            return
        self._tasks[key] = asyncio.get_running_loop().create_task(self._redraw(key, channel_id), name="live panel")

    async def _redraw(self, key: tuple[int, str], channel_id: int) -> None:
        try:
            while True:
                self._again.discard(key)
                await self._redraw_once(key, channel_id)
                if key not in self._again:
                    return
        finally:
            self._tasks.pop(key, None)

    async def _redraw_once(self, key: tuple[int, str], channel_id: int) -> None:
        game_id, player = key
        await after_people()  # a click waiting to be answered goes first
        live = self._panels.get(key)
        record = self._newest(game_id, channel_id)
        if live is None or record is None:
            return
        token, expires, used, message_id, shows, lang = live
        if self.service.clock.now() >= expires:
            self._drop(key, live)  # its token is spent
            return
        now = self.service.games.marks(record, player)
        due = self.service.games.due(record)
        if now == shows or player in due.computers:
            return  # the bot moves for them in a moment: that move redraws it
        content, view, embed = await private_panel(words(lang), self.service, record, int(player))
        try:
            await edit_original(self.client, token, content, view, embed)
        except discord.HTTPException as exc:  # expired, dismissed, or Discord busy: they open a new one
            log.info("a live panel in channel %s could not be redrawn (%s)", channel_id, exc.status)
            self._drop(key, live)
            if player in due.people:
                self.lost(record, player)  # they would not know of their decision: pinged now
            return
        if self._panels.get(key) is live:  # (else a newer panel took its place meanwhile)
            self._panels[key] = live = (token, expires, used, message_id, now, lang)
        if not record.open:
            self._drop(key, live)

    def _newest(self, game_id: int, channel_id: int) -> GameRecord | None:
        cached = self.service.games.cached(channel_id)
        if cached is not None and cached.id == game_id:
            return cached
        return self._ended.get(game_id)

    def _drop(self, key: tuple[int, str], live: _Panel) -> None:
        """Forget a panel (unless a newer one took its place meanwhile), and its game once it has none."""
        if self._panels.get(key) is not live:
            return
        del self._panels[key]
        game_id, player = key
        players = tuple(p for p in self._players.get(game_id, ()) if p != player)
        if players:
            self._players[game_id] = players
        else:
            self._players.pop(game_id, None)
            self._ended.pop(game_id, None)

    async def _retire(self, key: tuple[int, str], old: _Panel) -> None:
        # Nobody waits for it: at 5,000 live games most panels opened retire an older one, a twentieth of the
        # bot's work, which went ahead of the clicks waiting to be answered (issue 44)
        await after_people()
        live = self._panels.get(key)
        if live is not None and live[3] == old[3]:
            return  # a click on the older panel meanwhile made it the one that follows the game again
        try:
            token, _, _, _, _, lang = old
            await edit_original(self.client, token, notices.panel_moved(words(lang)), None, None)
        except discord.HTTPException:
            pass  # dismissed or expired: nothing left to tidy

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        self._panels.clear()
        self._players.clear()
