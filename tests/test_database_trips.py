"""Under load each trip to the database waits for turns of the bot's busy event loop (issue 44: at 5,000 live
games on PostgreSQL, the kinds of interaction that made two trips before their first answer had twice the
p99 of those that made one). A panel asks memory first (no trip, and no turn of the loop), and makes the
trips memory cannot answer at once; a page of the log of the channel's open
game reads the game from memory."""

from __future__ import annotations

import asyncio
import random

from support.bot_support import ADA, BEN, CLEO, due_people, open_and_start, service, take_a_decision


async def test_a_panel_reads_what_happened_and_its_notes_at_once(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    settings, games = service(h).settings, service(h).games
    started = {"notes": asyncio.Event(), "moves": asyncio.Event()}
    overlapped: list[bool] = []

    def meeting(name: str, other: str, read):
        async def trip(*args, **kwargs):
            started[name].set()
            try:  # the other trip starts while this one is under way (made one after the other, it never does)
                await asyncio.wait_for(started[other].wait(), 1.0)
                overlapped.append(True)
            except TimeoutError:
                overlapped.append(False)
            return await read(*args, **kwargs)
        return trip

    settings.take_dm_notice = meeting("notes", "moves", settings.take_dm_notice)
    games.since_last_move = meeting("moves", "notes", games.since_last_move)
    games.kept_since_last_move = lambda record, player: None  # as after a restart: memory holds no moves yet
    panel = await h.click(ADA, table, label="My hand & actions")
    assert panel.answer.ephemeral and "Your money" in panel.answer.content
    assert overlapped == [True, True], "the panel's two trips to the database were made one after the other"
    h.assert_all_answered()
    h.assert_no_errors()


async def test_a_panel_memory_answers_asks_the_database_nothing_and_shows_the_same(harness):
    """The second panel within a minute: memory knows there is no failed DM to tell of and holds the moves
    since the player's last decision, so neither read is asked for (nor waits for a turn of the loop), and
    the panel is the one the database would give."""
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    rnd = random.Random(4)
    for _ in range(6):
        await take_a_decision(h, rnd.choice(due_people(h)), table, rnd)
    settings, games = service(h).settings, service(h).games
    first = await h.click(ADA, table, label="My hand & actions")  # reads the notes: none, known for a minute
    asked: list[str] = []
    take, since = settings.take_dm_notice, games.since_last_move

    async def taken(user):
        asked.append("notes")
        return await take(user)

    async def read(record, player):
        asked.append("moves")
        return await since(record, player)

    settings.take_dm_notice, games.since_last_move = taken, read
    again = await h.click(ADA, table, label="My hand & actions")
    assert asked == [], "a panel that memory answers asked for a read"
    assert again.answer.content == first.answer.content and again.answer.embeds == first.answer.embeds
    games.kept_since_last_move = lambda record, player: None  # memory without the moves: read, the same panel
    third = await h.click(ADA, table, label="My hand & actions")
    assert asked == ["moves"] and third.answer.embeds == first.answer.embeds
    h.assert_all_answered()
    h.assert_no_errors()


async def test_a_log_page_of_the_open_game_reads_the_game_from_memory(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    rnd = random.Random(8)
    for _ in range(40):
        if not due_people(h):
            break
        await take_a_decision(h, rnd.choice(due_people(h)), table, rnd)
    first = await h.slash(CLEO, "augsburg log")
    page, pages = [int(x) for x in first.answer.content.split("page ")[1].split(")")[0].split(" of ")]
    assert page == pages >= 2
    games, loads = service(h).games, []
    load = games.game

    async def counted(game_id: int):
        loads.append(game_id)
        return await load(game_id)

    games.game = counted
    earlier = await h.click(CLEO, first.answer.message_id, label="◀ Earlier")
    assert f"page {pages - 1} of {pages}" in earlier.answer.content
    assert not loads, "a page of the channel's open game read the game from the database"
    h.assert_all_answered()
    h.assert_no_errors()
