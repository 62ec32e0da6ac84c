"""What every handler shares: answering politely, the one guard for "the game in this channel",
and the public side of a change (table, pings, computers)."""

from __future__ import annotations

import functools
import logging

import discord

from storage import GameQuarantined, GameRecord

from ...service import GameService, Notice, Outcome
from ...wording import ENGLISH, People, clock, notices
from ..computers import ComputerRunner
from ..people import people
from ..presenter import Presenter

log = logging.getLogger(__name__)
MISSING = discord.utils.MISSING
UNNAMED = People(name=str)  # for notices about a game that is not there


def guarded(func):
    """Log any error with its channel; the player gets a short apology, never a traceback."""

    @functools.wraps(func)
    async def wrapper(self, interaction: discord.Interaction, *args):
        try:
            return await func(self, interaction, *args)
        except Exception:
            log.exception("error in %s (channel %s, args %s)", func.__name__, interaction.channel_id, args)
            await say(interaction, notices.sorry(ENGLISH))

    return wrapper


async def say(interaction: discord.Interaction, text: str, view: discord.ui.View = MISSING,
              embed: discord.Embed = MISSING) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, view=view, embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(text, view=view, embed=embed, ephemeral=True)


class HandlerBase:
    def __init__(self, service: GameService, presenter: Presenter, computers: ComputerRunner):
        self.service = service
        self.presenter = presenter
        self.computers = computers
        self.w = ENGLISH  # the reader's language

    def notice(self, notice: Notice, record: GameRecord | None = None) -> str:
        who = people(self.w, record.table) if record is not None else UNNAMED
        return notices.notice(self.w, notice.code, notice.params, who)

    def notice_code(self, code: str, record: GameRecord | None = None) -> str:
        return self.notice(Notice(code), record)

    async def moved(self, outcome: Outcome, interaction: discord.Interaction | None = None,
                    table_drawn: bool = False) -> None:
        """The public side of a move, once its player has their answer: table, pings, computers.

        `interaction`: the player's, already answered; its token carries the public posts (pings).
        """
        if interaction is not None:
            self.presenter.remember(interaction)
        if table_drawn:
            await self.presenter.notify(outcome.record, outcome.previous_to_act, outcome.events)
        else:
            await self.presenter.show_move(outcome)
        self.computers.schedule(outcome.record.channel_id)

    async def seats_changed(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """After a seat changed hands: the table and the computers (nobody newly due to ping)."""
        record = outcome.record
        if interaction is not None:
            self.presenter.remember(interaction)
        if not record.open:
            await self.presenter.ended(record)
            return
        self.presenter.refresh(record)
        self.computers.schedule(record.channel_id)

    async def game_here(self, interaction: discord.Interaction, *, game_id: int | None = None,
                        active: bool = False, seated: bool = False) -> GameRecord | None:
        """The game in this channel as the request needs it, or None after telling the user why not.

        A seated player whose seat a computer stands in for is back by asking anything.
        """
        try:
            record = await self.service.current(interaction.channel_id)
        except GameQuarantined as exc:
            await say(interaction, notices.quarantined(self.w, exc.game_id))
            return None
        if game_id is not None and (record is None or record.id != game_id):
            code = "game_gone"  # a button of a game that has ended
        elif record is None:
            code = "no_game"
        elif active and record.status != "active":
            code = "not_started"
        elif seated and str(interaction.user.id) not in record.table.players:
            code = "not_seated"
        else:
            self.presenter.look(record)
            return await self._welcome_back(record, str(interaction.user.id)) if seated else record
        await say(interaction, self.notice(Notice(code), record))
        return None

    async def _welcome_back(self, record: GameRecord, player: str) -> GameRecord:
        seat = record.table.seat(player)
        if not seat.stand_in:
            return record
        outcome = await self.service.reclaim(record.channel_id, player)
        if outcome.ok:
            await self.seats_changed(outcome)
            return outcome.record
        return record

    async def private_notes(self, player: str) -> list[str]:
        """Things to tell a player once, at their next visit (a DM that could not be delivered)."""
        return [clock.dm_failed(self.w)] if await self.service.take_dm_notice(player) else []
