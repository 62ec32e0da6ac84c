"""One player's own hand as a picture, for their private panel only: their money, then their cards by
noble (value large, price small beside a coin), the cards offered to them and their secret choice."""

from __future__ import annotations

from PIL import ImageDraw

from engine import View
from engine.components import JOKER
from engine.edition import Edition

from ..wording import names
from ..wording.words import Words
from . import glyphs
from .layout import BODY, INK, INNER, KIND_EDGE, KIND_TINT, LINE, MARGIN, MUTED, PANEL, SMALL, TITLE, canvas, finish

CARD_W, CARD_H, GAP = 78, 80, 8
LABEL_W = 150


def hand_picture(view: View, w: Words) -> bytes:
    """PNG bytes of `view.you`'s hand; `view` must be that player's own `player_view`."""
    you = view.you
    if you is None:
        raise ValueError("a hand picture needs the player's own view")
    image, d = canvas()
    y: float = MARGIN
    glyphs.draw(d, (MARGIN, y), _plain(w._("**Your money:** {money}", money=w.money(you.money))), TITLE, INK)
    y += 46
    heading = _plain(w.n_("**Your hand ({n} card):**", "**Your hand ({n} cards):**", len(you.hand))).rstrip(":")
    end = glyphs.draw(d, (MARGIN, y), heading, BODY, INK)
    _coin(d, end + 24, y + 15)
    glyphs.draw(d, (end + 38, y + 2), w._("price in guilders"), SMALL, MUTED)
    y += 38
    ed = view.edition
    groups = [(names.noble(w, n), [c for c in you.hand if ed.card_noble.get(c) == n]) for n in ed.certificate_nobles]
    groups.append((w._("Jokers"), [c for c in you.hand if c == JOKER]))
    shown = [(label, sorted(cards, key=names.hand_order(ed))) for label, cards in groups if cards]
    if not shown:
        glyphs.draw(d, (MARGIN, y), w._("· empty").lstrip("· "), BODY, MUTED)
        y += 34
    for label, cards in shown:
        y = _row(d, w, ed, label, cards, y) + GAP
    if you.offered:
        y += 6
        glyphs.draw(d, (MARGIN, y), w._("Offered to you"), BODY, INK)
        y = _row(d, w, ed, w.money(sum(you.offered_prices)), you.offered, y + 34, names_on=True) + GAP
    if you.chosen is not None:
        line = _plain(w._("**Your secret choice:** {cards} — waiting for the others.",
                          cards=names.cards(w, you.chosen)))
        for part in glyphs.wrap(line, BODY, INNER, most=3):
            glyphs.draw(d, (MARGIN, y + 4), part, BODY, INK)
            y += 30
    return finish(image, y)


def _plain(s: str) -> str:
    return s.replace("**", "")


def _row(d: ImageDraw.ImageDraw, w: Words, ed: Edition, label: str, cards: list[str], y: float,
         names_on: bool = False) -> float:
    """A label, then the cards as faces, as many lines as they need; returns the bottom."""
    glyphs.draw(d, (MARGIN, y + CARD_H / 2 - 14), glyphs.fit(label, BODY, LABEL_W - 10), BODY, INK)
    per_line = max(1, int((INNER - LABEL_W + GAP) // (CARD_W + GAP)))
    for i, card in enumerate(cards):
        x = MARGIN + LABEL_W + (i % per_line) * (CARD_W + GAP)
        top = y + (i // per_line) * (CARD_H + GAP)
        _card(d, w, ed, card, x, top, names_on)
    lines = (len(cards) + per_line - 1) // per_line
    return y + lines * (CARD_H + GAP) - GAP


def _card(d: ImageDraw.ImageDraw, w: Words, ed: Edition, card: str, x: float, y: float, noble_on: bool) -> None:
    joker = card == JOKER
    d.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), radius=8, fill=LINE if joker else PANEL, outline=INK,
                        width=2)
    big = "J" if joker else str(ed.card_value[card])
    if noble_on:  # offered cards mix nobles: the noble's name (cut to fit) stands above the value
        noble = w._("Joker") if joker else names.noble(w, ed.card_noble[card])
        small = glyphs.fit(noble, SMALL, CARD_W - 8)
        glyphs.draw(d, (x + (CARD_W - glyphs.width(small, SMALL)) / 2, y + 2), small, SMALL, MUTED)
        glyphs.draw(d, (x + (CARD_W - glyphs.width(big, BODY)) / 2, y + 24), big, BODY, INK)
    else:
        glyphs.draw(d, (x + (CARD_W - glyphs.width(big, TITLE)) / 2, y + 6), big, TITLE, INK)
    price = w.number(ed.card_price[card])
    pw = glyphs.width(price, SMALL)
    left = x + (CARD_W - pw - 18) / 2
    _coin(d, left + 6, y + CARD_H - 17)
    glyphs.draw(d, (left + 16, y + CARD_H - 30), price, SMALL, INK)


def _coin(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float = 7) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=KIND_TINT["guilders"], outline=KIND_EDGE["guilders"], width=2)
    d.ellipse((cx - r / 3, cy - r / 3, cx + r / 3, cy + r / 3), fill=KIND_EDGE["guilders"])
