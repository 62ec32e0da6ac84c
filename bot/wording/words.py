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


class Words:
    def __init__(self, lang: str = "en", translations: gettext.NullTranslations | None = None):
        self.lang = lang
        self._t = translations or gettext.NullTranslations()

    def _(self, text: str, /, **params) -> str:
        return self._t.gettext(text).format(**params) if params else self._t.gettext(text)

    def n_(self, singular: str, plural: str, n: int, /, **params) -> str:
        """A text that depends on a count; `{n}` is the count, written as a number of this language."""
        return self._t.ngettext(singular, plural, n).format(n=self.number(n), **params)

    def number(self, n: int) -> str:
        return f"{n:,}"

    def money(self, amount: int) -> str:
        return self.n_("{n} guilder", "{n} guilders", amount)

    def join(self, items: Iterable[str]) -> str:
        return ", ".join(items)

    def both(self, items: list[str]) -> str:
        """'A', 'A and B', 'A, B and C'."""
        if len(items) <= 1:
            return "".join(items)
        return self._("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


ENGLISH = Words()


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
