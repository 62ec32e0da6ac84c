"""The public table as a picture, and the same in words for screen readers.

Drawn from the spectator view only (R28): a view that carries a player's private part is refused, so
the picture cannot show a hand or money, whoever asks for it.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import View

from ..wording import names, phases
from ..wording import table as text
from ..wording.words import People, Words
from . import glyphs, players
from .layout import (
    BODY,
    HIGHLIGHT,
    INK,
    INNER,
    KIND_EDGE,
    KIND_TINT,
    LINE,
    MARGIN,
    MUTED,
    PANEL,
    SMALL,
    TITLE,
    TRACK,
    TRACK_TINT,
    canvas,
    chip,
    chip_width,
    disk,
    finish,
    flow,
    seat_colour,
    tokens,
    triangle,
)

Names = People | Callable[[str], str]
ALT_TEXT_LIMIT = 1000


def _people(people: Names) -> People:
    return people.plain() if isinstance(people, People) else People(name=people)


def _public(view: View) -> None:
    if view.you is not None:
        raise ValueError("the table picture is drawn from the spectator view only (R28)")


def table_picture(view: View, people: Names, w: Words) -> bytes:
    """The table as PNG bytes: `view` from `spectator_view`, `people` naming the players (a `People` or a
    function of the player id), `w` the table's language."""
    _public(view)
    people = _people(people)
    image, d = canvas()
    names_at = [people.name(p.id) for p in view.players]
    marks = dict(zip([p.id for p in view.players], tokens(names_at)))
    people = People(name=people.name, call=marks.__getitem__)  # `call`: the token drawn for a player
    y = _header(d, w, view, people.plain(), MARGIN)
    y = _nobles(d, w, view, people, y + 8)
    y = _display(d, w, view, people, y + 14)
    y = _supply(d, w, view, y + 6)
    for seat, p in enumerate(view.players):
        y = players.panel(d, w, view, seat, names_at[seat], marks[p.id], y + 10)
    return finish(image, y)


def table_alt_text(view: View, people: Names, w: Words) -> str:
    """What the picture shows, in a few sentences (Discord's alt text holds at most 1,000 characters)."""
    _public(view)
    people = _people(people)
    parts = [text.round_title(w, view) + ".", _status(w, view, people)]
    for p in view.players:
        parts.append(f"{text.player_heading(w, p, view, people)}: {text.levels(w, p)}; {text.tiles(w, p)}.")
    shown = text.display(w, view)
    parts.append(f"{text.display_heading(w)}: {'; '.join(shown) if shown else text.no_display(w)}.")
    parts.append(text.deck_and_discard(w, view) + ".")
    alt = " ".join(parts)
    return alt if len(alt) <= ALT_TEXT_LIMIT else alt[: ALT_TEXT_LIMIT - 1].rstrip() + "…"


def _status(w: Words, view: View, people: People) -> str:
    return phases.status(w, view, people).replace("**", "")


def _header(d, w: Words, view: View, people: People, y: float) -> float:
    glyphs.draw(d, (MARGIN, y), glyphs.fit(text.round_title(w, view), TITLE, INNER), TITLE, INK)
    y += 44
    # The round track: one numbered circle a round, this one larger and filled, those past greyed.
    x = MARGIN + 16
    for number in range(1, view.rounds + 1):
        now = number == view.round and view.phase != "game_over"
        past = number < view.round or view.phase == "game_over"
        r = 17 if now else 14
        d.ellipse((x - r, y + 17 - r, x + r, y + 17 + r), fill=HIGHLIGHT if now else (LINE if past else PANEL),
                  outline=INK, width=3 if now else 1)
        label = str(number)
        glyphs.draw(d, (x - glyphs.width(label, SMALL) / 2, y + 17 - 13), label, SMALL, INK if not past else MUTED)
        x += 44
    y += 44
    for line in glyphs.wrap(_status(w, view, people), BODY, INNER, most=3):
        glyphs.draw(d, (MARGIN, y), line, BODY, INK)
        y += 30
    return y


