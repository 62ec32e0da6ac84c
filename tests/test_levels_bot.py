"""Computer levels in the Discord lobby (issue 17): the host's level menu, what others are told, the lobby
message, restarts and stale menus; and a strong computer's thinking never holds up another table."""

from __future__ import annotations

import asyncio
import threading

from support.bot_support import ADA, BEN, game, long_lived, make_bot, service, use_old
from support.fake_discord import FakeUser, Harness

from bot.service import thinking


def levels_menu(h, table: int) -> dict:
    return next(c for c in h.message(table).all_components() if c.get("custom_id", "").endswith(":level"))


def seats_text(h, table: int) -> str:
    return h.message(table).embeds[0]["fields"][0]["value"]


async def test_the_host_chooses_each_computers_level_and_it_survives_a_restart(harness):
    h = harness
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    assert not any(c.get("custom_id", "").endswith(":level") for c in h.message(table).all_components())
    for _ in range(2):
        await h.click(ADA, table, label="Add computer player")
    menu = levels_menu(h, table)
    assert menu["placeholder"] == "Levels of the computer players…"
    labels = [o["label"] for o in menu["options"]]
    assert labels == [f"Computer {n}: {lv}" for n in (1, 2) for lv in ("Easy", "Normal", "Strong")]
    assert [o["value"] for o in menu["options"] if o.get("description")] == ["ai1:normal", "ai2:normal"]
    assert "2. Computer 1 · Normal" in seats_text(h, table) and "3. Computer 2 · Normal" in seats_text(h, table)

    refused = await h.select(BEN, table, menu["custom_id"], ["ai2:strong"])
    assert refused.answer.ephemeral
    assert "Only the host can choose the computer players' levels" in refused.answer.content
    assert [s.level for s in game(h).table.seats] == ["normal", "normal", "normal"]

    chosen = await h.select(ADA, table, menu["custom_id"], ["ai2:strong"])
    assert chosen.answer.kind == "update"
    assert "3. Computer 2 · Strong" in seats_text(h, table) and "2. Computer 1 · Normal" in seats_text(h, table)
    assert [o["value"] for o in levels_menu(h, table)["options"] if o.get("description")] == ["ai1:normal",
                                                                                            "ai2:strong"]

    await h.restart(make_bot(h.db_path))  # the menu on the old message still works, the levels were kept
    again = await h.select(ADA, table, menu["custom_id"], ["ai1:easy"])
    assert again.answer.kind == "update"
    assert "2. Computer 1 · Easy" in seats_text(h, table) and "3. Computer 2 · Strong" in seats_text(h, table)
    assert [(s.id, s.level) for s in game(h).table.seats[1:]] == [("ai1", "easy"), ("ai2", "strong")]
    h.assert_all_answered()
    h.assert_no_errors()


async def test_a_stale_level_menu_is_refused_politely(harness):
    h = harness
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    await h.click(ADA, table, label="Add computer player")
    old = (await h.click(ADA, table, label="Add computer player")).answer  # the lobby as a screen shows it
    old_menu = levels_menu(h, table)
    await h.click(ADA, table, label="Remove computer player")  # Computer 2 leaves; a screen still shows it
    gone = await use_old(h, ADA, old, old_menu["custom_id"], ["ai2:strong"])
    assert gone.answer.ephemeral and "no longer at the table" in gone.answer.content
    assert [s.id for s in game(h).table.seats] == [str(ADA), "ai1"]
    await h.click(BEN, table, label="Join")
    await h.click(ADA, table, label="Start game")
    late = await use_old(h, ADA, old, old_menu["custom_id"], ["ai1:strong"])
    assert late.answer.ephemeral and "already started" in late.answer.content
    assert game(h).table.seat("ai1").level == "normal"
    h.assert_all_answered()


async def test_the_lobby_in_german_names_the_levels(harness):
    h = harness
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    await h.click(ADA, table, label="Add computer player")
    lang = next(c for c in h.message(table).all_components() if c.get("custom_id", "").endswith(":lang"))
    await h.select(ADA, table, lang["custom_id"], ["de"])
    await h.select(ADA, table, levels_menu(h, table)["custom_id"], ["ai1:strong"])
    menu = levels_menu(h, table)
    assert menu["placeholder"] == "Stärke der Computerspieler…"
    assert [o["label"] for o in menu["options"]] == ["Computer 1: Leicht", "Computer 1: Normal", "Computer 1: Stark"]
    assert "2. Computer 1 · Stark" in seats_text(h, table)


async def test_a_thinking_strong_computer_does_not_hold_up_another_tables_click(tmp_path, monkeypatch):
    started, release = threading.Event(), threading.Event()
    real = thinking.decide

    def slow(*args):  # a long search: the thread it runs on is busy until the test lets it finish
        started.set()
        release.wait(10)
        return real(*args)

    monkeypatch.setattr(thinking, "decide", slow)
    users = [FakeUser(ADA, "Ada"), FakeUser(BEN, "Ben")]
    h = await Harness.create(make_bot(tmp_path / "bot.sqlite3"), users=users, ignore=(long_lived,), channels=2)
    try:
        table = (await h.slash(ADA, "augsburg new")).answer.message_id
        await h.click(ADA, table, label="Add computer player")
        await h.select(ADA, table, levels_menu(h, table)["custom_id"], ["ai1:strong"])
        start = await h.click(ADA, table, label="Start game", settle=False)  # the strong computer starts thinking
        await h.wait_answered(start)
        for _ in range(500):
            if started.is_set():
                break
            await asyncio.sleep(0.01)
        assert started.is_set()
        other = h.channel_ids[1]
        opened = await h.slash(BEN, "augsburg new", channel_id=other, settle=False)
        await h.wait_answered(opened, timeout=30)
        assert not release.is_set()  # answered while the strong computer was still thinking
        assert not opened.answer.ephemeral and service(h).games.cached(other).table.host == str(BEN)
        mine = await h.click(ADA, table, label="My hand & actions", settle=False)  # its own table answers too
        await h.wait_answered(mine, timeout=30)
        assert "Your money" in mine.answer.content
        release.set()
        await h.settle(timeout=10)
        assert game(h).state.moves == 1 and game(h).status == "active"  # the strong computer has bought
        headings = [f["name"] for f in h.message(table).embeds[0]["fields"]]
        assert any(n.startswith("Computer 1 — ") and n.endswith(" (Strong)") for n in headings), headings
        h.assert_all_answered()
        h.assert_no_errors()
    finally:
        release.set()
        await h.close()


async def test_the_settings_reach_the_workers_and_unloading_shuts_them_down(tmp_path):
    bot = make_bot(tmp_path / "bot.sqlite3", computer_workers=2, computer_think_seconds=0.3)
    h = await Harness.create(bot, users=[FakeUser(ADA, "Ada")], ignore=(long_lived,))
    try:
        thinkers = service(h).decisions.thinkers
        assert (thinkers.workers, thinkers.think_seconds) == (2, 0.3)
        await h.bot.unload_extension("bot.app.extension")
        assert thinkers._closed
        await h.bot.load_extension("bot.app.extension")
        assert not service(h).decisions.thinkers._closed
    finally:
        await h.close()
