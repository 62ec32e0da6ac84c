"""Slash commands in the reader's language: German and Italian clients see /augsburg's names, options,
descriptions and choices in their own words.

discord.py wraps every string of the command tree in `locale_str` and, when it syncs, asks the tree's
Translator for each one in each Discord locale. The answers come from a catalogue of its own
(bot/locales/<lang>/LC_MESSAGES/commands.po), kept apart from the game's sentences because its names obey
Discord's rules (1-32 lowercase letters, no spaces) and are looked up by kind: a word can be a command's
name and a choice's at once. The template is made from the tree itself:
`python -m bot.discord_app.command_words` writes bot/locales/commands.pot.
"""

from __future__ import annotations

import asyncio
from functools import cache

import discord
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import TranslationContextTypes as Context

from ..wording.languages import language_of
from ..wording.words import CATALOGUES

DOMAIN = "commands"
KIND = {  # the catalogue's msgctxt: what a string is, so translators know its rules
    Where.group_name: "name", Where.command_name: "name", Where.parameter_name: "name",
    Where.group_description: "description", Where.command_description: "description",
    Where.parameter_description: "description", Where.choice_name: "choice",
}


class CommandWords(app_commands.Translator):
    """The tree's translator: None (Discord shows the English source) for English and any other locale."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: Context) -> str | None:
        lang = language_of(locale)
        if lang == "en" or locale.value != lang:  # 'de' and 'it' only: no variants Discord does not have
            return None
        return catalogue(lang).get((KIND.get(context.location), string.message)) or None


@cache
def catalogue(lang: str) -> dict[tuple[str | None, str], str]:
    """(kind, English) → translation, read once from the language's commands.po."""
    path = CATALOGUES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return {}
    with open(path, "rb") as po:
        return {(m.context, m.id): m.string for m in read_po(po, locale=lang)
                if isinstance(m.id, str) and isinstance(m.string, str) and m.id and m.string}  # (no plurals here)


class _Recorder(app_commands.Translator):
    def __init__(self) -> None:
        self.found: dict[tuple[str, str], None] = {}  # ordered, no repeats

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context: Context) -> None:
        self.found.setdefault((KIND[context.location], string.message))
        return None


async def tree_strings(group: app_commands.Group) -> list[tuple[str, str]]:
    """Every (kind, English text) discord.py would ask a translator for when it syncs `group`."""
    recorder = _Recorder()
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    await group.get_translated_payload(tree, recorder)
    return list(recorder.found)


def augsburg_group() -> app_commands.Group:
    """The /augsburg group as the cog defines it (its instance is not set up: nothing is connected)."""
    from .cog import Augsburg

    group = Augsburg.__new__(Augsburg).__cog_app_commands_group__
    assert group is not None, "the cog is the /augsburg group"
    return group


def template(strings: list[tuple[str, str]]) -> Catalog:
    pot = Catalog(project="augsburg-bot", domain=DOMAIN)
    for kind, text in strings:
        pot.add(text, context=kind)
    return pot


def main() -> None:
    strings = asyncio.run(tree_strings(augsburg_group()))
    with open(CATALOGUES / f"{DOMAIN}.pot", "wb") as out:
        write_po(out, template(strings), omit_header=False, sort_output=False)
    print(f"{len(strings)} strings written to {CATALOGUES / f'{DOMAIN}.pot'}")


if __name__ == "__main__":
    main()