def _nobles(d, w: Words, view: View, people: People, y: float) -> float:
    """The five nobles in auction order; the one visited now is framed, lit and pointed at."""
    gap, nobles = 8, view.edition.nobles
    width = (INNER - gap * (len(nobles) - 1)) / len(nobles)
    current = nobles.index(view.noble) if view.noble else None
    for i, noble in enumerate(nobles):
        x = MARGIN + i * (width + gap)
        now, done = i == current, current is not None and i < current
        d.rounded_rectangle((x, y + 14, x + width, y + 92), radius=10, fill=HIGHLIGHT if now else (
            LINE if done else PANEL), outline=INK, width=4 if now else 1)
        if now:
            triangle(d, x + width / 2, y + 6, 9, INK, "down")
        label = glyphs.fit(names.noble(w, noble), BODY, width - 12)
        glyphs.draw(d, (x + (width - glyphs.width(label, BODY)) / 2, y + 22), label, BODY, MUTED if done else INK)
        if now:
            _bid_mark(d, w, view, people, x, width, y + 52)
    return y + 92


def _bid_mark(d, w: Words, view: View, people: People, x: float, width: float, y: float) -> None:
    """Under the noble visited: the highest bid as a number of cards and the bidder's token."""
    if view.auction is not None and view.auction.high:
        count, holder = view.auction.high, view.auction.high_player
    elif view.showdown is not None:
        count, holder = view.showdown.count, None
    elif view.privilege is not None:
        count, holder = None, view.privilege.player
    else:
        return
    seat = [p.id for p in view.players].index(holder) if holder else None
    label = w.n_("{n} card", "{n} cards", count) if count else ""
    full = glyphs.width(label, SMALL) + (34 if holder else 0)
    lx = x + (width - full) / 2
    if holder:
        disk(d, lx + 13, y + 15, 13, seat_colour(seat), people.call(holder))
        lx += 34
    glyphs.draw(d, (lx, y + 2), label, SMALL, INK)


def _display(d, w: Words, view: View, people: People, y: float) -> float:
    """The face-up privilege cards, one row each: the card's number, then its three privileges."""
    glyphs.draw(d, (MARGIN, y), text.display_heading(w), BODY, INK)
    y += 34
    rows = [(card, None) for card in view.privilege_display]
    pv = view.privilege
    if pv is not None and pv.card is not None:  # the card in use, its spent privileges struck through
        rows.insert(0, (pv.card, pv))
    if not rows:
        glyphs.draw(d, (MARGIN + 12, y), text.no_display(w), SMALL, MUTED)
        return y + 30
    for card, turn in rows:
        y = _card_row(d, w, view, people, card, turn, y) + 6
    return y


def _card_row(d, w: Words, view: View, people: People, card: str, turn, y: float) -> float:
    ed = view.edition
    items = [(chip_width(names.privilege(w, k, ed)), (slot, k)) for slot, k in enumerate(ed.privilege_cards[card])]
    lines = flow(items, INNER - 60 - (40 if turn else 0))
    bottom = y + 42 * len(lines) - 8
    d.rounded_rectangle((MARGIN, y - 3, MARGIN + 42, bottom + 3), radius=6, fill=HIGHLIGHT if turn else PANEL,
                        outline=INK, width=3 if turn else 1)
    glyphs.draw(d, (MARGIN + 21 - glyphs.width(card, BODY) / 2, y + 3), card, BODY, INK)
    for line in lines:
        x = MARGIN + 54
        for _, (slot, kind) in line:
            fill, edge = (TRACK_TINT[kind], TRACK[kind]) if kind in TRACK else (KIND_TINT[kind], KIND_EDGE[kind])
            spent = turn is not None and slot in turn.used
            right = chip(d, x, y, names.privilege(w, kind, ed), LINE if spent else fill, MUTED if spent else edge)
            if spent:
                d.line((x + 4, y + 17, right - 4, y + 17), fill=INK, width=3)
            x = right + 8
        y += 42
    if turn is not None:
        seat = [p.id for p in view.players].index(turn.player)
        disk(d, MARGIN + INNER - 18, y - 42 * len(lines) + 13, 16, seat_colour(seat), people.call(turn.player))
    return bottom


def _supply(d, w: Words, view: View, y: float) -> float:
    for line in glyphs.wrap(text.deck_and_discard(w, view), SMALL, INNER, most=2) + glyphs.wrap(
            text.next_tiles(w, view), SMALL, INNER, most=2):
        glyphs.draw(d, (MARGIN, y), line, SMALL, INK)
        y += 28
    return y
