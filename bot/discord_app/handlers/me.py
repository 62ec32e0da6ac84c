"""A person's own (issue 43), in any server and in a direct message with the bot: every game they sit at in
every server, their time zone and hours, their daily word. Decisions stay in each game's server: the list
links to the tables, and shows nothing of anyone's hand."""

from __future__ import annotations

import discord
from discord import app_commands

from ...service.hours import zones
from ...wording import Words, hours
from .. import answers
from ..answers import Value
from ..daily import game_line, games_list, places
from .base import Front, guarded, reader, refused, say


class MyHandlers:
    def __init__(self, front: Front):
        self.front, self.service, self.presenter = front, front.service, front.presenter

    @guarded
    async def games(self, interaction: discord.Interaction) -> None:
        w, place = reader(), places(self.presenter.client)
        mine = await self.service.mine.games(interaction.user.id)
        lines = [game_line(self.presenter, w, g, place) for g in mine]
        await say(interaction, games_list(hours.my_games_heading(w), lines) if lines else hours.no_games(w))

    @guarded
    async def hours(self, interaction: discord.Interaction, zone: str | None, start: int | None, end: int | None,
                    any_time: bool) -> None:
        user, w = interaction.user.id, reader()
        if (start is None) != (end is None):
            await say(interaction, self.front.notice_code("hours_both"))
            return
        if zone is not None or start is not None or any_time:
            window = (start, end) if start is not None and end is not None else None
            outcome = await self.service.mine.set_hours(user, zone, window, any_time, w.lang)
            if not outcome.ok:
                await say(interaction, self.front.notice(refused(outcome)))
                return
        await say(interaction, await self.now(user, w))

    async def now(self, user: int, w: Words) -> str:
        """What is set: zone, hours, daily word."""
        mine = await self.service.settings.hours.of(user)
        return hours.hours_now(w, mine.zone, mine.start, mine.end, await self.service.settings.daily(user))

    async def suggest_zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Value]]:
        """IANA zones matching what was typed (`berlin`, `new york`), those whose city begins so first."""
        typed = current.strip().replace(" ", "_").lower()
        found = sorted((z for z in zones() if typed in z.lower()),
                       key=lambda z: (not z.lower().split("/")[-1].startswith(typed), z))
        return await answers.suggest(interaction, [app_commands.Choice(name=z[:100], value=z[:100])
                                                   for z in found[:25]])

    @guarded
    async def daily(self, interaction: discord.Interaction, at: int | None, off: bool) -> None:
        user, w = interaction.user.id, reader()
        if at is not None and off:
            await say(interaction, self.front.notice_code("unknown_choice"))
            return
        if at is not None or off:
            outcome = await self.service.mine.set_daily(user, None if off else at, w.lang)
            if not outcome.ok:
                await say(interaction, self.front.notice(refused(outcome)))
                return
        await say(interaction, await self.now(user, w))
