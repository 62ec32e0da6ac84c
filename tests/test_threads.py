"""A table in a thread of its own (issue 29, point 3): `/augsburg new thread:` opens the table in a new
public thread of the channel, so one channel holds several games; a server setting makes it the default.
The game keys by the thread as any game by its channel; an archived thread is unarchived when a deadline
or a move needs it, a deleted one ends its game as a deleted channel does. Through the fake Discord, whose
threads behave as Discord's (tests/support/threads.py), on both storage backends."""

from __future__ import annotations

import random

import discord
import pytest
from support.bot_support import (
    ADA,
    BEN,
    CLEO,
    clocked_harness,
    make_bot,
    pass_time,
    run,
    service,
    take_a_decision,
)
from support.fake_discord import TOKEN_LIFETIME, FakeUser

from bot.discord_app.threads import ARCHIVE_MINUTES

MOD = 1010  # may manage the server
THREADS = "/channels/{channel_id}/threads"
UNARCHIVE = "/channels/{channel_id}"
DAY = 24 * 3600


def bot(path, clock):
    return make_bot(path, clock=clock)


@pytest.fixture
async def h(database):
    harness = await clocked_harness(database, bot, channels=2)
    harness.add_user(FakeUser(MOD, "Mo", admin=True))
    yield harness
    await harness.close()


async def restart(h) -> None:
    await h.detach()
    await h.attach(bot(h.db_path, h.clock))


async def new_in_thread(h, user: int, channel: int | None = None, **options) -> tuple[int, int]:
    """`/augsburg new` in the channel, opening a thread: (the thread, the table message in it)."""
    before = set(h.threads)
    opened = await h.slash(user, "augsburg new", channel_id=channel, **options)
    (thread,) = set(h.threads) - before
    link = opened.answer
    assert not link.ephemeral and f"<#{thread}>" in link.content and not link.embeds
    assert h.message(link.message_id).channel_id == (channel or h.channel_id)
    assert h.message(link.message_id).allowed_mentions == {"parse": []}  # names the host, pings nobody
    (table,) = [m.id for m in h.messages_in(thread).values() if m.embeds]
    return thread, table


async def game_in(h, channel: int):
    return await service(h).games.current(channel)


async def due_in(h, thread: int) -> list[int]:
    """Who must decide now themselves in the game of `thread`, in seating order."""
    from bot.service.turns import people_due
    from engine import to_act

    record = await game_in(h, thread)
    due = people_due(record.state, record.table) if record is not None and record.state else set()
    return [int(p) for p in to_act(record.state) if p in due] if due else []


async def start(h, table: int, host: int, guest: int | None) -> None:
    if guest is None:
        await h.click(host, table, label="Add computer player")
    else:
        await h.click(guest, table, label="Join")
    started = await h.click(host, table, label="Start game")
    assert "round 1 of" in started.answer.embeds[0]["title"]


def shows(h, table: int, record) -> bool:
    """Whether the table message shows the game as it is now (its round and the moves in its log)."""
    from bot.discord_app.people import people
    from bot.wording import ENGLISH, phases
    from engine import spectator_view

    status = phases.status(ENGLISH, spectator_view(record.state), people(ENGLISH, record.table))
    return h.message(table).embeds[0]["description"] == status


async def test_two_games_in_two_threads_of_one_channel_are_played_at_once(h):
    first, table_one = await new_in_thread(h, ADA, thread="yes")
    second, table_two = await new_in_thread(h, CLEO, thread="yes")
    for thread, host in ((first, "Ada"), (second, "Cleo")):
        made = h.threads[thread]
        assert made["parent_id"] == h.channel_id and made["name"] == f"Augsburg 1520 — {host}"
        assert made["minutes"] == ARCHIVE_MINUTES == 10080  # the longest Discord allows
        assert h.thread_payload(thread)["type"] == 11
    assert len(h.requests_to("POST", THREADS)) == 2
    await start(h, table_one, ADA, BEN)
    await start(h, table_two, CLEO, None)
    one, two = await game_in(h, first), await game_in(h, second)
    assert one.id != two.id and (one.channel_id, two.channel_id) == (first, second)
    assert one.guild_id == two.guild_id == h.guild_id and (await game_in(h, h.channel_id)) is None
    rnd = random.Random(5)
    for _ in range(12):  # decisions in both games, in turn, each from its own thread
        for thread, table in ((first, table_one), (second, table_two)):
            due = await due_in(h, thread)
            if due:
                await take_a_decision(h, due[0], table, rnd)
    one, two = [await service(h).games.game(r.id) for r in (one, two)]  # the one with a computer may be over
    assert one.state.moves > 3 and two.state.moves > 3
    assert shows(h, table_one, one) and shows(h, table_two, two)
    pings = [m for t in (first, second) for m in h.posted_in(t).values() if "your move" in m.content.lower()]
    assert pings and all(m.channel_id in (first, second) for m in pings)
    if two.status == "finished":  # its standings, in its thread
        assert [m for m in h.messages_in(second).values() if "final standings" in m.content]
    assert [m for m in h.channel_messages.values() if m.embeds] == []  # the channel holds the links only
    h.assert_all_answered()
    h.assert_no_errors()


