"""Seats during a game: leaving (with a confirmation), handing a silent seat to the computer,
coming back, and how each player wants to be told it is their move."""

from __future__ import annotations

import discord
from discord import app_commands

from storage import GameRecord

from ...wording import clock, names, words
from .. import answers
from ..answers import Value
from ..payload import channel_of
from ..people import people
from ..widgets import ConfirmButton, view_of
from .base import Front, guarded, reader, record_of, refused, say


class SeatHandlers:
    def __init__(self, front: Front):
        self.front, self.service, self.presenter = front, front.service, front.presenter

    @guarded
    async def leave_request(self, interaction: discord.Interaction) -> None:
        record = await self.front.game_here(interaction)
        if record is None:
            return
        if record.status == "lobby":
            await self.lobby_leave(interaction, record)
            return
        if str(interaction.user.id) not in record.table.players:
            await say(interaction, self.front.notice_code("not_seated", record))
            return
        button = ConfirmButton(record.id, "leave", "", clock.leave_button(reader()))
        await say(interaction, clock.leave_question(reader()), view_of(button))

    async def lobby_leave(self, interaction: discord.Interaction, record: GameRecord) -> None:
        outcome = await self.service.lobby.leave(channel_of(interaction), record.id, interaction.user.id)
        if not outcome.ok:
            await say(interaction, self.front.notice(refused(outcome), outcome.record))
            return
        await say(interaction, clock.left_table(reader()))
        self.presenter.refresh(record_of(outcome))

    @guarded
    async def replace_request(self, interaction: discord.Interaction, target: str) -> None:
        record = await self.front.game_here(interaction, active=True)
        if record is None:
            return
        seat = record.table.seat(target)
        if seat is None:
            await say(interaction, self.front.notice_code("not_replaceable", record))
            return
        name = names.seat(reader(), seat)
        button = ConfirmButton(record.id, "replace", target, clock.replace_button(reader()))
        await say(interaction, clock.replace_question(reader(), name), view_of(button))

    async def suggest_replaceable(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[Value]]:
        """Autocomplete for replace: the seats whose time ran out (not those away, nor played already)."""
        record, pairs = self.service.games.cached(channel_of(interaction)), []
        if record is not None and record.status == "active":
            who = people(words(interaction.locale), record.table)
            pairs = [(who.name(s.id), s.id) for s in record.table.seats
                     if s.missed and not s.computer_plays and s.away_until is None]
        return await answers.suggest_matching(interaction, pairs, current)

    @guarded(edits=True)
    async def confirmed(self, interaction: discord.Interaction, game_id: int, what: str, target: str) -> None:
        if await self.front.game_here(interaction, game_id=game_id, active=True) is None:
            return
        channel, user = channel_of(interaction), interaction.user.id
        if what == "leave":
            outcome = await self.service.seats.leave_game(channel, game_id, user)
        else:
            manage = bool(interaction.permissions and interaction.permissions.manage_channels)
            outcome = await self.service.seats.replace(channel, game_id, user, target, manage)
        if not outcome.ok:
            await say(interaction, self.front.notice(refused(outcome), outcome.record))
            return
        who = people(reader(), record_of(outcome).table)
        done = clock.left(reader()) if what == "leave" else clock.replaced(reader(), who.name(target))
        try:
            await answers.update(interaction, done, view=None)
        finally:
            await self.front.seats_changed(outcome, interaction)

    @guarded
    async def back(self, interaction: discord.Interaction) -> None:
        record = await self.front.game_here(interaction, active=True)
        if record is None:
            return
        outcome = await self.service.seats.reclaim(channel_of(interaction), interaction.user.id)
        if not outcome.ok:
            await say(interaction, self.front.notice(refused(outcome), outcome.record))
            return
        await say(interaction, clock.back(reader()))
        await self.front.seats_changed(outcome, interaction)

    @guarded
    async def away(self, interaction: discord.Interaction, days: int) -> None:
        """Time away (service/away.py); 0 days: back now. Not `seated=True`: that would end it at once."""
        record = await self.front.game_here(interaction, active=True)
        if record is None:
            return
        outcome = await self.service.away.go_away(channel_of(interaction), interaction.user.id, days)
        if not outcome.ok:
            await say(interaction, self.front.notice(refused(outcome), outcome.record))
            return
        table = record_of(outcome).table
        seat = table.seat(str(interaction.user.id))
        assert seat is not None, "only a seated player goes away"
        until = seat.away_until
        w = reader()
        await say(interaction, clock.back(w) if until is None else clock.away_set(w, until, table.away_waits))
        await self.front.seats_changed(outcome, interaction)

    @guarded
    async def set_notify(self, interaction: discord.Interaction, how: str | None, heads_up: str | None = None) -> None:
        user, said = interaction.user.id, list[str]()
        for choice, setter, told in ((how, self.service.settings.set_notify, clock.notify_set),
                                     (heads_up, self.service.settings.set_heads_up, clock.heads_up_set)):
            if choice is not None:
                outcome = await setter(user, choice, reader().lang)  # DMs in their language
                said.append(told(reader(), choice) if outcome.ok else self.front.notice(refused(outcome)))
        if not said:  # neither option: what is set now
            said.append(clock.notify_now(reader(), await self.service.settings.notify(user),
                                         await self.service.settings.heads_up(user)))
        await say(interaction, "\n".join(said))
