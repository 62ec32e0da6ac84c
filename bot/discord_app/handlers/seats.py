"""Seats during a game: leaving (with a confirmation), handing a silent seat to the computer,
coming back, and how each player wants to be told it is their move."""

from __future__ import annotations

import discord

from ...wording import clock, names, words
from .. import answers
from ..people import people
from ..widgets import ConfirmButton, view_of
from .base import guarded, say


class SeatHandlers:
    @guarded
    async def leave_request(self, interaction: discord.Interaction) -> None:
        record = await self.game_here(interaction)
        if record is None:
            return
        if record.status == "lobby":
            await self.lobby_leave(interaction, record)
            return
        if str(interaction.user.id) not in record.table.players:
            await say(interaction, self.notice_code("not_seated", record))
            return
        button = ConfirmButton(record.id, "leave", "", clock.leave_button(self.w))
        await say(interaction, clock.leave_question(self.w), view_of(button))

    async def lobby_leave(self, interaction: discord.Interaction, record) -> None:
        outcome = await self.service.leave(interaction.channel_id, record.id, interaction.user.id)
        if not outcome.ok:
            await say(interaction, self.notice(outcome.notice, outcome.record))
            return
        await say(interaction, clock.left_table(self.w))
        self.presenter.refresh(outcome.record)

    @guarded
    async def replace_request(self, interaction: discord.Interaction, target: str) -> None:
        record = await self.game_here(interaction, active=True)
        if record is None:
            return
        seat = record.table.seat(target)
        if seat is None:
            await say(interaction, self.notice_code("not_replaceable", record))
            return
        name = names.seat(self.w, seat)
        button = ConfirmButton(record.id, "replace", target, clock.replace_button(self.w))
        await say(interaction, clock.replace_question(self.w, name), view_of(button))

    async def suggest_replaceable(self, interaction: discord.Interaction, current: str) -> list:
        """Autocomplete for replace: the seats whose time ran out (not those away, nor played already)."""
        record, pairs = self.service.cached(interaction.channel_id), []
        if record is not None and record.status == "active":
            who = people(words(interaction.locale), record.table)
            pairs = [(who.name(s.id), s.id) for s in record.table.seats
                     if s.missed and not s.computer_plays and s.away_until is None]
        return await answers.suggest_matching(interaction, pairs, current)

    @guarded(edits=True)
    async def confirmed(self, interaction: discord.Interaction, game_id: int, what: str, target: str) -> None:
        if await self.game_here(interaction, game_id=game_id, active=True) is None:
            return
        channel, user = interaction.channel_id, interaction.user.id
        if what == "leave":
            outcome = await self.service.leave_game(channel, game_id, user)
        else:
            manage = bool(interaction.permissions and interaction.permissions.manage_channels)
            outcome = await self.service.replace(channel, game_id, user, target, manage)
        if not outcome.ok:
            await say(interaction, self.notice(outcome.notice, outcome.record))
            return
        who = people(self.w, outcome.record.table)
        done = clock.left(self.w) if what == "leave" else clock.replaced(self.w, who.name(target))
        try:
            await answers.update(interaction, done, view=None)
        finally:
            await self.seats_changed(outcome, interaction)

    @guarded
    async def back(self, interaction: discord.Interaction) -> None:
        record = await self.game_here(interaction, active=True)
        if record is None:
            return
        outcome = await self.service.reclaim(interaction.channel_id, interaction.user.id)
        if not outcome.ok:
            await say(interaction, self.notice(outcome.notice, outcome.record))
            return
        await say(interaction, clock.back(self.w))
        await self.seats_changed(outcome, interaction)

    @guarded
    async def away(self, interaction: discord.Interaction, days: int) -> None:
        """Time away (service/away.py); 0 days: back now. Not `seated=True`: that would end it at once."""
        record = await self.game_here(interaction, active=True)
        if record is None:
            return
        outcome = await self.service.go_away(interaction.channel_id, interaction.user.id, days)
        if not outcome.ok:
            await say(interaction, self.notice(outcome.notice, outcome.record))
            return
        table = outcome.record.table
        until = table.seat(str(interaction.user.id)).away_until
        await say(interaction, clock.back(self.w) if until is None else clock.away_set(self.w, until, table.away_waits))
        await self.seats_changed(outcome, interaction)

    @guarded
    async def set_notify(self, interaction: discord.Interaction, how: str | None, heads_up: str | None = None) -> None:
        user, said = interaction.user.id, []
        for choice, setter, told in ((how, self.service.set_notify, clock.notify_set),
                                     (heads_up, self.service.set_heads_up, clock.heads_up_set)):
            if choice is not None:
                outcome = await setter(user, choice, self.w.lang)  # DMs in their language
                said.append(told(self.w, choice) if outcome.ok else self.notice(outcome.notice))
        if not said:  # neither option: what is set now
            said.append(clock.notify_now(self.w, await self.service.notify_setting(user),
                                         await self.service.heads_up_setting(user)))
        await say(interaction, "\n".join(said))
