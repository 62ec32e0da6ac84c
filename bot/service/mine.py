"""Every game of a person's, in every server (issue 43's `/augsburg me games`), and their daily word: one
direct message a day at the hour they chose, listing the games in which it is their move or soon will be.

A person with a daily word is not pinged "your move", nor given a heads-up (the presenter asks `quiet`);
the reminder before their clock runs out still comes, as they asked to be told (channel, DM or none):
it is the one thing that keeps a decision from being made for them. The word is a deadline of their own
("daily", storage/people.py), claimed by moving it to the next day before it is sent: a crash in between
loses that day's word, never sends it twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage import Deadline, GameRecord

from .core import Core
from .hours import Hours, next_daily
from .outcome import Outcome
from .settings import Settings
from .showing import due_of
from .turns import next_up

DAILY = "daily"


@dataclass(frozen=True)
class MyGame:
    """One game a person sits at, as their list shows it."""

    record: GameRecord
    due: tuple[str, ...]  # the people who must decide now, in the table's order
    mine: bool  # it is their move
    soon: bool  # they bid next, after the one now on the clock
    deadline: float | None  # their own deadline if it is their move, else the earliest one at the table


class Mine:
    def __init__(self, core: Core, settings: Settings):
        self.core = core
        self.settings = settings

    async def games(self, user: int | str) -> list[MyGame]:
        """Every open game in any server where `user` sits, newest first, with whose move it is."""
        player, found = str(user), []
        for record in await self.core.store.games.seated_games(str(user)):
            due = due_of(record)
            people = tuple(p for p in record.table.players if p in due.people)
            timeouts = {d.player: d.due_at for d in await self.core.store.deadlines.deadlines_of(record.id)
                        if d.kind == "timeout"}
            mine = player in due.people
            soon = not mine and next_up(record.state, record.table, set(due.people)) == player
            deadline = timeouts.get(player) if mine else min(timeouts.values(), default=None)
            found.append(MyGame(record, people, mine, soon, deadline))
        return found

    async def quiet(self, players: set[str]) -> set[str]:
        """Those of `players` who asked for a daily word instead of pings and heads-ups."""
        return {p for p in players if await self.settings.daily(p) is not None}

    async def set_hours(self, user: int | str, zone: str | None = None, window: tuple[int, int] | None = None,
                        any_time: bool = False, lang: str = "en") -> Outcome:
        """Settings.set_hours; a daily word moves with a new zone."""
        outcome = await self.settings.set_hours(user, zone, window, any_time, lang)
        if outcome.ok and zone is not None:
            await self.plan_daily(str(user))
        return outcome

    async def set_daily(self, user: int | str, hour: int | None, lang: str = "en") -> Outcome:
        """A daily word at `hour` o'clock in their zone (None: none, pinged as before), from the next one on."""
        outcome = await self.settings.set_daily(user, hour, lang)
        if outcome.ok:
            await self.plan_daily(str(user))
        return outcome

    async def plan_daily(self, user: str, hours: Hours | None = None) -> float | None:
        """Set a person's next daily word as their settings say (none: none); when it comes."""
        hour = await self.settings.daily(user)
        hours = hours or await self.core.hours.of(user)
        at = None if hour is None else next_daily(hour, hours.zone, self.core.clock.now())
        await self.core.store.deadlines.set_person_deadline(user, DAILY, at)
        self.core.planned(None, at)
        return at

    async def daily(self, deadline: Deadline) -> list[MyGame] | None:
        """A daily word is due: the games to list (their move, or soon), or None if another process claimed
        it, or the word was changed since. It is moved to the next day first (the claim)."""
        hour = await self.settings.daily(deadline.player)
        if hour is None:
            await self.core.store.deadlines.drop_deadline(deadline)
            return None
        hours = await self.core.hours.of(deadline.player)
        at = next_daily(hour, hours.zone, max(self.core.clock.now(), deadline.due_at))
        if not await self.core.store.deadlines.postpone_deadline(deadline, at):
            return None
        self.core.planned(None, at)
        return [g for g in await self.games(deadline.player) if g.mine or g.soon]
