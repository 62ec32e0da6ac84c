"""German, English and Italian (issue 14): complete catalogues, numbers and plurals per language, and each
reader's own language at one table."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from support.bot_support import ADA, BEN, game, long_lived, make_bot, service
from support.fake_discord import FakeUser, Harness

from bot.discord_app.panels import panel
from bot.service.showing import decision_of
from bot.wording import LANGUAGES, terminal, words
from bot.wording.languages import language_of
from bot.wording.words import CATALOGUES

PLACEHOLDER = re.compile(r"\{(\w*)\}")


def template_ids() -> set:
    with open(CATALOGUES / "augsburg.pot", "rb") as pot:
        return {m.id for m in read_po(pot) if m.id}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_message_is_translated_with_the_same_placeholders(lang):
    with open(CATALOGUES / lang / "LC_MESSAGES" / "augsburg.po", "rb") as po:
        catalogue = read_po(po, locale=lang)
    found = {m.id: m for m in catalogue if m.id}
    missing = sorted(map(str, template_ids() - set(found)))
    assert not missing, f"not in the {lang} catalogue: {missing[:5]}"
    for message in found.values():
        assert not message.fuzzy, f"{lang}: unchecked translation of {message.id!r}"
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(texts), f"{lang}: no translation of {ids[0]!r}"
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for text in texts:
            got = set(PLACEHOLDER.findall(text))
            assert got <= wanted and wanted - got <= {"n"}, f"{lang}: {ids[0]!r} -> {text!r}"


def test_numbers_and_plurals_follow_each_language():
    assert words("en").money(1500) == "1,500 guilders" and words("en").money(1) == "1 guilder"
    for lang in ("de", "it"):
        w = words(lang)
        assert "1.500" in w.money(1500) and "guilder" not in w.money(1500)
        one = w.n_("{who} bought {n} card for {money}.", "{who} bought {n} cards for {money}.", 1, who="X",
                   money="Y")
        two = w.n_("{who} bought {n} card for {money}.", "{who} bought {n} cards for {money}.", 2, who="X",
                   money="Y")
        assert one != two and "bought" not in one


def test_a_locale_names_its_language_and_anything_else_is_english():
    assert [language_of(x) for x in ("de", "de-DE", "it", "en-GB", "fr", "de_DE.UTF-8", None)] == [
        "de", "de", "it", "en", "en", "de", "en"]


async def test_each_reader_reads_their_own_language_at_an_italian_table(tmp_path):
    users = [FakeUser(ADA, "Ada", locale="de"), FakeUser(BEN, "Ben", locale="en-US")]
    h = await Harness.create(make_bot(tmp_path / "bot.sqlite3"), users=users, ignore=(long_lived,), locale="it")
    try:
        await h.settle()
        table = (await h.slash(ADA, "augsburg new")).answer.message_id
        italian = words("it")
        await h.click(BEN, table, label=italian._("Join"))
        await h.click(ADA, table, label=italian._("Start game"))  # the server speaks Italian: so does the table
        assert h.message(table).components and italian._("My hand & actions") in h.message(table).labels()
        for user, lang in ((ADA, "de"), (BEN, "en")):
            shown = (await h.click(user, table, label=italian._("My hand & actions"))).answer
            expected = panel(words(lang), game(h), decision_of(game(h), str(user)))[0]
            assert shown.content == expected, f"{lang} panel expected"
        h.assert_all_answered()
        h.assert_no_errors()
    finally:
        await h.close()


def test_prestige_is_counted_with_each_languages_plural():
    assert [words("en").prestige(n) for n in (1, 2)] == ["1 prestige", "2 prestige"]
    assert [words("de").prestige(n) for n in (1, 2)] == ["1 Prestigepunkt", "2 Prestigepunkte"]
    assert [words("it").prestige(n) for n in (1, 1500)] == ["1 punto prestigio", "1.500 punti prestigio"]


def test_the_terminal_standings_are_in_the_players_language():
    shown = terminal.standings(words("de"), [(1, "Ada", 61, True), (2, "Computer 1", 1, False)])
    assert "=== Endstand ===" in shown and "1 Prestigepunkt" in shown and "61 Prestigepunkte" in shown


async def test_cards_are_typed_by_their_name_in_the_typists_language_or_in_english(tmp_path):
    users = [FakeUser(ADA, "Ada", locale="it"), FakeUser(BEN, "Ben", locale="de")]
    h = await Harness.create(make_bot(tmp_path / "bot.sqlite3"), users=users, ignore=(long_lived,))
    try:
        await h.settle()
        table = (await h.slash(ADA, "augsburg new")).answer.message_id
        await h.click(BEN, table, label="Join")
        await h.click(ADA, table, label="Start game")
        record = game(h)
        state = record.state.model_copy(deep=True)
        ada = next(p for p in state.players if p.id == str(ADA))
        ada.offered, ada.money = ("philipp-3", "leo-12", "joker"), 5000
        service(h).core._games.put(dataclasses.replace(record, state=state))
        hand = list(ada.hand)
        bought = await h.slash(ADA, "augsburg buy", cards="Philippe 3, leo 12, JOKER")  # Italian, English
        assert "✅" in bought.answer.content and "Jolly" in bought.answer.content, bought.answer.content
        nothing = await h.slash(BEN, "augsburg buy", cards="nichts")  # German for 'nothing'
        assert "✅" in nothing.answer.content, nothing.answer.content
        assert sorted(next(p for p in game(h).state.players if p.id == str(ADA)).hand) == sorted(
            [*hand, "philipp-3", "leo-12", "joker"])  # the purchases are revealed together
        h.assert_no_errors()
    finally:
        await h.close()


_GROWTH = """
import gc, sys
from bot.wording import LANGUAGES, words
from bot.wording.records import _percent
from bot.wording.words import load_languages
if sys.argv[1] == "load":
    load_languages()
gc.collect()
gc.freeze()  # (as the bot does at its setup)
for lang in LANGUAGES:
    w = words(lang)
    w._("Games finished: {finished} · left: {left}", finished=1200, left=3)
    w.number(1234)
    _percent(w, 0.25)
gc.collect()
print(len(gc.get_objects()))
"""


def test_what_the_languages_need_is_read_at_once_before_the_freeze_not_at_the_first_number():
    """Issue 44: read before the freeze, the catalogues and Babel's data leave no object for full collections to
    walk; read at the first number written (as without), thousands. Each in a fresh interpreter."""
    def left(how: str) -> int:
        done = subprocess.run([sys.executable, "-c", _GROWTH, how], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).resolve().parent.parent)
        return int(done.stdout)

    read_first, read_late = left("load"), left("late")
    assert read_late - read_first > 2000, (read_first, read_late)
    assert read_first < 100, read_first  # what the writing itself keeps (caches of a few entries)
