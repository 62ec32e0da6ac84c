"""The public table as a picture, and the same in words for screen readers.

Drawn from the spectator view only (R28): a view that carries a player's private part is refused, so
the picture cannot show a hand or money, whoever asks for it.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import ImageDraw

from engine import View
from engine.views import PrivilegeView

from ..wording import names, phases
from ..wording import table as text
from ..wording.words import People, Words
from . import glyphs, players
from .layout import (
    BODY,
    CHIP,
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
from .story import Story

Names = People | Callable[[str], str]
ALT_TEXT_LIMIT = 1000


def _people(people: Names) -> People:
    return people.plain() if isinstance(people, People) else People(name=people)


def _public(view: View) -> None:
    if view.you is not None:
        raise ValueError("the table picture is drawn from the spectator view only (R28)")


def table_picture(view: View, people: Names, w: Words, story: Story | None = None) -> bytes:
    """The table as PNG bytes: `view` from `spectator_view`, `people` naming the players (a `People` or a
    function of the player id), `w` the table's language; `story` (story.py, from the public log): who won
    each noble this round, and at the end where each score came from."""
    _public(view)
    story = story or Story()
    people = _people(people)
    image, d = canvas()
    names_at = [people.name(p.id) for p in view.players]
    marks = dict(zip([p.id for p in view.players], tokens(names_at)))
    people = People(name=people.name, call=marks.__getitem__)  # `addressed`: the token drawn for a player
    y = _header(d, w, view, people.plain(), MARGIN)
    y = _nobles(d, w, view, people, story, y + 8)
    y = _display(d, w, view, people, y + 14)
    y = _supply(d, w, view, y + 10)
    top = players.track_end(view)
    for place, seat in players.order(view):
        p = view.players[seat]
        y = players.panel(d, w, view, seat, names_at[seat], marks[p.id], y + 10, top, place,
                          story.prestige.get(p.id) if view.phase == "game_over" else None)
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


def _header(d: ImageDraw.ImageDraw, w: Words, view: View, people: People, y: float) -> float:
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


def _nobles(d: ImageDraw.ImageDraw, w: Words, view: View, people: People, story: Story, y: float) -> float:
    """The five nobles in auction order, one a line: who won each this round, the one under way lit and
    pointed at with its highest bid, those to come plain."""
    nobles = view.edition.nobles
    current = nobles.index(view.noble) if view.noble else None
    over = view.phase == "game_over"
    for i, noble in enumerate(nobles):
        now = i == current and not over
        if now:
            d.rounded_rectangle((MARGIN, y, MARGIN + INNER, y + 40), radius=8, fill=HIGHLIGHT, outline=INK, width=3)
            triangle(d, MARGIN + 14, y + 20, 8, INK)
        x = glyphs.draw(d, (MARGIN + 30, y + 6), names.noble(w, noble), BODY, INK) + 14
        if noble in story.won and not now:
            winner = story.won[noble]
            if winner is None:
                glyphs.draw(d, (x, y + 8), w._("nobody bid"), SMALL, MUTED)
            else:
                x = glyphs.draw(d, (x, y + 8), w._("won by"), SMALL, MUTED) + 8
                seat = [p.id for p in view.players].index(winner)
                disk(d, x + 15, y + 20, 15, seat_colour(seat), people.addressed(winner))
                glyphs.draw(d, (x + 38, y + 8), glyphs.fit(people.name(winner), SMALL, MARGIN + INNER - x - 40), SMALL,
                            INK)
        elif now:
            _bid_mark(d, w, view, people, x, y + 8)
        y += 42
    return y


def _bid_mark(d: ImageDraw.ImageDraw, w: Words, view: View, people: People, x: float, y: float) -> None:
    """Beside the noble under way: the highest bid as a number of cards and the bidder's token."""
    if view.auction is not None and view.auction.high:
        count, holder = view.auction.high, view.auction.high_player
    elif view.showdown is not None:
        count, holder = view.showdown.count, None
    elif view.privilege is not None:
        count, holder = None, view.privilege.player
    else:
        return
    if holder:
        seat = [p.id for p in view.players].index(holder)
        disk(d, x + 15, y + 12, 15, seat_colour(seat), people.addressed(holder))
        x += 38
    label = w.n_("highest bid: {n} card", "highest bid: {n} cards", count) if count else w._("won by")
    if holder and not count:
        label = f"{label} {people.name(holder)}"
    glyphs.draw(d, (x, y), glyphs.fit(label, SMALL, MARGIN + INNER - x - 8), SMALL, INK)


