"""The table as a picture on Discord (issue 15): the table message carries the picture of the public view,
replaced (never piled up) as the game moves, on the edits that happen anyway; /augsburg board shows it to
whoever asks, in their language; a player's own hand as a picture reaches that player alone."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import time

import pytest
from support.bot_support import ADA, BEN, STRANGER, game, long_lived, make_bot, open_and_start, service
from support.fake_discord import FakeUser, Harness
from support.interaction_routes import CALLBACK

from bot.app.config import Settings
from bot.discord_app.people import people
from bot.discord_app.pictures import Pictures
from bot.picture import hand_picture, table_picture
from bot.picture.story import story
from bot.wording import words
from engine import player_view, spectator_view

USERS = [FakeUser(ADA, "Ada"), FakeUser(BEN, "Ben", locale="it"), FakeUser(STRANGER, "Sam")]


async def harness(tmp_path, pictures: bool = True, delay: float = 0.0) -> Harness:
    bot = make_bot(tmp_path / f"bot-{pictures}.sqlite3", delay, table_pictures=pictures)
    return await Harness.create(bot, users=USERS, ignore=(long_lived,))


async def public_picture(h: Harness, lang: str = "en") -> bytes:
    """What the table picture must be now: drawn from the spectator view and the public log, nothing else."""
    record = game(h)
    w = words(lang)
    told = story(await service(h).core.store.log.moves_since(record.id, -1))
    return table_picture(spectator_view(record.state), people(w, record.table).name, w, told)


def attachments(msg) -> list[dict]:
    return msg.data.get("attachments") or []


@pytest.fixture
async def h(tmp_path):
    harness_ = await harness(tmp_path)
    yield harness_
    await harness_.close()


async def test_the_table_carries_the_public_picture_and_a_change_replaces_it(h):
    table = await open_and_start(h, players=(ADA, BEN))
    shown = h.message(table)
    (picture,) = attachments(shown)
    assert picture["filename"] == "table.png" and picture["description"].startswith("Augsburg 1520")
    assert shown.embeds[0]["image"]["url"] == picture["url"], "the embed shows the attachment"
    assert shown.attachment_bytes("table.png") == await public_picture(h)
    assert shown.embeds[0]["description"], "the text stays for screen readers and search"
    first = shown.attachment_bytes("table.png")
    await h.click(ADA, (await h.click(ADA, table, label="My hand & actions")).answer.message_id, label="Buy nothing")
    await h.click(BEN, (await h.click(BEN, table, label="My hand & actions")).answer.message_id,
                  label=words("it")._("Buy nothing"))
    await h.settle()
    shown = h.message(table)
    assert len(attachments(shown)) == 1, "replaced, not piled up"
    assert shown.attachment_bytes("table.png") == await public_picture(h) != first
    for msg in h.channel_messages.values():  # nothing else in public has a picture, least of all a hand
        assert msg.id == table or not attachments(msg)
    h.assert_no_errors()


async def test_the_picture_costs_no_request_of_its_own(tmp_path):
    """The same moves with and without pictures: as many requests to the channel (the ones Discord's global
    limit counts), every upload riding on the table's own answer or edit."""
    counts = []
    for pictures in (False, True):
        h = await harness(tmp_path, pictures, delay=3.0)  # both buys in one table edit, either way
        try:
            table = await open_and_start(h, players=(ADA, BEN))
            panels = [(await h.click(user, table, label="My hand & actions")).answer for user in (ADA, BEN)]
            for user, label, panel in ((ADA, "Buy nothing", panels[0]), (BEN, words("it")._("Buy nothing"), panels[1])):
                await h.click(user, panel.message_id, label=label, settle=False)  # the table speaks English
            await h.settle()
            counts.append(sum(r.route.startswith("/channels/") for r in h.requests))  # the table's own edits
            uploads = [r for r in h.requests if r.files]
            assert bool(uploads) == pictures and bool(attachments(h.message(table))) == pictures
            for r in uploads:
                assert [f.filename for f in r.files] == ["table.png"]
                assert r.params.get("message_id") == str(table) or r.route.endswith("/callback"), r.path
        finally:
            await h.close()
    assert counts[1] == counts[0], counts