async def test_the_server_default_is_set_by_a_manager_and_kept_across_a_restart(h):
    refused = await h.slash(ADA, "augsburg new", thread="always")
    assert refused.answer.ephemeral and "manage this server" in refused.answer.content
    assert not h.threads and not await service(h).settings.threads_default(h.guild_id)
    assert await game_in(h, h.channel_id) is None
    await new_in_thread(h, MOD, thread="always")
    assert await service(h).settings.threads_default(h.guild_id)
    await restart(h)
    await new_in_thread(h, BEN)  # no option: the server's default
    here = await h.slash(CLEO, "augsburg new", thread="no")
    assert here.answer.embeds and h.message(here.answer.message_id).channel_id == h.channel_id
    assert len(h.threads) == 2 and (await game_in(h, h.channel_id)) is not None
    await h.slash(MOD, "augsburg new", thread="never")  # the channel is busy now: the setting changes all the same
    assert not await service(h).settings.threads_default(h.guild_id) and len(h.threads) == 2
    h.problems.clear()


async def test_in_a_thread_the_table_opens_in_it(h):
    thread, table = await new_in_thread(h, ADA, thread="yes")
    ask = await h.slash(ADA, "augsburg cancel", channel_id=thread)
    await h.click(ADA, ask.answer.message_id, label="Yes, cancel the game")
    again = await h.slash(BEN, "augsburg new", thread="yes", channel_id=thread)
    assert again.answer.embeds and h.message(again.answer.message_id).channel_id == thread
    assert len(h.threads) == 1 and (await game_in(h, thread)).table.host == str(BEN)
    assert (await game_in(h, thread)).parent_id == h.channel_id  # the thread's channel: from the interaction


async def test_a_table_in_a_thread_needs_create_public_threads_and_send_messages_in_threads(h):
    h.deny(h.channel_id, "create_public_threads")
    refused = await h.slash(ADA, "augsburg new", thread="yes")
    assert refused.answer.ephemeral and "**Create Public Threads**" in refused.answer.content
    assert "Send Messages in Threads" not in refused.answer.content
    h.denied.clear()
    h.deny(h.channel_id, "send_messages_in_threads")
    refused = await h.slash(ADA, "augsburg new", thread="yes")
    assert refused.answer.ephemeral and "**Send Messages in Threads**" in refused.answer.content
    assert not h.threads and not h.requests_to("POST", THREADS) and (await game_in(h, h.channel_id)) is None
    opened = await h.slash(ADA, "augsburg new", thread="no")  # in the channel itself it needs neither
    assert opened.answer.embeds and not opened.answer.ephemeral
    h.assert_no_errors()


async def test_an_archived_thread_is_unarchived_when_a_move_needs_it(h):
    thread, table = await new_in_thread(h, ADA, thread="yes")
    await start(h, table, ADA, BEN)
    h.archive_thread(thread)
    before = (await game_in(h, thread)).state.moves
    await take_a_decision(h, (await due_in(h, thread))[0], table, random.Random(1))
    record = await game_in(h, thread)
    assert record.state.moves > before and not h.threads[thread]["archived"]
    assert [r.json for r in h.requests_to("PATCH", UNARCHIVE)] == [{"archived": False}]
    assert shows(h, table, record)
    assert h.problems and all("50083" in p for p in h.problems)  # refused once, then unarchived
    h.problems.clear()
    h.assert_no_errors()


