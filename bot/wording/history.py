"""What happened: the catch-up at the top of a player's panel, and the paged log of a whole game."""

from __future__ import annotations

from engine.edition import Edition
from storage import LogEntry, LoggedMove

from . import clock, names
from .log import private_line, public_line
from .words import People, Words

PAGE = 1900  # characters per page of the log (Discord allows 2,000)


def entry_line(w: Words, e: LogEntry, people: People, reader: str | None, ed: Edition) -> str | None:
    if e.type == "table":
        return clock.table_event(w, e, people)
    if e.type == "choice_made" and e.player == reader:
        return None  # the reader's own "has chosen": their private line says what they chose
    if e.to is None:
        return public_line(w, e, people, ed)
    return private_line(w, e, ed) if e.to == reader else None


def move_lines(w: Words, move: LoggedMove, people: People, reader: str | None, *, ed: Edition) -> list[str]:
    """The sentences of one move for `reader` (None: the public only), told as the clock's when it was; a
    move the bot made for the reader (their only option, or settled ahead) says so to them alone; `ed`: the
    game's edition."""
    lines = [line for e in move.entries if (line := entry_line(w, e, people, reader, ed))]
    if (head := _head(w, move, people, reader)) is not None:
        lines.insert(0, head)
    return lines


def _head(w: Words, move: LoggedMove, people: People, reader: str | None) -> str | None:
    if move.actor == "clock":
        assert move.player is not None  # a clock runs out on a player's decision
        return clock.you_timed_out(w) if move.player == reader else clock.timed_out(w, people.name(move.player))
    if move.player != reader or reader is None:
        return None  # to everyone else it is the player's own move, however it was made
    if move.actor == "only":
        return w._("Your only choice, made for you:")
    if move.actor == "ahead":
        return w._("As you decided ahead:")
    return None


def _heading(w: Words, e: LogEntry) -> str | None:
    if e.type == "auction_started":
        return names.noble(w, e.noble)
    if e.type == "round_started":
        return w._("Round {round}", round=e.round)
    if e.type == "round_income":
        return w._("Round end")
    return None


def catch_up(w: Words, moves: list[LoggedMove], people: People, reader: str, limit: int = 3900, *,
             ed: Edition) -> str:
    """Since the reader's last decision: one line per auction or round end, newest last, cut from the oldest."""
    groups: list[tuple[str | None, list[str]]] = [(None, [])]
    for move in moves:
        if (head := _head(w, move, people, reader)) is not None:
            groups[-1][1].append(head)
        for e in move.entries:
            heading = _heading(w, e)
            if heading is not None:
                groups.append((heading, []))
            if line := entry_line(w, e, people, reader, ed):
                groups[-1][1].append(line)
    text = [f"**{head}:** {' '.join(lines)}" if head else " ".join(lines) for head, lines in groups if lines]
    while len("\n".join(text)) > limit and len(text) > 1:
        text.pop(0)
    return "\n".join(text)[-limit:]


def catch_up_title(w: Words) -> str:
    return w._("Since your last move")


def log_pages(w: Words, moves: list[LoggedMove], people: People, only_round: int | None = None, *,
              ed: Edition) -> list[str]:
    """The public log, headed by round, cut into pages of at most PAGE characters, oldest first. Cut from the
    newest back: the newest page is full, and is the same whatever came before it (`newest_page`)."""
    lines: list[str] = []
    current = 1
    for move in moves:
        for e in move.entries:
            if e.type == "round_started":
                current = e.round
        if only_round is not None and current != only_round:
            continue
        lines.extend(move_lines(w, move, people, None, ed=ed))
    return _pages(lines or [w._("Nothing has happened yet.")])


def newest_page(w: Words, moves: list[LoggedMove], people: People, *, ed: Edition) -> str | None:
    """The log's newest page, from `moves`: the newest of a game, not from its start. None if they do not
    fill the page (the moves before them are needed)."""
    pages = _pages([line for move in moves for line in move_lines(w, move, people, None, ed=ed)])
    return pages[-1] if len(pages) > 1 else None  # a page before it: the newest was cut where it was full


def _pages(lines: list[str]) -> list[str]:
    pages, page = [], ""
    for line in reversed(lines):
        if page and len(page) + 1 + len(line) > PAGE:
            pages.append(page)
            page = ""
        page = f"{line}\n{page}" if page else line[:PAGE]
    pages.append(page)
    return pages[::-1]


def log_title(w: Words, only_round: int | None, page: int, pages: int) -> str:
    if only_round is None:
        return w._("**The game's log** (page {page} of {pages})", page=page, pages=pages)
    return w._("**The log of round {round}** (page {page} of {pages})", round=only_round, page=page, pages=pages)


def newest_title(w: Words) -> str:
    """The title of the log's newest page, when how many pages come before it was not counted."""
    return w._("**The game's log** (the newest page)")


def older(w: Words) -> str:
    return w._("◀ Earlier")


def newer(w: Words) -> str:
    return w._("Later ▶")
