"""The turn clock, seats changing hands, and notifications, in words."""

from __future__ import annotations

from storage import Seat, TableEvent

from . import names
from .words import People, Words

HOUR = 3600


def duration(w: Words, seconds: int | None) -> str:
    """'24 h', '90 min', 'no time limit'."""
    if seconds is None:
        return w._("no time limit")
    if seconds >= HOUR and seconds % HOUR == 0:
        return w._("{n} h", n=seconds // HOUR)
    if seconds >= 60:
        return w._("{n} min", n=round(seconds / 60))
    return w._("{n} s", n=seconds)


def per_decision(w: Words, seconds: int | None) -> str:
    if seconds is None:
        return w._("No time limit per decision")
    return w._("{time} per decision", time=duration(w, seconds))


def clock_heading(w: Words) -> str:
    return w._("Clock")


def due_by(w: Words, name: str, due_at: float) -> str:
    """Discord shows <t:…:R> as 'in 3 hours' in each reader's own language and time zone."""
    return w._("{player} {when}", player=name, when=f"<t:{int(due_at)}:R>")


def clock_choice(w: Words, seconds: int | None) -> str:
    if seconds is None:
        return w._("No time limit")
    return w._("{time} per decision", time=duration(w, seconds))


def clock_placeholder(w: Words) -> str:
    return w._("Time per decision…")


def seat_note(w: Words, seat: Seat) -> str:
    """What the table says after a human's name while a computer plays for them, and after a computer's: its
    level."""
    if seat.kind == "computer":
        return w._(" ({level})", level=names.level(w, seat.level))
    if seat.left:
        return w._(" (left; the computer plays)")
    if seat.stand_in:
        return w._(" (away; the computer plays)")
    if seat.away_until is not None:
        return w._(" (on time away)")
    return ""


def table_event(w: Words, e: TableEvent, people: People) -> str:
    who = people.name(e.player)
    return {
        "stand_in": lambda: w._("From now on the computer plays for {player} until they are back.", player=who),
        "returned": lambda: w._("{player} is back and decides again.", player=who),
        "left": lambda: w._("{player} left the game; the computer plays their seat.", player=who),
        "replaced": lambda: w._("{by} handed {player}'s seat to the computer.", by=people.name(e.by or ""),
                                player=who),
        "abandoned": lambda: w._("Everyone has left: the game is abandoned."),
        "host": lambda: w._("{player} is now the host.", player=who),
        "away": lambda: w.n_("{player} is away for {n} day.", "{player} is away for {n} days.", e.days or 0,
                             player=who),
        "away_over": lambda: w._("{player}'s time away is over; they decide again.", player=who),
    }[e.what]()


def timed_out(w: Words, name: str) -> str:
    return w._("Time ran out for {player}; the computer chose for them.", player=name)


def you_timed_out(w: Words) -> str:
    return w._("⏰ Your time ran out; the computer chose for you:")


def reminder(w: Words, who: str, due_at: float) -> str:
    return w._("⏰ {who}, your move in Augsburg 1520 is still waiting; time runs out {when}.", who=who,
               when=f"<t:{int(due_at)}:R>")


def dm_your_move(w: Words, status: str, link: str) -> str:
    return w._("Your move in Augsburg 1520: {status}\n{link}", status=status, link=link)


def dm_reminder(w: Words, due_at: float, link: str) -> str:
    return w._("⏰ Your move in Augsburg 1520 is still waiting; time runs out {when}.\n{link}",
               when=f"<t:{int(due_at)}:R>", link=link)


def dm_failed(w: Words) -> str:
    return w._("📪 I could not send you a direct message (your DMs may be closed), so I mention you in the "
               "channel instead. `/augsburg seat notify` changes how you are told.")


def answered(w: Words, text: str) -> str:
    return w._("{text} ✅", text=text)


def notify_choice(w: Words, how: str) -> str:
    return {"channel": w._("Mention me in the channel"), "dm": w._("Mention me and send a direct message"),
            "none": w._("Do not notify me")}[how]


def heads_up_choice(w: Words, how: str) -> str:
    return {"off": w._("No heads-up"), "dm": w._("Heads-up by direct message"),
            "channel": w._("Heads-up in the channel, without a ping")}[how]


def heads_up_set(w: Words, how: str) -> str:
    return {"off": w._("From now on you get no heads-up before your turn."),
            "dm": w._("From now on a direct message tells you when the player before you in an auction is on "
                      "the clock."),
            "channel": w._("From now on a line in the channel (without a ping) tells you when the player before "
                           "you in an auction is on the clock.")}[how]


def heads_up_dm(w: Words, before: str, link: str) -> str:
    return w._("👀 Heads-up: {before} is bidding now in Augsburg 1520, and you bid after them.\n{link}",
               before=before, link=link)


def heads_up_line(w: Words, you: str, before: str) -> str:
    return w._("👀 {you}: {before} is bidding now; you bid after them.", you=you, before=before)


def notify_now(w: Words, how: str, heads_up: str) -> str:
    """/augsburg seat notify without options: what is set now."""
    return f"{notify_choice(w, how)} · {heads_up_choice(w, heads_up)}"


def notify_set(w: Words, how: str) -> str:
    return {"channel": w._("From now on you are mentioned in the channel when it is your move."),
            "dm": w._("From now on you are mentioned in the channel and get a direct message when it is your move."),
            "none": w._("From now on you are not notified; the table shows when it is your move.")}[how]


def leave_question(w: Words) -> str:
    return w._("Leave this game for good? The computer will play your seat until the end.")


def leave_button(w: Words) -> str:
    return w._("Yes, leave the game")


def left(w: Words) -> str:
    return w._("You left the game; the computer plays your seat.")


def left_table(w: Words) -> str:
    return w._("You left the table.")


def replace_question(w: Words, name: str) -> str:
    return w._("Hand {player}'s seat to the computer now? They can take it back by coming back.", player=name)


def replace_button(w: Words) -> str:
    return w._("Yes, the computer plays")


def replaced(w: Words, name: str) -> str:
    return w._("The computer now plays for {player}.", player=name)


def back(w: Words) -> str:
    return w._("Welcome back: you decide again from your next decision on.")


def away_choice(w: Words, days: int, waits: bool) -> str:
    """The host's choice of time away in the lobby (and what the lobby shows of it)."""
    if days == 0:
        return w._("No time away")
    if waits:
        return w.n_("Time away up to {n} day: the table waits", "Time away up to {n} days: the table waits", days)
    return w.n_("Time away up to {n} day: the computer plays", "Time away up to {n} days: the computer plays", days)


def away_line(w: Words, name: str, until: float, waits: bool) -> str:
    """On the table: who is away until when (Discord shows <t:…:R> in each reader's time)."""
    when = f"<t:{int(until)}:R>"
    if waits:
        return w._("{player} is away until {when}; the table waits", player=name, when=when)
    return w._("{player} is away until {when}; the computer decides for them", player=name, when=when)


def away_set(w: Words, until: float, waits: bool) -> str:
    """The private answer to /augsburg seat away."""
    when = f"<t:{int(until)}:R>"
    if waits:
        return w._("🧳 You are away until {when}: the table waits for you, and your clock starts when you are back. "
                   "Any click of yours in the game ends it early.", when=when)
    return w._("🧳 You are away until {when}: the computer decides for you at once meanwhile, and no timeout counts "
               "against you. Any click of yours in the game ends it early.", when=when)