async def test_an_archived_thread_is_unarchived_when_a_deadline_needs_it(h):
    thread, table = await new_in_thread(h, ADA, thread="yes")
    await start(h, table, ADA, BEN)
    h.advance(TOKEN_LIFETIME + 60)  # no player's token can post for the bot: its own messages it is
    h.archive_thread(thread)
    before = (await game_in(h, thread)).state.moves
    await pass_time(h, 2 * DAY)  # the clock runs out: the computer decides for them; pings, table
    record = await game_in(h, thread)
    assert record.state.moves > before and any(seat.missed for seat in record.table.seats)
    assert not h.threads[thread]["archived"] and shows(h, table, record)
    assert [r.json for r in h.requests_to("PATCH", UNARCHIVE)] == [{"archived": False}]
    posted = [m for m in h.messages_in(thread).values() if not m.embeds]
    assert posted, "the reminder or the ping is posted in the thread"
    expected = ("Thread is archived", "Invalid Webhook Token")  # refused once; a spent token, as said
    assert any(p.endswith(expected[0]) for p in h.problems) and all(p.endswith(expected) for p in h.problems)
    h.problems.clear()
    h.assert_no_errors()


async def test_a_deleted_thread_ends_its_game_as_a_deleted_channel_does(h):
    first, table_one = await new_in_thread(h, ADA, thread="yes")
    second, table_two = await new_in_thread(h, CLEO, thread="yes")
    await start(h, table_one, ADA, None)
    await start(h, table_two, CLEO, BEN)
    one, two = (await game_in(h, first)).id, (await game_in(h, second)).id
    h.delete_thread(first)  # THREAD_DELETE
    await run(h, pass_time(h, 60))
    games = service(h).core.store.games
    assert (await games.load_game(one)).status == "abandoned" and (await game_in(h, first)) is None
    await h.detach()
    h.archive_thread(second)  # archived while the bot is away: it lives on, out of GUILD_CREATE
    await h.attach(bot(h.db_path, h.clock))
    assert (await service(h).core.store.games.load_game(two)).status == "active"
    await h.detach()
    h.delete_thread(second, tell=False)  # deleted while the bot was away: found at its start
    await h.attach(bot(h.db_path, h.clock))
    assert (await service(h).core.store.games.load_game(two)).status == "abandoned"
    h.problems.clear()  # the look at the deleted thread: 404 10003, as asked


async def test_a_deleted_channel_ends_the_games_in_its_threads(h):
    other = h.channel_ids[1]
    thread, table = await new_in_thread(h, ADA, other, thread="yes")
    await start(h, table, ADA, BEN)
    game_id = (await game_in(h, thread)).id
    h.delete_channel(other)  # CHANNEL_DELETE only: discord.py knows the thread was the channel's
    await run(h, pass_time(h, 60))
    assert (await service(h).core.store.games.load_game(game_id)).status == "abandoned"
    h.assert_no_errors()


async def test_a_game_in_a_thread_goes_on_after_a_restart(h):
    thread, table = await new_in_thread(h, ADA, thread="yes")
    await start(h, table, ADA, BEN)
    rnd = random.Random(2)
    await take_a_decision(h, (await due_in(h, thread))[0], table, rnd)
    moves = (await game_in(h, thread)).state.moves
    await restart(h)
    assert h.bot.get_guild(h.guild_id).get_thread(thread) is not None  # the thread comes with the guild
    await take_a_decision(h, (await due_in(h, thread))[0], table, rnd)
    record = await game_in(h, thread)
    assert record.state.moves > moves and shows(h, table, record)
    h.assert_all_answered()
    h.assert_no_errors()


async def test_the_fakes_threads_behave_as_discords(h):
    http, guild = h.bot.http, h.bot.get_guild(h.guild_id)
    with pytest.raises(discord.HTTPException) as too_long:
        await http.start_thread_without_message(h.channel_id, name="x" * 101, auto_archive_duration=10080, type=11)
    assert too_long.value.code == 50035 and not h.threads
    made = await http.start_thread_without_message(h.channel_id, name="game", auto_archive_duration=10080, type=11)
    thread = int(made["id"])
    assert made["type"] == 11 and made["parent_id"] == str(h.channel_id) and guild.get_thread(thread) is not None
    h.archive_thread(thread)
    with pytest.raises(discord.HTTPException) as archived:
        await h.bot.get_partial_messageable(thread).send("hello")
    assert (archived.value.status, archived.value.code) == (400, 50083)
    await http.edit_channel(thread, archived=False)
    assert (await h.bot.get_partial_messageable(thread).send("hello")).channel.id == thread
    h.delete_thread(thread)
    assert guild.get_thread(thread) is None  # THREAD_DELETE
    with pytest.raises(discord.NotFound) as gone:
        await h.bot.get_partial_messageable(thread).send("hello")
    assert gone.value.code == 10003
    h.problems.clear()


