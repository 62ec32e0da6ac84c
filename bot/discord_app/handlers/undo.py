"""Taking a decision back: the Undo button of a panel (it names its move) and `/augsburg undo` (the last one).

Answered privately like any decision: the panel with the decision due again, or a polite refusal that
changes nothing; the public side (table, log line, deadlines, computers) follows as after any move."""

from __future__ import annotations

import logging

import discord

from ...wording import notices
from ...wording import undo as words
from .. import answers
from ..payload import channel_of
from .base import Front, guarded, reader, refused, say

log = logging.getLogger(__name__)


class UndoHandlers:
    def __init__(self, front: Front):
        self.front, self.service, self.presenter = front, front.service, front.presenter

    @guarded(edits=True)
    async def undo_click(self, interaction: discord.Interaction, game_id: int, move: int) -> None:
        await self._take_back(interaction, game_id, move)

    @guarded
    async def undo_typed(self, interaction: discord.Interaction) -> None:
        record = await self.front.game_here(interaction, active=True, seated=True)
        if record is not None:
            await self._take_back(interaction, record.id, None)

    async def _take_back(self, interaction: discord.Interaction, game_id: int, move: int | None) -> None:
        try:
            await answers.acknowledge(interaction)
        except discord.HTTPException:
            return  # Discord cannot be reached: nothing was taken back
        outcome = await self.service.undo.take_back(channel_of(interaction), game_id, interaction.user.id, move)
        record = outcome.record
        if record is None or record.state is None or str(interaction.user.id) not in record.table.players:
            await say(interaction, self.front.notice(refused(outcome), record))
            return
        if outcome.ok:
            note = f"↩️ {words.done(reader())}"
        else:
            note = notices.warning(reader(), self.front.notice(refused(outcome), record))
        content, view = self.front.panel(record, interaction.user.id, note)
        try:
            shown = await answers.update(interaction, content, view=view, embed=None)
            self.presenter.live.remember(interaction, record, shown)
        except Exception:  # taken back: never an apology, and its public side happens all the same
            if not outcome.ok:
                raise
            log.exception("the answer to an undo in channel %s could not be sent", interaction.channel_id)
        if outcome.ok:
            await self.front.moved(outcome, interaction)
