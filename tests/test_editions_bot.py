"""Editions at the table (issue 30): the host picks one in the lobby, the table and the rules name it, a game
whose edition file went away is explained and kept, and `augsburg play --edition` does the same in the terminal."""

from __future__ import annotations

import asyncio
import io
import re
import shutil
from pathlib import Path

import pytest
from support.bot_support import ADA, BEN, game, long_lived, make_bot
from support.fake_discord import FakeUser, Harness

from bot.terminal.game import run
from bot.wording import ENGLISH
from engine.editions import Library, read_file

TEST_BOX = Path(__file__).resolve().parent / "editions" / "test-box.toml"


@pytest.fixture
async def boxed(tmp_path):
    """A bot whose operator added the test box (EDITIONS_DIR) to the shipped edition."""
    folder = tmp_path / "editions"
    folder.mkdir()
    shutil.copy(TEST_BOX, folder / "test-box.toml")
    users = [FakeUser(ADA, "Ada"), FakeUser(BEN, "Ben")]
    h = await Harness.create(make_bot(tmp_path / "bot.sqlite3", editions_dir=str(folder)), users=users,
                             ignore=(long_lived,))
    h.db_path, h.folder = tmp_path / "bot.sqlite3", folder
    yield h
    await h.close()


def edition_menu(h, message: int) -> dict | None:
    return next((c for c in h.message(message).all_components() if c.get("custom_id", "").endswith(":ed")), None)


def footer(h, message: int) -> str:
    return (h.message(message).embeds[0].get("footer") or {}).get("text", "")


async def test_the_host_picks_the_edition_and_the_table_and_the_rules_name_it(boxed):
    h = boxed
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    menu = edition_menu(h, table)
    assert [(o["label"], o["value"], o.get("default", False)) for o in menu["options"]] == [
        ("Rulebook + estimates (v1)", "estimates-1", True), ("Test box", "test-box", False)]
    assert menu["placeholder"] == "Edition of the game (its components)…"
    assert footer(h, table) == "Edition: Rulebook + estimates (v1)"

    refused = await h.select(BEN, table, menu["custom_id"], ["test-box"])
    assert refused.answer.ephemeral and "Only the host can choose the edition" in refused.answer.content
    chosen = await h.select(ADA, table, menu["custom_id"], ["test-box"])
    assert chosen.answer.kind == "update" and footer(h, table) == "Edition: Test box"
    assert [o["value"] for o in edition_menu(h, table)["options"] if o.get("default")] == ["test-box"]

    await h.click(BEN, table, label="Join")
    await h.click(ADA, table, label="Start game")
    record = game(h)
    assert record.state.edition.id == "test-box" and record.table.edition == record.state.edition.ref
    assert footer(h, table) == "Edition: Test box"
    rules = (await h.slash(BEN, "augsburg rules", topic="round end")).answer
    assert rules.ephemeral and rules.content.endswith("*Edition: Test box*")
    everything = (await h.slash(BEN, "augsburg rules")).answer
    assert everything.embeds[0]["footer"]["text"] == "Edition: Test box"
    h.assert_all_answered()
    h.assert_no_errors()


async def test_with_one_edition_the_lobby_asks_nothing_and_names_it(harness):
    h = harness
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    assert edition_menu(h, table) is None and footer(h, table) == "Edition: Rulebook + estimates (v1)"
    rules = (await h.slash(BEN, "augsburg rules", topic="limits")).answer
    assert "stops at 25" in rules.content and rules.content.endswith("*Edition: Rulebook + estimates (v1)*")


async def test_a_game_whose_edition_file_changed_is_explained_and_kept(boxed):
    h = boxed
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    await h.select(ADA, table, edition_menu(h, table)["custom_id"], ["test-box"])
    await h.click(BEN, table, label="Join")
    await h.click(ADA, table, label="Start game")
    before = game(h).state
    path = h.folder / "test-box.toml"
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace("coat = [4, 3, 3, 2, 1]", "coat = [5, 3, 3, 2, 1]"), encoding="utf-8")
    await h.restart(make_bot(h.db_path, editions_dir=str(h.folder)))

    for command in ("augsburg status", "augsburg hand", "augsburg new"):
        said = (await h.slash(BEN, command)).answer
        assert said.ephemeral and "was played with the edition “test-box”" in said.content, (command, said.content)
        assert "put that edition's file back (EDITIONS_DIR)" in said.content

    path.write_text(original, encoding="utf-8")
    await h.restart(make_bot(h.db_path, editions_dir=str(h.folder)))
    status = (await h.slash(BEN, "augsburg status")).answer
    assert status.embeds and footer(h, table) == "Edition: Test box" and game(h).state == before
    h.assert_all_answered()


def test_the_terminal_plays_an_edition_file_and_names_it(tmp_path):
    out = io.StringIO()
    code = asyncio.run(run(str(tmp_path / "t.sqlite3"), 1, False, True, 5, stdin=io.StringIO("\n1\n" * 400),
                           stdout=out, w=ENGLISH, edition=str(TEST_BOX)))
    text = out.getvalue()
    assert code == 0 and "Edition: Test box" in text
    box = read_file(TEST_BOX)
    priced = re.findall(r"\b(Philipp|Louise|Leo|Maria) (\d+) \((\d+) guilders\)", text)
    assert len(priced) > 10 and all(box.card_price[f"{n.lower()}-{v}"] == int(p) for n, v, p in priced)
    assert any(v in ("4", "8", "12") for _, v, _ in priced)  # values this box prices otherwise than estimates-1


def test_the_terminal_names_the_editions_it_has_when_asked_for_another(tmp_path):
    out = io.StringIO()
    library = Library([read_file(TEST_BOX)])
    code = asyncio.run(run(str(tmp_path / "t.sqlite3"), 1, False, True, 5, stdin=io.StringIO(""), stdout=out,
                           w=ENGLISH, edition="nope", library=library))
    assert code == 2
    assert out.getvalue().strip() == "There is no edition “nope” here. The editions here: estimates-1, test-box."
    broken = tmp_path / "broken.toml"
    broken.write_text(TEST_BOX.read_text(encoding="utf-8").replace("cathedral = 45", "cathedral = 20"))
    out = io.StringIO()
    code = asyncio.run(run(str(tmp_path / "t.sqlite3"), 1, False, True, 5, stdin=io.StringIO(""), stdout=out,
                           w=ENGLISH, edition=str(broken)))
    assert code == 2 and re.search(r"cannot be used: broken.toml: line \d+ \(limits\)", out.getvalue())
