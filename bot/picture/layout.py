"""Geometry, colours and the few shapes both pictures are made of.

A phone shows an image 360 px wide, so a picture 640 px wide is shrunk to 56%: text is never smaller than
24 px here (13.5 px on the phone, capitals 10 px high). The background is opaque parchment with a dark frame, so
it reads the same in Discord's dark and light themes. Colour never carries meaning alone: a player's
colour always comes with their initial, a track's with its name.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cache
from io import BytesIO
from typing import TypeVar

from PIL import Image, ImageDraw

from . import glyphs
from .glyphs import Colour

T = TypeVar("T")

WIDTH = 640
MARGIN = 18
INNER = WIDTH - 2 * MARGIN
TITLE, BODY, SMALL = 32, 27, 24  # font sizes in px
PHONE = 360  # how wide a phone shows the picture
CHIP = 38  # a chip's height

PARCHMENT = (244, 235, 217)
PANEL = (251, 247, 238)
INK = (46, 34, 22)
MUTED = (112, 96, 76)
FRAME = (120, 90, 50)
LINE = (196, 176, 140)
HIGHLIGHT = (255, 226, 140)
WHITE = (255, 255, 255)

# The board's colours of the three tracks, and a light tint of each to write on.
TRACK = {"trade": (214, 170, 30), "nobility": (222, 120, 40), "offices": (130, 90, 170)}
TRACK_TINT = {"trade": (250, 236, 180), "nobility": (250, 214, 180), "offices": (226, 212, 242)}
# The other privileges on a card: guilders, prestige, drawing.
KIND_TINT = {"guilders": (236, 226, 196), "prestige6": (214, 232, 214), "prestige7": (214, 232, 214),
             "draw2": (218, 226, 236)}
KIND_EDGE = {"guilders": (160, 130, 60), "prestige6": (70, 130, 80), "prestige7": (70, 130, 80),
             "draw2": (80, 100, 140)}
TILE_TINT, TILE_EDGE = (238, 230, 214), (150, 125, 90)
# Seat colours, by seating order: far from the track colours and from each other, dark enough for a
# white initial.
SEATS = [(178, 40, 40), (40, 90, 170), (30, 120, 70), (60, 60, 60), (150, 50, 130)]


def seat_colour(seat: int) -> Colour:
    return SEATS[seat % len(SEATS)]


# Each drawing thread's sheet, kept from one picture to the next and wiped before each. A new one at every
# picture was a fresh mapping of 4.6 MB (the workers give large blocks mappings of their own: allocator.py),
# faulted in page by page: a quarter of the pictures' worker's time under load (issue 44).
_sheets = threading.local()


def canvas(height: int = 2400) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank sheet taller than any picture needs; `finish` cuts out what was drawn (the sheet is this
    thread's, drawn on again by its next picture: nothing may keep it)."""
    sheet: Image.Image | None = getattr(_sheets, "sheet", None)
    if sheet is None or sheet.height != height:
        sheet = _sheets.sheet = Image.new("RGB", (WIDTH, height), PARCHMENT)
    else:
        sheet.paste(PARCHMENT, (0, 0, WIDTH, height))  # whatever the picture before drew, wherever it drew it
    return sheet, ImageDraw.Draw(sheet)


def finish(image: Image.Image, bottom: float) -> bytes:
    image = image.crop((0, 0, WIDTH, round(bottom) + MARGIN))
    ImageDraw.Draw(image).rectangle((0, 0, image.width - 1, image.height - 1), outline=FRAME, width=4)
    return png(image)


def text(d: ImageDraw.ImageDraw, x: float, y: float, s: str, size: int = BODY, fill: Colour = INK) -> float:
    return glyphs.draw(d, (x, y), s, size, fill)


def right_text(d: ImageDraw.ImageDraw, right: float, y: float, s: str, size: int = BODY, fill: Colour = INK) -> float:
    """Write `s` so it ends at `right`; returns where it starts."""
    x = right - glyphs.width(s, size)
    glyphs.draw(d, (x, y), s, size, fill)
    return x


