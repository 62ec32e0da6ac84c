"""Text with the font Pillow ships, including the letters it lacks.

`ImageFont.load_default(size=...)` (Aileron, embedded in Pillow) covers ASCII and a few symbols only:
no umlauts, no accented vowels, no ß, no dashes. Nothing may be downloaded and we ship no font, so a
missing letter is composed: its base letter (NFD) drawn by the font, with the accent drawn on top
(the font's own ´ ` ^ ~ where it has them, dots and rings as shapes). ß is written "ss" (as German does
without the letter), dashes are drawn as bars. Composed glyphs are cached as masks, so this stays fast.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

# What Aileron in Pillow draws itself (tests/test_picture.py checks this against the real font).
COVERED = frozenset(map(chr, range(32, 127))) | frozenset("©«°±´·»‘’“”…‹›⁄™")
SPELLED = {"ß": "ss", "ẞ": "SS", "×": "x", "→": "->", "•": "·", "\u00a0": " ", "\u202f": " "}
DASHES = {"—": 1.0, "–": 0.6}  # width in em
MARKS = {"\u0300": "`", "\u0301": "´", "\u0302": "^", "\u0303": "~", "\u0308": "dots", "\u030a": "ring",
         "\u0327": "cedilla"}


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


@cache
def ink(ch: str, size: int) -> tuple[int, int, int, int]:
    """Where a letter's ink lies, from the line's top-left (getbbox reaches down to the baseline whatever the
    letter, so an accent's height must be measured)."""
    f = font(size)
    im = Image.new("L", (size * 2, size * 2))
    ImageDraw.Draw(im).text((0, 0), ch, font=f, fill=255)
    return im.getbbox() or (0, 0, 0, 0)


def _runs(text: str):
    """The text cut into runs the font draws itself (str) and single letters to compose (tuple)."""
    run = []
    for ch in text:
        ch = SPELLED.get(ch, ch)
        if all(c in COVERED for c in ch):
            run.append(ch)
            continue
        if run:
            yield "".join(run)
            run = []
        yield (ch,)
    if run:
        yield "".join(run)


@cache
def _glyph(ch: str, size: int) -> tuple[Image.Image, int, int]:
    """A composed letter as (mask, advance, how far the mask reaches above the line's top)."""
    f = font(size)
    pad = size // 3
    if ch in DASHES:
        advance = round(size * DASHES[ch])
        mask = Image.new("L", (advance, size + pad))
        x_ink = ink("x", size)
        mid = pad + (x_ink[1] + x_ink[3]) // 2
        ImageDraw.Draw(mask).rectangle((1, mid - 1, advance - 2, mid + max(1, size // 14) - 1), fill=255)
        return mask, advance, pad
    parts = unicodedata.normalize("NFD", ch)
    base, marks = parts[0], [MARKS.get(m) for m in parts[1:]]
    if base not in COVERED or not marks or None in marks:
        base, marks = "?", []
    advance = round(f.getlength(base))
    mask = Image.new("L", (advance + 2, size + 2 * pad))
    d = ImageDraw.Draw(mask)
    d.text((0, pad), base, font=f, fill=255)
    left, top, right, _ = ink(base, size)
    if base in "ij":  # the dot gives way to the accent
        top = ink("x", size)[1]
        d.rectangle((0, 0, advance + 2, pad + top - 1), fill=0)
    centre = (left + right) / 2
    for mark in marks:
        if mark == "cedilla":
            x, y = centre, pad + ink("x", size)[3]
            d.arc((x - size * 0.12, y, x + size * 0.12, y + size * 0.22), 270, 150, fill=255, width=max(1, size // 14))
            continue
        gap = max(1, size // 12)
        if mark in ("dots", "ring"):
            r = max(1.0, size * 0.06)
            y = pad + top - gap - r
            if mark == "dots":  # squares: at this size round dots blur into strokes
                for x in (centre - size * 0.12, centre + size * 0.12):
                    d.rectangle((round(x - r), round(y - r), round(x + r), round(y + r)), fill=255)
            else:
                d.ellipse((centre - 2 * r, y - 2 * r, centre + 2 * r, y + r), outline=255, width=max(1, size // 14))
            continue
        mark_box = ink(mark, size)
        x = centre - (mark_box[0] + mark_box[2]) / 2
        y = pad + top - gap - mark_box[3]
        d.text((x, y), mark, font=f, fill=255)
    return mask, advance, pad


@lru_cache(maxsize=4096)
def width(text: str, size: int) -> float:
    f = font(size)
    return sum(f.getlength(r) if isinstance(r, str) else _glyph(r[0], size)[1] for r in _runs(text))


@lru_cache(maxsize=4096)
def _run(text: str, size: int) -> tuple[Image.Image, float]:
    """A run of letters the font has, as a mask (cached: a table's texts repeat from picture to picture, and
    stamping a mask is several times faster than laying out and rasterising the text again)."""
    f = font(size)
    advance = f.getlength(text)
    mask = Image.new("L", (max(1, round(advance) + size // 2), round(size * 1.3)))
    ImageDraw.Draw(mask).text((0, 0), text, font=f, fill=255)
    return mask, advance


def draw(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill) -> float:
    """Write `text` with its top-left at `xy` (the font's ascender line); returns the x where it ends."""
    x, y = xy
    for r in _runs(text):
        if isinstance(r, str):
            mask, advance = _run(r, size)
            d.bitmap((round(x), round(y)), mask, fill=fill)
            x += advance
        else:
            mask, advance, pad = _glyph(r[0], size)
            d.bitmap((round(x), round(y) - pad), mask, fill=fill)
            x += advance
    return x


def fit(text: str, size: int, room: float) -> str:
    """`text`, cut with an ellipsis if it is wider than `room`."""
    if width(text, size) <= room:
        return text
    while text and width(text + "…", size) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, size: int, room: float, most: int = 3) -> list[str]:
    """Lines of `text` no wider than `room`, at most `most` (the last one cut if need be)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and width(candidate, size) > room:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    if len(lines) > most:
        lines = lines[: most - 1] + [" ".join(lines[most - 1:])]
    return [fit(t, size, room) for t in lines]
