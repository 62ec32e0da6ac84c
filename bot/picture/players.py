"""One panel per player: token and name, what they do in this auction, prestige on a track from 0 to 45 (or
on to the best score, so that 59 and 89 look different) with the limit they cannot pass yet (R21), their
three tracks and their privilege tiles; at the end, in the order of the standings, with their place and
where their prestige came from."""

from __future__ import annotations

from PIL import ImageDraw

from engine import View
from engine.components import CATEGORIES
from engine.edition import Edition
from engine.rules import prestige_limit
from engine.views import PublicPlayer

from ..wording import end, names, views
from ..wording import table as text
from ..wording.words import Words
from . import glyphs
from .glyphs import Colour
from .layout import (
    BODY,
    CHIP,
    HIGHLIGHT,
    INK,
    INNER,
    LINE,
    MARGIN,
    MUTED,
    PANEL,
    SMALL,
    TILE_EDGE,
    TILE_TINT,
    TRACK,
    TRACK_TINT,
    chip,
    chip_width,
    disk,
    flow,
    right_text,
    seat_colour,
    triangle,
)

PIP = 14


def track_end(view: View) -> int:
    """Where the prestige tracks end: at the Cathedral's limit, as on the board, or at the best score rounded
    up to 5 beyond it."""
    return max(view.edition.cathedral_limit, -(-max((p.score for p in view.players), default=0) // 5) * 5)


def order(view: View) -> list[tuple[int | None, int]]:
    """(place, seat) of the panels: seating order while playing; at the end, the standings' order with each
    player's place (end.places: winners first, equal scores below them sharing a place)."""
    if view.phase != "game_over" or not view.winners:
        return [(None, seat) for seat in range(len(view.players))]
    seat_of = {p.id: seat for seat, p in enumerate(view.players)}
    placed = end.places({p.id: p.score for p in view.players}, view.winners)
    return [(place, seat_of[player]) for place, player, _ in placed]


def badges(w: Words, view: View, pid: str) -> list[tuple[str, Colour]]:
    """Labels after a name, each with its fill: first player, their part in the auction, winner."""
    out: list[tuple[str, Colour]] = []
    if pid in view.to_act and view.phase != "game_over":
        out.append((w._("to act"), HIGHLIGHT))
    a = view.auction
    if a is not None:
        if pid in a.passed:
            out.append((w._("passed"), LINE))
        elif pid == a.high_player:
            out.append((w.n_("highest bid: {n} card", "highest bid: {n} cards", a.high), HIGHLIGHT))
        elif a.offers.get(pid):
            out.append((w.n_("bid: {n} card", "bid: {n} cards", a.offers[pid]), PANEL))
    if view.privilege is not None and view.privilege.player == pid:
        out.append((w._("won {noble}", noble=names.noble(w, views.noble(view))), HIGHLIGHT))
    if view.winners and pid in view.winners:
        out.append((w._("winner"), HIGHLIGHT))
    if pid == view.lead and view.phase != "game_over":
        out.append((text.lead_mark(w).strip(" ·"), PANEL))
    return out


def panel(d: ImageDraw.ImageDraw, w: Words, view: View, seat: int, name: str, token: str, y: float,
          top: int | None = None, place: int | None = None, sources: dict[str, int] | None = None) -> float:
    """Draw one player's panel from `y` (its prestige track ending at `top`; `place` in the standings and
    `sources` of their prestige, at the end); returns its bottom."""
    p = view.players[seat]
    top = top or track_end(view)
    left, right = MARGIN, MARGIN + INNER
    acting = p.id in view.to_act and view.phase != "game_over"
    # The panel's height depends on how its chips and lines wrap; lay them out first.
    ed = view.edition
    chips = _chips(w, p, ed.max_level)
    lines = flow([(chip_width(label, SMALL) + extra, (label, kind, value)) for label, kind, value, extra in chips],
                 INNER - 24)
    told = glyphs.wrap(_sources(w, sources), SMALL, INNER - 24, most=3) if sources is not None else []
    bottom = y + 112 + (CHIP + 8) * len(lines) + 30 * len(told)
    d.rounded_rectangle((left, y, right, bottom), radius=12, fill=PANEL, outline=INK if acting else LINE,
                        width=4 if acting else 2)
    colour = seat_colour(seat)
    disk(d, left + 30, y + 28, 18, colour, token)
    x: float = left + 56
    if acting:  # a shape, not only the frame's colour, says whose turn it is
        triangle(d, left + 4, y + 28, 9, HIGHLIGHT)
    if place is not None:
        x = glyphs.draw(d, (x, y + 12), w._("{place}.", place=place), BODY, INK) + 8
    score = text.score(w, p, ed)
    score_left = right - 14 - glyphs.width(score, BODY)
    # The name first (cut only if it alone is too long), then as many labels as fit, most useful first.
    x = glyphs.draw(d, (x, y + 14), glyphs.fit(name, BODY, score_left - x - 16), BODY, INK) + 12
    for label, fill in badges(w, view, p.id):
        if x + chip_width(label) < score_left - 8:
            x = chip(d, x, y + 11, label, fill, INK) + 8
    right_text(d, right - 14, y + 14, score, BODY)
    _prestige(d, w, p, ed, colour, token, left + 24, right - 24, y + 54, top)
    cy = y + 106
    for line in lines:
        cx: float = left + 12
        for width, (label, kind, value) in line:
            _chip(d, cx, cy, label, kind, value, ed.max_level)
            cx += width + 8
        cy += CHIP + 8
    for note in told:
        glyphs.draw(d, (left + 12, cy), note, SMALL, INK)
        cy += 30
    return bottom


def _sources(w: Words, sources: dict[str, int]) -> str:
    """Where a player's prestige came from (the final standings' breakdown)."""
    parts = [end.source(w, kind, sources[kind]) for kind in end.SOURCES if sources.get(kind)]
    return w._("Prestige: {sources}", sources=w.join(parts)) if parts else w._("No prestige")


def _chips(w: Words, p: PublicPlayer, levels: int) -> list[tuple[str, str, int | None, float]]:
    """(label, kind, value, room for pips): the three tracks, then the tiles held."""
    out: list[tuple[str, str, int | None, float]] = [
        (w._("{category} {level}", category=names.category(w, c), level=p.levels[c]), c, p.levels[c],
         levels * (PIP + 3) + 6) for c in CATEGORIES]
    t = p.tiles
    for k in ("church", "cathedral", "coat", "letter"):
        if (v := getattr(t, k)) is not None:
            out.append((text.tile_value(w, k, v), "tile", None, 0))
    out += [(names.tile(w, k), "tile", None, 0) for k in ("minter", "master_builder") if getattr(t, k)]
    return out


def _chip(d: ImageDraw.ImageDraw, x: float, y: float, label: str, kind: str, level: int | None, levels: int) -> None:
    if kind == "tile":
        chip(d, x, y, label, TILE_TINT, TILE_EDGE)
        return
    assert level is not None  # a track's chip has its level; only a tile's has none
    pips = levels * (PIP + 3) + 6
    right = x + chip_width(label) + pips
    d.rounded_rectangle((x, y, right, y + CHIP), radius=8, fill=TRACK_TINT[kind], outline=TRACK[kind], width=2)
    box = glyphs.ink("H", SMALL)
    done = glyphs.draw(d, (x + 10, y + CHIP / 2 - (box[1] + box[3]) / 2), label, SMALL, INK)
    top = y + (CHIP - PIP) / 2
    for i in range(levels):  # filled squares up to the level: the count reads without the colour
        px = done + 10 + i * (PIP + 3)
        d.rectangle((px, top, px + PIP, top + PIP), fill=TRACK[kind] if i < level else PANEL, outline=INK)


def _prestige(d: ImageDraw.ImageDraw, w: Words, p: PublicPlayer, ed: Edition, colour: Colour, letter: str,
              x0: float, x1: float, y: float, top: int) -> None:
    """The track from 0 to `top` (the board's track runs to the Cathedral's limit; a higher best score
    extends it): filled to the score, a wall at the limit with the points beyond it hatched."""
    limit = prestige_limit(p.tiles, ed)

    def at(points: float) -> float:
        return x0 + (x1 - x0) * min(points, top) / top

    d.rounded_rectangle((x0, y, x1, y + 14), radius=7, fill=PANEL, outline=INK, width=2)
    if limit is not None and limit < top:
        for hx in range(round(at(limit)) + 4, round(x1), 9):  # what cannot be scored yet, hatched
            d.line((hx, y + 13, hx + 8, y + 1), fill=MUTED, width=2)
    if p.score:
        d.rounded_rectangle((x0, y, max(at(p.score), x0 + 14), y + 14), radius=7, fill=colour, outline=INK, width=2)
    for mark in range(5, top, 5):
        d.line((at(mark), y + 14, at(mark), y + 20), fill=INK, width=1)
    labels = {points: str(points) for points in (0, ed.church_limit, ed.cathedral_limit, top)}
    if limit is not None:
        d.rectangle((at(limit) - 3, y - 8, at(limit) + 3, y + 22), fill=INK)
    for points, label in labels.items():
        size = BODY if points == limit else SMALL
        lx = at(points) - glyphs.width(label, size) / 2
        lx = min(max(lx, x0 - 8), x1 + 8 - glyphs.width(label, size))
        glyphs.draw(d, (lx, y + 17), label, size, INK if points == limit else MUTED)
    if limit is None:
        label = w._("no limit")
        middle = (ed.church_limit + ed.cathedral_limit) / 2  # between the two limits' labels
        glyphs.draw(d, (at(middle) - glyphs.width(label, SMALL) / 2, y + 17), label, SMALL, INK)
    disk(d, at(p.score), y + 7, 14, colour, letter)
