"""Slash commands in German and Italian (issue 14): every name, option, description and choice of /augsburg
is translated, within Discord's limits, synced to Discord, and named the same way in the game's own texts."""

from __future__ import annotations

import re

import discord
import pytest
from babel.messages.pofile import read_po
from discord import app_commands
from support.bot_support import long_lived, make_bot
from support.command_limits import check_commands
from support.fake_discord import Harness

from bot.discord_app.command_words import CommandWords, augsburg_group, catalogue, tree_strings
from bot.wording import LANGUAGES
from bot.wording.words import CATALOGUES

OTHER = [lang for lang in LANGUAGES if lang != "en"]
NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule for chat-input names, lowercase where letters have a case
MENTION = re.compile(r"/augsburg ([^\s`]+)(?: ([^\s`]+):)?")


async def translated_payload() -> dict:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    return await augsburg_group().get_translated_payload(tree, CommandWords())


def template() -> set[tuple[str, str]]:
    with open(CATALOGUES / "commands.pot", "rb") as pot:
        return {(m.context, m.id) for m in read_po(pot) if m.id}


async def test_the_commands_template_is_made_from_the_command_tree():
    strings = set(await tree_strings(augsburg_group()))
    assert ("name", "bid") in strings and ("choice", "Round End") in strings
    assert template() == strings, "run `python -m bot.discord_app.command_words`, then update the catalogues"


@pytest.mark.parametrize("lang", OTHER)
def test_every_command_string_is_translated(lang):
    missing = sorted(template() - set(catalogue(lang)))
    assert not missing, f"not translated into {lang}: {missing[:5]}"


def walk(node: dict, path=()):
    yield path, node
    for option in node.get("options") or []:
        yield from walk(option, (*path, option["name"]))


async def test_localised_commands_keep_to_discords_limits():
    payload = await translated_payload()
    check_commands([payload])  # what the fake Discord (like Discord) refuses: lengths, locales, unique names
    for path, node in walk(payload):
        for lang in OTHER:
            name = node["name_localizations"][lang]
            assert NAME.fullmatch(name) and name == name.lower(), (path, lang, name)
            assert 1 <= len(node["description_localizations"][lang]) <= 100, (path, lang)
            for choice in node.get("choices") or []:
                assert 1 <= len(choice["name_localizations"][lang]) <= 100
        siblings = node.get("options") or []
        for lang in OTHER:  # two subcommands or options may not share a name in any language
            named = [o["name_localizations"][lang] for o in siblings]
            assert len(named) == len(set(named)), (path, lang, named)


async def test_german_and_italian_clients_get_their_words_and_others_get_english():
    payload = await translated_payload()
    bid = next(o for o in payload["options"] if o["name"] == "bid")
    assert bid["name_localizations"] == {"de": "bieten", "it": "rilancia"}
    assert bid["description_localizations"]["de"].startswith("Erhöhen")
    rules = next(o for o in payload["options"] if o["name"] == "rules")["options"][0]
    overview = next(c for c in rules["choices"] if c["value"] == "overview")
    assert overview["name"] == "Overview" and overview["name_localizations"] == {"de": "Überblick", "it": "Panoramica"}


async def test_the_bot_syncs_the_localised_commands(tmp_path):
    h = await Harness.create(make_bot(tmp_path / "bot.sqlite3"), ignore=(long_lived,))
    try:
        (synced,) = h.commands[None]
        new = next(o for o in synced["options"] if o["name"] == "new")
        assert new["name_localizations"] == {"de": "neu", "it": "nuova"}
    finally:
        await h.close()


@pytest.mark.parametrize("lang", OTHER)
def test_the_game_texts_name_the_commands_as_the_reader_sees_them(lang):
    """'`/augsburg bieten anzahl:`' in German help: the command and option exist under those names in German."""
    english_of: dict[str, str] = {}
    with open(CATALOGUES / lang / "LC_MESSAGES" / "augsburg.po", "rb") as po:
        texts = [m.string for m in read_po(po, locale=lang) if m.id]
    names = {en: tr for (kind, en), tr in catalogue(lang).items() if kind == "name"}
    for en, tr in names.items():
        english_of.setdefault(tr, en)
    tree = {o["name"]: {p["name"] for p in o.get("options") or []} for o in augsburg_payload()}
    found = 0
    for text in texts:
        for part in text if isinstance(text, tuple) else (text,):
            for command, option in MENTION.findall(part):
                found += 1
                english = english_of.get(command)
                assert english in tree, f"{lang}: no command /augsburg {command} ({part[:60]!r})"
                assert not option or english_of.get(option) in tree[english], f"{lang}: {command} has no {option}:"
    assert found >= 30


def augsburg_payload() -> list[dict]:
    return augsburg_group().to_dict(app_commands.CommandTree(discord.Client(intents=discord.Intents.none())))[
        "options"]
