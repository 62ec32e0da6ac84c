"""Information anyone may ask for: the table, the rules, what you can do, and the game's log."""

from __future__ import annotations

import asyncio
import logging

import discord

from engine.edition import Edition
from engine.editions import Library
from storage import GameNotPlayable, GameQuarantined, GameRecord

from ...service import GameService
from ...wording import Words, history, moves, notices, rules
from .. import answers
from ..embeds import COLOUR
from ..payload import channel_of
from ..people import people
from ..widgets import LogPage, view_of
from .base import Front, guarded, reader, say

log = logging.getLogger(__name__)
LOG_NEWEST = 80  # moves read for the log's newest page: some 25–60 fill it (a longer read if they do not)


class InfoHandlers:
    def __init__(self, front: Front):
        self.front, self.service, self.presenter = front, front.service, front.presenter

    @guarded
    async def show_status(self, interaction: discord.Interaction) -> None:
        """The table of this channel's game; after its end, the final table of the last one."""
        try:
            record = await self.service.games.current(channel_of(interaction))
        except GameQuarantined as exc:
            await say(interaction, notices.quarantined(reader(), exc.game_id))
            return
        except GameNotPlayable as exc:
            await say(interaction, notices.not_playable(reader(), exc.game_id, exc.edition))
            return
        record = record or await self.service.games.last_game(channel_of(interaction))
        if record is None:
            await say(interaction, self.front.notice_code("no_game"))
            return
        await say(interaction, "", embed=await self.presenter.embed(record))
        await self.presenter.ensure_table(record)  # a deleted table is posted again for everybody

    @guarded
    async def show_board(self, interaction: discord.Interaction, hand: bool = False,
                         game_id: int | None = None) -> None:
        """The table as a picture, in the reader's language; with `hand`, the reader's own hand instead
        (only they see either). Acknowledged as the drawing starts, as a move is: a drawing waits for a worker
        and a turn or two of a busy loop, so the player sees "thinking…" at once, and the picture, drawn
        meanwhile, replaces it."""
        record = await self.front.game_here(interaction, game_id=game_id, active=True, seated=hand)
        if record is None:
            return
        pictures = self.presenter.pictures
        drawing = asyncio.ensure_future(pictures.hand(reader(), record, str(interaction.user.id)) if hand
                                        else pictures.table(reader(), record, always=True))
        try:
            await answers.acknowledge(interaction)
        except discord.HTTPException as error:  # nothing to show the picture on
            drawing.cancel()
            log.warning("a picture in channel %s could not be acknowledged (%s %s); it was not sent",
                        interaction.channel_id, error.status, error.code)
            return
        picture = await drawing
        assert picture is not None, "a started game's table is always drawn when asked for"
        embed = picture.show_in(discord.Embed(colour=COLOUR, description=picture.alt[:4096]))
        await answers.send(interaction, embed=embed, files=[picture.file()])

    @guarded
    async def show_rules(self, interaction: discord.Interaction, topic: str | None) -> None:
        """One topic as a message; all of them as an embed of one field per topic (a message's 2,000
        characters would cut them short), with how to ask for one. Their numbers, and the edition named
        first, are the channel's game's, else those a new table gets."""
        ed = await self._rules_edition(channel_of(interaction))
        named = rules.edition_line(reader(), ed)
        if topic:
            text = f"**{rules.topic_title(reader(), topic)}**\n{rules.topic(reader(), topic, ed)}\n*{named}*"
            await say(interaction, text)
            return
        embed = discord.Embed(title=rules.all_title(reader()), colour=COLOUR, description=rules.pick_one(reader()))
        for t in rules.TOPICS:
            embed.add_field(name=rules.topic_title(reader(), t), value=rules.topic(reader(), t, ed), inline=False)
        embed.set_footer(text=named)
        await say(interaction, "", embed=embed)

    async def _rules_edition(self, channel_id: int) -> Edition:
        editions: Library = self.service.editions
        try:
            record = await self.service.games.current(channel_id)
        except (GameQuarantined, GameNotPlayable):
            record = None
        if record is not None and record.state is not None:
            return record.state.edition
        if record is not None and record.table.edition is not None:
            return editions.get(record.table.edition.id) or editions.default
        return editions.default

    @guarded
    async def show_help(self, interaction: discord.Interaction) -> None:
        general = rules.commands(reader())
        try:
            record = await self.service.games.current(channel_of(interaction))
        except (GameQuarantined, GameNotPlayable):
            record = None
        player = str(interaction.user.id)
        if record is None or record.status != "active" or player not in record.table.players:
            await say(interaction, general)
            return
        decision = self.service.games.decision(record, player)
        options = list(decision.options)
        lines = moves.commands(reader(), options, decision.view) if options else [notices.nothing_to_do(reader())]
        await say(interaction, "\n".join([notices.what_you_can_do(reader()), *lines, "", general]))

    @guarded
    async def show_log(self, interaction: discord.Interaction, round_: int | None) -> None:
        """The public log of this channel's game (or its last one), newest page first."""
        channel = channel_of(interaction)
        record = await self.service.games.current(channel) or await self.service.games.last_game(channel)
        if record is None or record.state is None:
            await say(interaction, self.front.notice_code("no_game"))
            return
        content, view = await log_page_of(reader(), self.service, record, round_ or 0, 0)
        await say(interaction, content, view)

    @guarded(edits=True)
    async def log_page(self, interaction: discord.Interaction, game_id: int, round_: int, back: int) -> None:
        # The channel's open game is in memory: a trip to the database fewer, each a wait under load.
        cached = self.service.games.cached(interaction.channel_id) if interaction.channel_id else None
        record = cached if cached is not None and cached.id == game_id else await self.service.games.game(game_id)
        here = record.channel_id == interaction.channel_id
        past = not record.open and record.guild_id == (interaction.guild_id or 0)  # opened from the history
        if not (here or past) or record.state is None:
            await say(interaction, self.front.notice_code("game_gone"))
            return
        content, view = await log_page_of(reader(), self.service, record, round_, back)
        await answers.update(interaction, content, view=view)


async def log_page_of(w: Words, service: GameService, record: GameRecord, round_: int,
                      back: int) -> tuple[str, discord.ui.View]:
    """A page of the game's public log, `back` pages before the newest, with buttons to page through it. The
    newest page of a long game is made from its last moves alone (issue 44: the whole log read and worded
    for every look cost more the longer the game)."""
    assert record.state is not None
    who, ed = people(w, record.table), record.state.edition
    newest_first = back == 0 and not round_
    moves, whole = await service.games.newest_history(record, LOG_NEWEST) if newest_first else ([], False)
    if newest_first and not whole and (newest := history.newest_page(w, moves, who, ed=ed)) is not None:
        return f"{history.newest_title(w)}\n{newest}"[:2000], _log_buttons(w, record.id, round_, 0, 1)
    if not whole:
        moves = await service.games.history(record)
    pages = history.log_pages(w, moves, who, round_ or None, ed=ed)
    back = max(0, min(back, len(pages) - 1))
    page = len(pages) - 1 - back
    content = f"{history.log_title(w, round_ or None, page + 1, len(pages))}\n{pages[page]}"
    return content[:2000], _log_buttons(w, record.id, round_, back, page)


def _log_buttons(w: Words, game: int, round_: int, back: int, before: int) -> discord.ui.View:
    """Earlier (one page further back; disabled with no page `before` this one) and later."""
    return view_of(LogPage(game, round_, back + 1, history.older(w), disabled=before == 0),
                   LogPage(game, round_, max(0, back - 1), history.newer(w), disabled=back == 0))
