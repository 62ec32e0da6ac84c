"""The hours a person plays (issue 43): their time zone and one daily window, or any time. Pure: no I/O.

Outside their hours nobody pings them, and their turn clock does not run: a deadline is the moment when the
table's time per decision has passed *inside* their hours (`Hours.after`). Hours never stall a table for
ever: a decision waits at most `BOUND` of real time, and when that bound would fall outside their hours the
deadline is the end of their last window before it, so nobody is decided for in their sleep.

A window is whole hours of the day in the person's own zone: from `start` to `end` (`end` < `start`: over
midnight, 22–2), both given in local time, so summer time moves it with the zone (zoneinfo). A moment is
inside the window when start <= it <= end: a deadline at the very end of a window is still inside it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

DAY = 86400
# The most real time one decision waits for its person, whatever their hours: three days, the longest clock
# a host can choose (72 h). A person with hours never holds a table longer than the slowest table does
# without them, and three days hold at least two whole windows of any daily window.
BOUND = 3 * DAY
UTC = "UTC"
# A timeout that ran out inside a person's hours still fires this long after, outside them: a scheduler a
# moment late at a window's end must not give them a whole day more (and again at every late firing).
LATE = 600.0


@lru_cache(maxsize=1)
def zones() -> tuple[str, ...]:
    """Every IANA zone name this machine knows (the system's files, else the tzdata package), sorted."""
    return tuple(sorted(available_timezones() | {UTC}))


def known_zone(name: str) -> bool:
    return name in zones()


@lru_cache(maxsize=512)
def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(UTC)


@dataclass(frozen=True)
class Hours:
    """`zone`: an IANA name; `start`, `end`: the window's hours (0–23, 1–24), or None for any time."""

    zone: str = UTC
    start: int | None = None
    end: int | None = None

    @property
    def any_time(self) -> bool:
        return self.start is None or self.end is None

    def windows(self, since: float) -> Iterator[tuple[float, float]]:
        """The person's windows (epoch seconds, start and end) that end after `since`, earliest first."""
        if self.start is None or self.end is None:
            yield since, float("inf")
            return
        tz = _zone(self.zone)
        day = datetime.fromtimestamp(since, tz).date() - timedelta(days=1)
        while True:
            opens = _at(day, self.start, tz)
            closes = _at(day + timedelta(days=1 if self.end <= self.start else 0), self.end, tz)
            if closes > since:
                yield opens, closes
            day += timedelta(days=1)

    def inside(self, t: float) -> bool:
        """Whether `t` is inside their hours (a window's end included)."""
        return self.any_time or next(self.windows(t - 0.001))[0] <= t

    def back_at(self, t: float) -> float | None:
        """When their hours begin next, if `t` is outside them; None if it is inside."""
        if self.inside(t):
            return None
        return next(opens for opens, _ in self.windows(t) if opens > t)

    def after(self, since: float, seconds: float, bound: float = BOUND) -> float:
        """The moment `seconds` of time inside their hours have passed after `since`; at most `since + bound`,
        and then the end of their last window before it (if one ends after `since`)."""
        left, limit, last = seconds, since + bound, None
        for opens, closes in self.windows(since):
            begin = max(opens, since)
            if begin >= limit:
                break
            if begin + left <= min(closes, limit):
                return begin + left
            if closes > limit:
                break
            left -= closes - begin
            last = closes
        return last if last is not None and last > since else limit


def put_off(hours: Hours, kind: str, payload: dict[str, float], turn: int | None, now: float) -> float | None:
    """When a deadline that fires at `now`, outside its person's hours (they changed them since it was
    planned, or the bot was down), fires instead; None to fire now (inside their hours, or a reminder too
    late to be sent). A timeout: when their time inside their hours now runs out; if that has passed, now
    (a moment late, or past the bound) or else the end of their next window (within the bound); a reminder:
    when their hours begin, if before the timeout."""
    back = hours.back_at(now)
    if back is None:
        return None
    if kind == "reminder":
        return back if back < payload.get("timeout", float("inf")) else None
    since = payload.get("since", now)
    due = hours.after(since, turn) if turn is not None else now
    if due > now:
        return due
    if now - due <= LATE or now >= since + BOUND:
        return None  # it ran out inside their hours and the scheduler is a moment late; or the bound holds
    return min(next(hours.windows(back))[1], since + BOUND)  # long past (the bot was down): their next window


def _at(day: date, hour: int, tz: ZoneInfo) -> float:
    """Hour `hour` (0–24) of `day` in zone `tz`, as epoch seconds (a time that summer time skips: the
    moment after it; one it repeats: the first)."""
    moment = datetime.combine(day + timedelta(days=hour // 24), time(hour % 24), tzinfo=tz)
    return moment.timestamp()


def of_settings(settings: dict[str, object]) -> Hours:
    """A person's hours as their stored settings hold them ({"zone": …, "hours": [start, end]})."""
    zone = settings.get("zone")
    window = settings.get("hours")
    start = end = None
    if isinstance(window, list) and len(window) == 2 and all(isinstance(h, int) for h in window):
        start, end = window
    return hours_of(zone if isinstance(zone, str) and known_zone(zone) else UTC, start, end)


@lru_cache(maxsize=1024)
def hours_of(zone: str, start: int | None, end: int | None) -> Hours:
    """One `Hours` for all who keep the same (most keep the default): frozen, so shared safely."""
    return Hours(zone, start, end)


def next_daily(hour: int, zone: str, after: float) -> float:
    """The next time it is `hour`:00 in `zone`, after `after`."""
    tz = _zone(zone)
    day = datetime.fromtimestamp(after, tz).date()
    while (at := _at(day, hour, tz)) <= after:
        day += timedelta(days=1)
    return at


def local_hour(hours: Hours, t: float) -> str:
    """`t` as HH:MM in the person's zone (for the terminal and tests)."""
    return datetime.fromtimestamp(t, _zone(hours.zone)).strftime("%H:%M")
