"""Text in the pictures, in DejaVu Sans, which ships with the bot (fonts/, with its licence): every letter
German and Italian need (umlauts, ß, accents, dashes) is the font's own, so nothing is composed or
downloaded. Laid-out runs are cached as masks: a table's texts repeat from picture to picture, and stamping
a mask is several times faster than laying the text out again."""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT = Path(__file__).parent / "fonts" / "DejaVuSans.ttf"
Colour = tuple[int, int, int]  # RGB


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


@lru_cache(maxsize=4096)
def _run(text: str, size: int) -> tuple[bytes, tuple[int, int], float]:
    """The run's mask as its pixels (bytes), its size and its advance. Not as an Image: four thousand of
    them would be eight thousand objects more for every garbage collection to walk (issue 44), and
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