def _display(d: ImageDraw.ImageDraw, w: Words, view: View, people: People, y: float) -> float:
    """The face-up privilege cards, one row each: the card's number, then its three privileges."""
    glyphs.draw(d, (MARGIN, y), text.display_heading(w), BODY, INK)
    y += 34
    rows: list[tuple[str, PrivilegeView | None]] = [(card, None) for card in view.privilege_display]
    pv = view.privilege
    if pv is not None and pv.card is not None:  # the card in use, its spent privileges struck through
        rows.insert(0, (pv.card, pv))
    if not rows:
        glyphs.draw(d, (MARGIN + 12, y), text.no_display(w), SMALL, MUTED)
        return y + 30
    for card, turn in rows:
        y = _card_row(d, w, view, people, card, turn, y) + 6
    return y


def _card_row(d: ImageDraw.ImageDraw, w: Words, view: View, people: People, card: str, turn: PrivilegeView | None,
              y: float) -> float:
    ed = view.edition
    items = [(chip_width(names.privilege(w, k, ed)), (slot, k)) for slot, k in enumerate(ed.privilege_cards[card])]
    label = names.privilege_card_number(w, card)  # how a player may name it: "card 4"
    box = glyphs.width(label, SMALL) + 16
    lines = flow(items, INNER - box - 12 - (40 if turn else 0))
    bottom = y + (CHIP + 8) * len(lines) - 8
    d.rounded_rectangle((MARGIN, y, MARGIN + box, y + CHIP), radius=6, fill=HIGHLIGHT if turn else PANEL,
                        outline=INK, width=3 if turn else 1)
    glyphs.draw(d, (MARGIN + 8, y + (CHIP - SMALL) / 2 - 2), label, SMALL, INK)
    for line in lines:
        x = MARGIN + box + 12
        for _, (slot, kind) in line:
            fill, edge = (TRACK_TINT[kind], TRACK[kind]) if kind in TRACK else (KIND_TINT[kind], KIND_EDGE[kind])
            spent = turn is not None and slot in turn.used
            right = chip(d, x, y, names.privilege(w, kind, ed), LINE if spent else fill, MUTED if spent else edge)
            if spent:
                d.line((x + 4, y + CHIP / 2, right - 4, y + CHIP / 2), fill=INK, width=3)
            x = right + 8
        y += CHIP + 8
    if turn is not None:
        seat = [p.id for p in view.players].index(turn.player)
        disk(d, MARGIN + INNER - 18, y - (CHIP + 8) * len(lines) + CHIP / 2, 16, seat_colour(seat),
             people.addressed(turn.player))
    return bottom


def _supply(d: ImageDraw.ImageDraw, w: Words, view: View, y: float) -> float:
    """The deck and discard pile, the tiles in the supply with their next prices, the step tiles left at
    each level (none left: a climb there takes one from a player), and what each level gives at round end."""
    glyphs.draw(d, (MARGIN, y), text.supply_heading(w), BODY, INK)
    y += 36
    for part in (text.deck_and_discard(w, view), text.next_tiles(w, view), text.steps_left(w, view),
                 text.income(w, view.edition)):
        for line in glyphs.wrap(part, SMALL, INNER, most=6):
            glyphs.draw(d, (MARGIN, y), line, SMALL, INK)
            y += 30
        y += 4
    return y