async def test_board_shows_the_table_in_the_readers_language_and_only_to_them(h):
    await open_and_start(h, players=(ADA, BEN))
    for user, lang in ((BEN, "it"), (STRANGER, "en")):  # the table is public: anyone in the channel may look
        asked = await h.slash(user, "augsburg board")
        answer = asked.answer
        assert asked.response.kind == "defer" and answer.ephemeral
        (picture,) = attachments(h.message(answer.message_id))
        assert picture["filename"] == "table.png"
        assert h.message(answer.message_id).attachment_bytes("table.png") == await public_picture(h, lang)
    h.assert_no_errors()


async def test_a_players_hand_as_a_picture_reaches_that_player_alone(h):
    table = await open_and_start(h, players=(ADA, BEN))
    panel = (await h.click(ADA, table, label="My hand & actions")).answer
    clicked = await h.click(ADA, panel.message_id, label="My hand as a picture")
    # Answered at once with "thinking…" (a drawing waits for a worker), which the picture then replaces.
    assert clicked.response.kind == "defer" and not clicked.still_thinking
    shown = clicked.answer
    assert shown.ephemeral and shown.message_id == clicked.response.message_id
    view = player_view(game(h).state, str(ADA))
    assert h.message(shown.message_id).attachment_bytes("hand.png") == hand_picture(view, words("en"))
    typed = (await h.slash(ADA, "augsburg board", hand=True)).answer
    assert typed.ephemeral
    assert h.message(typed.message_id).attachment_bytes("hand.png") == hand_picture(view, words("en"))
    stranger = (await h.slash(STRANGER, "augsburg board", hand=True)).answer
    assert stranger.ephemeral and not attachments(h.message(stranger.message_id)) and "not playing" in stranger.content
    for msg in h.channel_messages.values():
        assert all(a["filename"] != "hand.png" for a in attachments(msg))
    h.assert_no_errors()


async def test_a_picture_discord_does_not_take_is_dropped_with_one_warning(h, caplog):
    """The "thinking…" goes out as the drawing starts; when Discord refuses it (it no longer knows the
    interaction), the drawing is dropped and nothing is sent for it: one warning line, no error."""
    table = await open_and_start(h, players=(ADA, BEN))
    panel = (await h.click(ADA, table, label="My hand & actions")).answer
    h.fail_next("POST", CALLBACK, status=404, code=10062, message="Unknown interaction")
    sent_before = len(h.requests)
    clicked = await h.click(ADA, panel.message_id, label="My hand as a picture")
    assert clicked.unanswered
    assert not [r for r in h.requests[sent_before:] if r.files], "no picture went anywhere"
    (warning,) = [r for r in caplog.records if r.levelname == "WARNING" and r.name.startswith("bot.")]
    assert "picture" in warning.getMessage() and "\n" not in warning.getMessage()
    assert h.errors == []


async def test_a_worker_process_draws_the_same_picture(h):
    """The bot draws in a worker process (PICTURE_PROCESSES, default 1); the tests' bots on a thread."""
    await open_and_start(h, players=(ADA, BEN))
    pictures = Pictures(True, processes=1)
    try:
        drawn = await pictures.table(words("de"), game(h))
        assert drawn.png == await public_picture(h, "de") and drawn.alt
        assert pictures._drawing.pool is not None, "drawn in the worker process"
    finally:
        pictures.close()


async def test_a_worker_that_dies_leaves_the_pictures_drawn_on_a_thread(h, caplog):
    """A worker killed (the out-of-memory killer, a crash) fails the drawing under way in it: that one and
    every later one is drawn on the bot's thread instead, the same picture, with one warning line."""
    await open_and_start(h, players=(ADA, BEN))
    pictures = Pictures(True, processes=1)
    try:
        first = await pictures.hand(words("en"), game(h), str(ADA))
        assert pictures._drawing.pool is not None
        (pid,) = pictures._drawing.pool.pids()
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        again = await asyncio.wait_for(pictures.hand(words("en"), game(h), str(ADA)), 60)
        assert again.png == first.png == hand_picture(player_view(game(h).state, str(ADA)), words("en"))
        assert pictures._drawing.processes == 0 and "drawing on a thread from now on" in caplog.text
        drawn = await pictures.table(words("de"), game(h))
        assert drawn is not None and drawn.png == await public_picture(h, "de")
    finally:
        pictures.close()


