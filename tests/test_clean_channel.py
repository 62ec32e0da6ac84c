"""A channel that stays clean (issue 43, point 4): a ping's message (a "your move" ping, a reminder, a
heads-up line) is deleted once nobody it is about must make that decision any more (they decided, the bot
decided for them, the game ended), within the channel's pace; a restart forgets none."""

from __future__ import annotations

import pytest
from clean_channel import measure
from support.bot_support import (
    ADA,
    BEN,
    buy_for_philipp,
    clocked_harness,
    due_people,
    game,
    hourly_bot,
    make_bot,
    open_and_start,
    pass_time,
)

WATCH = 300
THROUGH_TOKEN = ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
THROUGH_CHANNEL = ("DELETE", "/channels/{channel_id}/messages/{message_id}")


def bot(path, clock):
    return make_bot(path, clock=clock)


@pytest.fixture
async def h(tmp_path):
    harness = await clocked_harness(tmp_path / "clean.sqlite3", bot)
    yield harness
    await harness.close()


def lines(h) -> list:
    """The public lines (no embed: not the table, not the standings) still in the channel."""
    return [m for m in h.channel_messages.values() if not m.embeds]


async def panel(h, user: int):
    return (await h.click(user, h.find_message(label="My hand & actions").id, label="My hand & actions")).answer


async def test_a_ping_stays_while_someone_it_pinged_must_decide_and_goes_when_nobody_does(h):
    await open_and_start(h, players=(ADA, BEN))
    [ping] = lines(h)
    assert ping.notified([ADA, BEN]) == {ADA, BEN}, "the purchase at the start: both at once"
    assert [p.id for p in game(h).messages.pings] == [ping.id]
    kept = h.bot.get_cog("Augsburg").presenter.pings._tokens  # until it is deleted: its token's text alone
    assert [type(token) for token, _ in kept.values()] == [str]
    await buy_for_philipp(h, ADA, (await panel(h, ADA)).message_id)
    assert [m.id for m in lines(h)] == [ping.id], "Ben has still to choose"
    await buy_for_philipp(h, BEN, (await panel(h, BEN)).message_id)
    assert h.message(ping.id).deleted and not lines(h) and not game(h).messages.pings
    assert len(h.requests_to(*THROUGH_TOKEN)) == 1, "a follow-up: deleted through its interaction's token"
    h.assert_no_errors()


async def test_a_restart_forgets_no_ping_and_deletes_it_as_a_channel_message(h):
    await open_and_start(h, players=(ADA, BEN))
    [ping] = lines(h)
    await h.restart(bot(h.db_path, h.clock))
    for user in (ADA, BEN):
        await buy_for_philipp(h, user, (await panel(h, user)).message_id)
    assert h.message(ping.id).deleted and not h.requests_to(*THROUGH_TOKEN)
    assert len(h.requests_to(*THROUGH_CHANNEL)) == 1, "the token went with the restart: the bot's own message"
    h.assert_no_errors()


async def test_a_ping_owed_and_a_reminder_go_when_their_person_decides(tmp_path):
    h = await clocked_harness(tmp_path / "reminded.sqlite3", hourly_bot)
    try:
        await open_and_start(h, players=(ADA, BEN))
        for user in (ADA, BEN):
            await buy_for_philipp(h, user, (await panel(h, user)).message_id)
        [first] = due_people(h)
        assert not lines(h), "the purchase's ping is done; the opener watches their panel"
        await pass_time(h, WATCH + 1)
        await pass_time(h, 45 * 60 - WATCH)  # a quarter of an hour before their hour is out
        owed, reminder = lines(h)
        assert "your move" in owed.content and "time runs out" in reminder.content
        assert all(m.notified([ADA, BEN]) == {first} for m in (owed, reminder))
        await h.click(first, (await panel(h, first)).message_id, label="Pass")
        assert owed.deleted and reminder.deleted
        [after] = lines(h)  # the next bidder, away from their panel for most of an hour: pinged at once
        assert after.notified([ADA, BEN]) == set(due_people(h)) != {first}
        h.assert_no_errors()
    finally:
        await h.close()


async def test_a_cancelled_game_leaves_no_ping(h):
    await open_and_start(h, players=(ADA, BEN))
    [ping] = lines(h)
    ask = await h.slash(ADA, "augsburg cancel")
    await h.click(ADA, ask.answer.message_id, label="Yes, cancel the game")
    assert h.message(ping.id).deleted
    assert [m.content for m in lines(h)] == [next(m.content for m in lines(h) if "cancelled" in m.content)]
    h.assert_no_errors()


async def test_a_ping_someone_deleted_already_is_simply_forgotten(h):
    await open_and_start(h, players=(ADA, BEN))
    [ping] = lines(h)
    h.delete_message(h.message(ping.id))  # a moderator tidied up first
    for user in (ADA, BEN):
        await buy_for_philipp(h, user, (await panel(h, user)).message_id)
    assert not game(h).messages.pings
    h.problems.clear()  # Discord's 404 for the message already gone: expected
    h.assert_no_errors()


@pytest.mark.parametrize("setup", ["3+2", "5"])
async def test_whole_games_leave_no_ping_and_keep_the_channels_pace(tmp_path, setup):
    """3 people and 2 computers, and five people, whole games at the bot's own pace (4 operations per
    window; Discord's 5 s shortened to a quarter of a second, the fake's limits with it)."""
    figures = await measure(tmp_path, setup, seed=1, window=0.25)
    assert figures.posted and figures.deleted >= figures.posted
    assert figures.left == 0 and figures.notifying == 0
    assert figures.as_the_bot_counts <= 4 and figures.unpaced == 0
    assert figures.rate_limited == 0 and figures.as_discord_counts <= 5


def test_a_pings_token_is_kept_while_it_lives_and_forgotten_after(monkeypatch):
    """The tokens of the follow-ups posted are kept, oldest first, until they expire: the next post forgets
    every expired one before it (one that expires earlier than an older one, a moment later), never one alive."""
    import datetime
    from types import SimpleNamespace

    import discord

    from bot.discord_app.ping_messages import PingMessages

    now = [1_000.0]
    monkeypatch.setattr(discord.utils, "utcnow",
                        lambda: datetime.datetime.fromtimestamp(now[0], tz=datetime.UTC))
    pings = PingMessages(None, None, None)  # type: ignore[arg-type]  (only its bookkeeping is used)

    def post(message_id: int, expires: float) -> None:
        pings.through_token(SimpleNamespace(id=message_id), f"token{message_id}", expires)  # type: ignore[arg-type]

    post(1, 1_900.0)
    post(2, 1_500.0)  # an older interaction's token: it expires before the one posted first
    post(3, 1_950.0)
    now[0] = 1_600.0
    post(4, 2_500.0)
    assert list(pings._tokens) == [1, 2, 3, 4], "the oldest lives on: the one behind it waits its turn"
    now[0] = 1_920.0
    post(5, 2_800.0)
    assert list(pings._tokens) == [3, 4, 5] and pings._tokens[3] == ("token3", 1_950.0)
    now[0] = 3_000.0
    post(6, 3_900.0)
    assert list(pings._tokens) == [6]
