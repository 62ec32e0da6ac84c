"""`Words`: the sentences of one language, and how numbers and lists are written in it.

Every text passes through `w._(source, **params)` or `w.n_(singular, plural, n,
**params)`: the English source is the message id and `{name}` placeholders
are filled afterwards, so a gettext catalogue per language can translate the
text without touching the code that composes it.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import Translations

from .languages import LANGUAGES, language_of

CATALOGUES = Path(__file__).resolve().parent.parent / "locales"  # bot/locales/<lang>/LC_MESSAGES/augsburg.po


class Words:
    def __init__(self, lang: str = "en", translations: gettext.NullTranslations | None = None):
        self.lang = lang
        self._t = translations or gettext.NullTranslations()

    def _(self, text: str, /, **params: object) -> str:
        return self._t.gettext(text).format(**params) if params else self._t.gettext(text)

    def n_(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """A text that depends on a count; `{n}` is the count, written as a number of this language."""
        return self._t.ngettext(singular, plural, n).format(n=self.number(n), **params)

    def number(self, n: int) -> str:
        """1,500 / 1.500: as this language groups digits (Babel's CLDR data)."""
        return _number(n, self.lang)

    def money(self, amount: int) -> str:
        return self.n_("{n} guilder", "{n} guilders", amount)

    def prestige(self, points: int) -> str:
        """'1 prestige' / '12 prestige': a count in English, a noun with a plural in German and Italian."""
        return self.n_("{n} prestige", "{n} prestige", points)

    def join(self, items: Iterable[str]) -> str:
        return ", ".join(items)

    def both(self, items: list[str]) -> str:
        """'A', 'A and B', 'A, B and C'."""
        if len(items) <= 1:
            return "".join(items)
        return self._("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


ENGLISH = Words()


def words(locale: object = "en") -> Words:
    """The words of the language of a locale (see language_of)."""
    return _words(language_of(locale))


@cache
def _words(lang: str) -> Words:
    """A language's words, its catalogue read once (the .po itself: no compiled file to keep in step)."""
    if lang == "en":
        return ENGLISH
    with open(CATALOGUES / lang / "LC_MESSAGES" / "augsburg.po", "rb") as po:
        catalogue = read_po(po, locale=lang)
    compiled = BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    return Words(lang, Translations(fp=compiled, domain="augsburg"))


def load_languages() -> None:
    """Reads now what the languages need for the rest of the process: each catalogue, and Babel's data for
    each locale (a few thousand objects, read at the first number written). Read before the bot freezes what
    lives as long as it (bot/app/discord_bot.py), full garbage collections never walk them; read later, every
    one does (issue 44)."""
    for lang in LANGUAGES:
        _words(lang)
        format_decimal(1.5, format="#,##0.0", locale=lang)
        format_percent(0.5, locale=lang)


@dataclass(frozen=True)
class People:
    """How a front-end names the players: `name` for anyone reading, `call` to address whoever must act
    (a mention in Discord; the plain name in the terminal)."""

    name: Callable[[str], str]
    call: Callable[[str], str] | None = None

    def addressed(self, player: str) -> str:
        return (self.call or self.name)(player)

    def plain(self) -> People:
        """Everyone by name, nobody addressed (for a text that must not mention whom it names)."""
        return People(name=self.name)


@lru_cache(maxsize=4096)
def _number(n: int, lang: str) -> str:
    """Babel's formatting parses the locale's pattern at every call: a quarter of a panel's drawing went to
    it. The game's numbers are few (money, prestige, counts), so each is formatted once per language."""
    return format_decimal(n, locale=lang)
