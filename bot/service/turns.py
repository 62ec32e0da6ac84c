"""The turn clock: who is on the clock, and the deadlines after any change. Pure: no I/O, no Discord.

A human who must decide has a timeout (`turn_seconds` after their decision came
up) and a reminder before it. Seats a computer plays have no clock, nor does a
person whose decision the bot makes now (automatic.py). A deadline runs on
while its player is still due, so in a simultaneous choice each player's clock
started when the choice began; a player's own move starts a new clock for their
next decision. A person whose only option waits for the others keeps their
clock, so the table shows them as it shows everyone still choosing. A person on
time away (issue 29) has no clock while the computer decides for them; at a
table that waits for them, their clock starts only when the time away ends.
A person's clock runs only inside their hours (issue 43, hours.py): the
deadline is when `turn_seconds` of their in-hours time have passed, at most
`hours.BOUND` of real time after the decision came up; the reminder likewise.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass

from engine import GameState, to_act
from storage import Deadline, DeadlinePlan, Table

from .automatic import Automatic, automatic
from .hours import Hours

HOUR = 3600
TURN_CHOICES: tuple[int | None, ...] = (HOUR, 4 * HOUR, 12 * HOUR, 24 * HOUR, 48 * HOUR, 72 * HOUR, None)
AWAY_CHOICES = (0, 3, 7, 14)  # the most days of time away a host may allow (0: none at this table)


@dataclass(frozen=True)
class Timing:
    turn_seconds: int | None = 24 * HOUR  # for new tables; None: no clock
    reminder_seconds: float | None = None  # how long before the deadline; None: half the time
    # A computer due to move gets a marker this long ahead: if the bot restarts before it moves,
    # the scheduler finds it there and sets it going again. None: no markers (the terminal).
    computer_marker: float | None = None
    # A change's public side (table, pings, standings) is promised in the same write, due this much later:
    # if the bot has not announced it by then (Discord failed, or a restart), the scheduler does. None: none.
    announce_after: float | None = None

    def reminder_before(self, turn_seconds: int) -> float:
        return turn_seconds / 2 if self.reminder_seconds is None else self.reminder_seconds


def _due(state: GameState | None) -> list[str]:
    return [] if state is None or state.phase == "game_over" else to_act(state)


# `made`, in each below: automatic(state, table), when the caller has it already (it is the costly part).

def computers_due(state: GameState | None, table: Table, made: Automatic | None = None) -> set[str]:
    """The seats the bot must move now: a computer's, a human's stood in for, or a person's decision the bot
    takes for them (their only option, or settled ahead)."""
    due = _due(state)
    if not due:
        return set()
    return {p for p in due if table.computer_plays(p)} | set((made or automatic(state, table)).now)


def bot_decides(state: GameState | None, table: Table, made: Automatic | None = None) -> set[str]:
    """Everyone due whose decision the bot makes, now or once the others have chosen: nobody to ask."""
    due = _due(state)
    if not due:
        return set()
    made = made or automatic(state, table)
    return {p for p in due if table.computer_plays(p)} | set(made.now) | made.waiting


def people_due(state: GameState | None, table: Table) -> set[str]:
    """The people who must decide now themselves: whom to tell."""
    return set(_due(state)) - bot_decides(state, table)


def tracked(state: GameState | None, table: Table, made: Automatic | None = None) -> set[str]:
    """The people due whose deadlines stand (a clock, a ping put off): all but those the bot moves now."""
    due = _due(state)
    if not due:
        return set()
    return {p for p in due if not table.computer_plays(p)} - set((made or automatic(state, table)).now)


def next_up(state: GameState | None, table: Table, due: set[str]) -> str | None:
    """The person who bids after the one now on the clock (the heads-up, issue 29): in an auction, the next
    seat still in it. None when the order is not a turn order (a secret choice: everyone at once), when that
    seat is played by the computer, or when the one due now is not the auction's bidder."""
    if state is None or state.phase != "auction" or state.auction is None or len(due) != 1:
        return None
    auction, ids = state.auction, [p.id for p in state.players]
    if ids[auction.turn] not in due:
        return None
    for step in range(1, len(ids)):
        seat = (auction.turn + step) % len(ids)
        if not auction.passed[seat]:
            return None if table.computer_plays(ids[seat]) else ids[seat]
    return None


def away_until(table: Table, player: str) -> float | None:
    """When `player`'s time away ends, if they are away; None if not."""
    seat = table.seat(player)
    return seat.away_until if seat is not None else None


def on_clock(state: GameState | None, table: Table) -> set[str]:
    """The people due on the clock, when the table has one."""
    return set() if table.turn_seconds is None else tracked(state, table)


def newly_clocked(before: set[str], after: set[str], restart: set[str], table: Table) -> set[str]:
    """Who `plan` gives a new clock: the people newly due (or restarted) at a table with a clock."""
    return set() if table.turn_seconds is None else after - ((before & after) - restart)


def plan(game_id: int, before: set[str], after: set[str], restart: set[str], table: Table, timing: Timing,
         now: float, computers: Set[str] = frozenset(), hours: Mapping[str, Hours] | None = None) -> DeadlinePlan:
    """Deadlines after a change (`before`, `after`: who was and is `tracked`): still-due players keep theirs
    (but those in `restart`), newly due get a clock if the table has one, counted inside their `hours` (none
    given: any time); `computers` due get a marker."""
    keep = (before & after) - restart
    new = []
    turn = table.turn_seconds
    for player in sorted(after - keep) if turn is not None else ():
        assert turn is not None
        # Away at a table that waits: the clock starts when the time away ends, and no reminder comes before.
        start = max(now, away_until(table, player) or now)
        mine = (hours or {}).get(player) or Hours()
        due = mine.after(start, turn)
        new.append(Deadline(game_id, player, "timeout", due, {"since": start}))
        remind = mine.after(start, turn - timing.reminder_before(turn))
        if remind >= due and not mine.any_time:  # the bound cut their time short: reminded as their last window opens
            remind = next(mine.windows(due - 1))[0]
        if start < remind < due:
            new.append(Deadline(game_id, player, "reminder", remind, {"timeout": due}))
    for seat in table.seats:  # the end of a time away, when the seat is the player's own again
        if seat.away_until is not None:
            new.append(Deadline(game_id, seat.id, "away", seat.away_until, {}))
    if timing.computer_marker is not None:
        for player in sorted(computers):  # refreshed by every move: it fires only if nothing moves
            new.append(Deadline(game_id, player, "computer", now + timing.computer_marker, {}))
    return DeadlinePlan(frozenset(keep), tuple(new))