async def cancel_in(h, user: int, channel: int) -> None:
    ask = await h.slash(user, "augsburg cancel", channel_id=channel)
    await h.click(user, ask.answer.message_id, label="Yes, cancel the game")
    assert await game_in(h, channel) is None


def history_lines(answer) -> tuple[str, dict[int, str]]:
    """A private history page: its title, and its line per game (by id)."""
    assert answer.ephemeral and answer.allowed_mentions.get("parse") == []
    title, *lines = answer.content.splitlines()
    return title, {int(line.split("**#")[1].split("**")[0]): line for line in lines if line.startswith("**#")}


async def test_a_channels_history_lists_the_games_of_its_threads_and_a_threads_only_its_own(h):
    first, table_one = await new_in_thread(h, ADA, thread="yes")
    second, table_two = await new_in_thread(h, CLEO, thread="yes")
    await start(h, table_one, ADA, None)  # Ada and a computer, played to the end
    one = (await game_in(h, first)).id
    await start(h, table_two, CLEO, BEN)
    two = (await game_in(h, second)).id
    assert [(await service(h).games.game(g)).parent_id for g in (one, two)] == [h.channel_id] * 2
    rnd = random.Random(7)
    for _ in range(2000):
        due = await due_in(h, first)
        if not due:
            break
        await take_a_decision(h, due[0], table_one, rnd)
    assert (await service(h).games.game(one)).status == "finished"
    await cancel_in(h, CLEO, second)
    again = await h.slash(ADA, "augsburg rematch", channel_id=first)  # the rematch stays in the thread
    assert h.message(again.answer.message_id).channel_id == first
    rematch = await game_in(h, first)
    assert (rematch.table.rematch_of, rematch.channel_id, rematch.parent_id) == (one, first, h.channel_id)
    await cancel_in(h, ADA, first)
    own = await h.slash(BEN, "augsburg new", thread="no")  # a game of the channel itself
    mine = (await game_in(h, h.channel_id)).id
    assert (await game_in(h, h.channel_id)).parent_id is None and own.answer.embeds
    await cancel_in(h, BEN, h.channel_id)
    other, _ = await new_in_thread(h, BEN, h.channel_ids[1], thread="yes")  # a thread of another channel
    elsewhere = (await game_in(h, other)).id
    await cancel_in(h, BEN, other)

    title, lines = history_lines((await h.slash(BEN, "augsburg records history")).answer)
    assert title == "**The last games in this channel and its threads**"
    assert list(lines) == [mine, rematch.id, two, one]  # newest first; not the other channel's thread's
    assert f"<#{first}>" in lines[one] and f"<#{first}>" in lines[rematch.id] and f"<#{second}>" in lines[two]
    assert "<#" not in lines[mine] and "🏆" in lines[one] and "cancelled" in lines[two]
    title, lines = history_lines((await h.slash(BEN, "augsburg records history", channel_id=first)).answer)
    assert title == "**The last games in this thread**" and list(lines) == [rematch.id, one]
    assert not any("<#" in line for line in lines.values())
    _, lines = history_lines((await h.slash(ADA, "augsburg records history", channel_id=second)).answer)
    assert list(lines) == [two]
    _, lines = history_lines((await h.slash(ADA, "augsburg records history", channel_id=h.channel_ids[1])).answer)
    assert list(lines) == [elsewhere]
    _, lines = history_lines((await h.slash(ADA, "augsburg records history", where="server")).answer)
    assert set(lines) == {one, two, rematch.id, mine, elsewhere}
    await restart(h)  # kept in the database: the same after a restart
    _, lines = history_lines((await h.slash(CLEO, "augsburg records history")).answer)
    assert list(lines) == [mine, rematch.id, two, one]
    h.assert_all_answered()
    h.assert_no_errors()
