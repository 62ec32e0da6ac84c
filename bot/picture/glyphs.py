"""Text in the pictures, in DejaVu Sans, which ships with the bot (fonts/, with its licence): every letter
German and Italian need (umlauts, ß, accents, dashes) is the font's own, so nothing is composed or
downloaded. Laid-out runs are cached as masks: a table's texts repeat from picture to picture, and stamping
a mask is several times faster than laying the text out again. The cache is bounded by its bytes, not by its
count: a mask is some 10-50 KB, and four thousand of them (names, numbers, the story's lines of a thousand
tables) grew the pictures' worker by 60 MB over ten minutes of the load benchmark."""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from pathlib import Path

from cachetools import LRUCache, cached
from PIL import Image, ImageDraw, ImageFont

FONT = Path(__file__).parent / "fonts" / "DejaVuSans.ttf"
Colour = tuple[int, int, int]  # RGB
Run = tuple[bytes, tuple[int, int], float]  # a laid-out run: its mask's pixels, the mask's size, its advance
RUN_BYTES = 16 * 2**20  # the masks kept: the texts of the tables drawn lately


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


@cache
def ink(ch: str, size: int) -> tuple[float, float, float, float]:
    """Where a letter's ink lies, from the line's top-left."""
    return font(size).getbbox(ch)


def has(ch: str) -> bool:
    """Whether the font draws `ch` itself rather than its empty box (a space has no ink, and is fine)."""
    return ch.isspace() or bytes(font(24).getmask(ch)) != bytes(font(24).getmask("\uffff"))


@lru_cache(maxsize=4096)
def width(text: str, size: int) -> float:
    return font(size).getlength(text)


_runs: LRUCache[tuple[str, int], Run] = LRUCache(RUN_BYTES, getsizeof=lambda run: len(run[0]))


@cached(_runs, lock=threading.Lock())  # (the tests' bots draw on threads)
def _run(text: str, size: int) -> Run:
    """The run's mask as its pixels (bytes), its size and its advance. Not as an Image: thousands of
    them would be twice as many objects more for every garbage collection to walk (issue 44), and
    wrapping the bytes again to stamp them costs next to nothing (Image.frombuffer copies nothing)."""
    f = font(size)
    advance = f.getlength(text)
    mask = Image.new("L", (max(1, round(advance) + size // 2), round(size * 1.3)))
    ImageDraw.Draw(mask).text((0, 0), text, font=f, fill=255)
    return mask.tobytes(), mask.size, advance


def draw(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Colour) -> float:
    """Write `text` with its top-left at `xy` (the font's ascender line); returns the x where it ends."""
    x, y = xy
    pixels, box, advance = _run(text, size)
    d.bitmap((round(x), round(y)), Image.frombuffer("L", box, pixels, "raw", "L", 0, 1), fill=fill)
    return x + advance


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
