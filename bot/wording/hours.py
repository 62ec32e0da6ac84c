"""Hours, every game of mine, and the daily word (issue 43), in words.

Times are Discord's timestamps (`<t:…:t>`, `<t:…:R>`): each reader's client shows them in the reader's own
time zone and language. A person's own hours are whole hours of the day in their own zone, shown as 18:00.
"""

from __future__ import annotations

from typing import Any

from .words import Words

Params = dict[str, Any]


def _hour(hour: int) -> str:
    return f"{hour % 24:02d}:00" if hour != 24 else "24:00"


def back_line(w: Words, name: str, at: float) -> str:
    """On the table: a person due now is outside their hours; when they begin, in the reader's own time."""
    return w._("💤 {player} plays later: back at {time} (your time), {when}", player=name,
               time=f"<t:{int(at)}:t>", when=f"<t:{int(at)}:R>")


def window(w: Words, start: int | None, end: int | None) -> str:
    if start is None or end is None:
        return w._("any time")
    return w._("{start}–{end}", start=_hour(start), end=_hour(end))


def hours_now(w: Words, zone: str, start: int | None, end: int | None, daily: int | None) -> str:
    """`/augsburg me hours` without options, and after a change: what is set."""
    lines = [w._("🕰️ Your time zone: {zone}. Your hours: {hours} (your time).", zone=zone,
                 hours=window(w, start, end))]
    if start is not None:
        lines.append(w._("Outside them nobody pings you and your clock stands still; the table shows the others "
                         "when you are back."))
    lines.append(daily_now(w, daily))
    return "\n".join(lines)


def daily_now(w: Words, hour: int | None) -> str:
    if hour is None:
        return w._("No daily word: you are told of each move as `/augsburg seat notify` says.")
    return w._("Daily word at {time} (your time): one direct message listing the games where it is your move; "
               "no other pings, only the reminder before a decision would be made for you.", time=_hour(hour))


def daily_dm(w: Words) -> str:
    """The daily word's heading; a line per game follows."""
    return w._("☀️ Your Augsburg 1520 games today:")


def my_games_heading(w: Words) -> str:
    return w._("Your games, newest first:")


def no_games(w: Words) -> str:
    return w._("You have no seat at a game under way or waiting to start.")


def game_line(w: Words, where: str, link: str, due: list[str], mine: bool, soon: bool, lobby: bool,
              deadline: float | None) -> str:
    """One game of `/augsburg me games` and of the daily word: where, whose move, until when, the link."""
    if lobby:
        state = w._("waiting to start")
    elif mine:
        state = w._("**your move**")
    elif soon:
        state = w._("you bid next, after {players}", players=w.join(due))
    else:
        state = w._("{players} to move", players=w.join(due)) if due else w._("the computers move")
    until = w._(" · until {time}", time=f"<t:{int(deadline)}:f>") if deadline is not None and not lobby else ""
    return f"• {where}: {state}{until} — {link}"


def where(w: Words, server: str, channel: str) -> str:
    return w._("{server} › #{channel}", server=server, channel=channel)


def unknown_place(w: Words) -> str:
    return w._("a server I cannot see")


def refusals(w: Words, p: Params) -> dict[str, Any]:
    """The hours' refusal codes (notices.py asks here)."""
    return {
        "unknown_zone": lambda: w._("I do not know the time zone {zone}. Pick one of the suggestions, like "
                                    "Europe/Berlin.", zone=p.get("zone", "")),
        "empty_hours": lambda: w._("Your hours need a start and an end that differ, like 18 to 23 (over midnight: "
                                   "22 to 2)."),
        "hours_both": lambda: w._("Give both the hour your hours start and the hour they end, or any_time."),
    }