def disk(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, colour: Colour, letter: str) -> None:
    """A player's token: their colour with their initial on it (never the colour alone)."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=INK, width=2)
    size = max(SMALL if len(letter) == 1 else 16, round(r * (1.25 if len(letter) == 1 else 0.9)))
    w = glyphs.width(letter, size)
    box = glyphs.ink("H", size)
    glyphs.draw(d, (cx - w / 2, cy - (box[1] + box[3]) / 2), letter, size, WHITE)


def tokens(names: list[str]) -> list[str]:
    """What each player's token shows: their initial, or, where initials are shared ("Computer 1",
    "Computer 2"), the initial and the name's last letter or digit; the seat's number as a last resort."""
    def initial(name: str, long: bool) -> str:
        letters = [c for c in name if c.isalnum()]
        if not letters:
            return "?"
        return (letters[0] + letters[-1] if long and len(letters) > 1 else letters[0]).upper()

    short = [initial(n, False) for n in names]
    out = [initial(n, short.count(s) > 1) for n, s in zip(names, short)]
    return [t if out.count(t) == 1 else str(seat + 1) for seat, t in enumerate(out)]


def chip_width(s: str, size: int = SMALL) -> float:
    return glyphs.width(s, size) + 20


def chip(d: ImageDraw.ImageDraw, x: float, y: float, s: str, fill: Colour, edge: Colour, size: int = SMALL,
         height: int = CHIP) -> float:
    """A rounded label; returns its right edge."""
    right = x + chip_width(s, size)
    d.rounded_rectangle((x, y, right, y + height), radius=8, fill=fill, outline=edge, width=2)
    box = glyphs.ink("H", size)
    glyphs.draw(d, (x + 10, y + height / 2 - (box[1] + box[3]) / 2), s, size, INK)
    return right


def flow(items: Sequence[tuple[float, T]], room: float, gap: float = 8) -> list[list[tuple[float, T]]]:
    """(width, thing) items in lines no wider than `room`, in order."""
    lines: list[list[tuple[float, T]]] = [[]]
    used = 0.0
    for width, thing in items:
        if lines[-1] and used + gap + width > room:
            lines.append([])
            used = 0.0
        used += (gap if lines[-1] else 0) + width
        lines[-1].append((width, thing))
    return [line for line in lines if line]


def triangle(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Colour, pointing: str = "right") -> None:
    points = {"right": [(cx - r, cy - r), (cx + r, cy), (cx - r, cy + r)],
              "down": [(cx - r, cy - r), (cx + r, cy - r), (cx, cy + r)]}[pointing]
    d.polygon(points, fill=fill, outline=INK)


@cache
def palette() -> Image.Image:
    """The colours a picture can hold: those drawn, and the blends of text and edges with what they are
    drawn on (anti-aliasing). Fixed in advance, mapping a picture to it takes a quarter of the time of
    choosing a palette for each picture, and the same table always gives the same bytes."""
    grounds = [PARCHMENT, PANEL, LINE, HIGHLIGHT, TILE_TINT, *TRACK_TINT.values(), *KIND_TINT.values(), *SEATS,
               *TRACK.values()]
    pairs = [(INK, g) for g in grounds] + [(MUTED, g) for g in (PARCHMENT, PANEL, LINE)]
    pairs += [(WHITE, g) for g in SEATS] + [(FRAME, PARCHMENT), (TILE_EDGE, TILE_TINT), (TILE_EDGE, PARCHMENT)]
    pairs += [(TRACK[k], g) for k in TRACK for g in (TRACK_TINT[k], PANEL)]
    pairs += [(KIND_EDGE[k], g) for k in KIND_EDGE for g in (KIND_TINT[k], PANEL)]
    colours: list[tuple[int, ...]] = [INK, MUTED, WHITE, FRAME, TILE_EDGE, *grounds, *KIND_EDGE.values()]
    for share in (0.15, 0.35, 0.55, 0.75, 0.9):
        colours += [tuple(round(f * share + g * (1 - share)) for f, g in zip(fg, bg)) for fg, bg in pairs]
    colours = list(dict.fromkeys(colours))[:256]
    image = Image.new("P", (1, 1))
    image.putpalette([v for c in colours for v in c] + [0] * 3 * (256 - len(colours)))
    return image


def png(image: Image.Image) -> bytes:
    """PNG bytes, as a palette image: flat colours and anti-aliased text need few colours, and it is
    several times smaller than RGB for the same look."""
    out = BytesIO()
    image.quantize(palette=palette(), dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=1)  # level 6 saves a third of the bytes for three times the time
    return out.getvalue()