async def test_left_unset_the_bot_draws_its_pictures_in_a_worker_process(tmp_path):
    """PICTURE_PROCESSES not set: the table's picture comes from a worker process, not from a thread of the
    bot's, whose share of the interpreter lock slowed every answer under load (docs/benchmarks.md)."""
    unset = Settings(_env_file=None).picture_processes
    bot = make_bot(tmp_path / "bot.sqlite3", table_pictures=True, picture_processes=unset)
    h = await Harness.create(bot, users=USERS, ignore=(long_lived,))
    try:
        table = await open_and_start(h, players=(ADA, BEN))
        assert h.bot.get_cog("Augsburg").presenter.pictures._drawing.pool is not None, "drawn in a worker process"
        assert h.message(table).attachment_bytes("table.png") == await public_picture(h)
        h.assert_no_errors()
    finally:
        await h.close()


async def test_a_table_waiting_for_its_picture_draws_the_game_as_it_is_once_its_turn_comes(h):
    """Pictures are drawn at most PICTURES_PER_SECOND: a table edit waits for a drawing's turn first, holding
    no game meanwhile (at a busy time hundreds wait), and then draws the game as it is by then: the moves
    made while it waited are not drawn first as they were when it started waiting."""
    table = await open_and_start(h, players=(ADA, BEN))
    budget = h.bot.get_cog("Augsburg").presenter.pictures._budget
    budget._next = time.monotonic() + 2.0  # two seconds of drawings queued before this table's
    before = len([r for r in h.requests if r.files])
    panels = [(await h.click(user, table, label="My hand & actions")).answer for user in (ADA, BEN)]
    version = game(h).version
    await h.click(ADA, panels[0].message_id, label="Buy nothing", settle=False)
    await moved_past(h, version)  # the table's drawer now waits for its turn to draw
    await h.click(BEN, panels[1].message_id, label=words("it")._("Buy nothing"), settle=False)
    await h.settle()
    final = await public_picture(h)
    uploads = [r for r in h.requests if r.files][before:]
    assert uploads and all(r.files[0].data == final for r in uploads), "no picture of the game as it was"
    assert h.message(table).attachment_bytes("table.png") == final
    h.assert_no_errors()


async def moved_past(h, version: int) -> None:
    for _ in range(1000):
        if game(h).version > version:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the move was not made")


async def test_an_answer_does_without_the_picture_rather_than_take_a_turn_far_behind(h):
    """When many tables start at once the drawings fall behind: a table's first answer then comes without its
    picture at once, and takes no drawing's turn (it would come too late for that answer, and push back the
    tables waiting for theirs); the table's next edit adds it."""
    await open_and_start(h, players=(ADA, BEN))
    pictures = h.bot.get_cog("Augsburg").presenter.pictures
    pictures._kept.clear()  # not drawn yet
    behind = time.monotonic() + 5.0
    pictures._budget._next = behind
    record = game(h)
    started = time.monotonic()
    assert await pictures.table_soon(words("en"), record) is None
    assert time.monotonic() - started < 0.2
    assert pictures._budget._next == behind, "no turn taken"
    pictures._budget._next = time.monotonic()  # caught up: drawn at once
    assert await pictures.table_soon(words("en"), record) is not None


async def test_a_story_told_on_from_where_it_was_told_last_is_the_story_of_the_whole_log(store):
    """The table's picture tells who won each noble this round (and, at the end, where prestige came from):
    told on from the moves since the last picture (issue 44), it is what the whole log tells, at every move,
    across rounds and to the end."""
    import random

    from support.storage_helpers import new_stored_game

    from bot.picture.story import Stories
    from engine import apply
    from engine.randomplay import random_action

    record = await new_stored_game(store, channel=9, seed=4, players=3)
    rnd, stories, rounds, checked, walked = random.Random(4), Stories(), 0, 0, 0
    while record.state.phase != "game_over":
        for _ in range(rnd.randint(1, 6)):  # a few moves between two pictures
            player, action = random_action(record.state, rnd)
            result = apply(record.state, player, action)
            rounds += any(e.type == "round_started" for e in result.events)
            record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                                     result.state, events=result.events)
            if record.state.phase == "game_over":
                break
        gc.disable()  # (no collection but the two below)
        try:
            now = await stories.tell(record, lambda r, after: store.log.moves_since(r.id, after, r.version))
            if record.state.phase != "game_over" and now.won:
                # What is kept of it is let go of by a young and a middle collection, which come often: nested
                # deeper, it would reach the old generation still walked by every full collection (issue 44)
                gc.collect(0)
                gc.collect(1)
                assert not [kept for kept in stories._told.values() if gc.is_tracked(kept)]
                walked += 1
        finally:
            gc.enable()
        assert now == story(await store.log.moves_since(record.id, -1)), record.state.moves
        checked += 1
    assert rounds >= 3 and checked > 30 and walked > 10 and now.prestige
