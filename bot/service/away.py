"""Time away (issue 29): a person going on a trip says for how many days (at most what the table's host
allows). Meanwhile their clock does not run out into a stand-in: the computer decides for them at once
when they are due, or, at a table that waits, their clock starts when the time away ends (turns.py). Any
click of theirs in the game ends it early (core.back_to_seat), as does asking for 0 days; a deadline of
kind "away" ends it when the days are over. Kept on their seat, so it lasts across restarts."""

from __future__ import annotations

from storage import Deadline, TableEvent

from .core import Core, back_to_seat, own_seat
from .outcome import Outcome, refuse

DAY = 86400


class TimeAway:
    def __init__(self, core: Core):
        self.core = core

    async def go_away(self, channel_id: int, user: int | str, days: int) -> Outcome:
        """`user` is away for `days` days from now (0: back now). Refused politely, changing nothing, when
        they have no seat in a game under way here, have left it, the host allows no time away or fewer
        days, or (0 days) they are not away."""
        core = self.core
        async with core.lock(channel_id):
            record = await core.current(channel_id)
            if record is None:
                return refuse("no_game")
            if record.status != "active":
                return refuse("not_started", record)
            player = str(user)
            seat = own_seat(record, player)
            if isinstance(seat, Outcome):
                return seat
            if days == 0:
                if seat.away_until is None:
                    return refuse("not_away", record)
                table, log = back_to_seat(record.table, player)
                return await core.change_seats(record, table, log, restart=player)
            allowed = record.table.away_days
            if allowed == 0:
                return refuse("away_not_allowed", record)
            if not 0 < days <= allowed:
                return refuse("away_too_long", record, days=allowed)
            table = record.table.with_seat(player, away_until=core.clock.now() + days * DAY, stand_in=False,
                                           streak=0)
            return await core.change_seats(record, table, [TableEvent(what="away", player=player, days=days)],
                                           restart=player)

    async def away_over(self, deadline: Deadline) -> Outcome | None:
        """A time away has run out: the seat is its person's again (their clock from now on). None if the
        deadline is stale (they came back early, or went away again since); the row goes either way."""
        core = self.core
        async with core.lock(deadline.channel_id):
            record = await core.current(deadline.channel_id)
            seat = record.table.seat(deadline.player) if record is not None and record.id == deadline.game_id else None
            outcome = None
            if record is not None and record.status == "active" and seat is not None \
                    and seat.away_until == deadline.due_at and core.clock.now() >= deadline.due_at:
                table = record.table.with_seat(deadline.player, away_until=None)
                outcome = await core.change_seats(record, table, [TableEvent(what="away_over", player=seat.id)],
                                                  restart=seat.id)
            await core.store.deadlines.drop_deadline(deadline)  # else it would fire again and again
            return outcome
