"""Asynchronous play through the bot: the turn clock, stand-ins, leaving, catching up, the end (issue 10).

Time is a ManualClock: a day passes in no time, and the scheduler fires what is due.
"""

from __future__ import annotations

import random
import re
from datetime import UTC

import pytest
from support.bot_support import (
    ADA,
    BEN,
    CLEO,
    clocked_harness,
    due_people,
    game,
    long_lived,
    make_bot,
    open_and_start,
    pass_time,
    service,
    take_a_decision,
)
from support.bot_support import (
    hourly_bot as clocked_bot,
)
from support.clock import ManualClock
from support.fake_discord import FakeUser, Harness

from engine import to_act

HOUR = 3600


@pytest.fixture
async def h(database):
    """On each backend: the clock's tests (a whole game among them) run on SQLite and on PostgreSQL."""
    harness = await clocked_harness(database, clocked_bot)
    yield harness
    await harness.close()


async def moves(h, game_id: int):
    return await service(h).core.store.log.moves_since(game_id, -1)


def allowed(h, message) -> dict:
    """The allowed_mentions the bot sent with a message (in the channel, or as an interaction's follow-up)."""
    return message.allowed_mentions


def table_id(h) -> int:
    return h.find_message(label="My hand & actions").id


async def test_a_player_who_never_acts_does_not_stop_the_game(h):
    await open_and_start(h)
    game_id = game(h).id
    rnd = random.Random(2)
    for _ in range(3000):
        record = game(h)
        if record is None:
            break
        due = [p for p in due_people(h) if p in (ADA, BEN)]
        if due:
            await take_a_decision(h, rnd.choice(due), table_id(h), rnd)
        else:
            assert await pass_time(h, HOUR + 1) >= 1, "Cleo is due and her time must run out"
    assert game(h) is None, "the game did not finish"
    history = await moves(h, game_id)
    cleo = str(CLEO)
    assert sum(m.actor == "clock" and m.player == cleo for m in history) == 2  # then the computer stands in
    assert any(e.type == "table" and e.what == "stand_in" and e.player == cleo for m in history for e in m.entries)
    assert all(m.actor in ("player", "only") for m in history if m.player in (str(ADA), str(BEN)))
    everything = "\n".join(m.content for m in h.channel_messages.values())
    assert "final standings" in everything
    live = [c for m in h.channel_messages.values() for c in m.custom_ids()]
    assert all(c.startswith("aug:again:") for c in live), "a live button was left behind"  # only Rematch
    page = (await h.slash(ADA, "augsburg log")).answer
    logged = page.content
    while "(page 1 of" not in page.content:
        page = (await h.click(ADA, page.message_id, label="◀ Earlier")).answer
        logged += page.content
    assert logged.count("Time ran out for Cleo; the computer chose for them.") == 2
    h.assert_all_answered()
    h.assert_no_errors()


async def test_a_deadline_due_while_the_bot_was_down_fires_once_after_start_up(h):
    await open_and_start(h, players=(ADA, BEN))
    game_id = game(h).id
    await h.detach()  # the bot is down (a crash would do the same: the deadlines are rows)
    h.clock.advance(2 * HOUR)
    await h.attach(clocked_bot(h, h.clock))
    await pass_time(h, 0)
    clock_moves = [m for m in await moves(h, game_id) if m.actor == "clock"]
    assert sorted(m.player for m in clock_moves) == [str(ADA), str(BEN)]
    assert not [m for m in h.channel_messages.values() if "⏰" in m.content], "too late for reminders"
    await h.restart(clocked_bot(h, h.clock))
    await pass_time(h, 0)
    assert len([m for m in await moves(h, game_id) if m.actor == "clock"]) == 2  # not twice


async def test_a_reminder_goes_out_once(h):
    await open_and_start(h, players=(ADA, BEN))
    await pass_time(h, HOUR * 3 / 4 + 1)
    reminders = [m for m in h.channel_messages.values() if "⏰" in m.content]
    assert len(reminders) == 2 and {f"<@{ADA}>", f"<@{BEN}>"} == {m.content.split(",")[0][2:] for m in reminders}
    for m in reminders:
        assert [str(u) for u in allowed(h, m)["users"]] == [m.content.split(",")[0][4:-1]]
    await pass_time(h, 60)
    await h.restart(clocked_bot(h, h.clock))
    await pass_time(h, 0)
    assert len([m for m in h.channel_messages.values() if "⏰" in m.content]) == 2


async def test_a_player_who_comes_back_gets_their_seat_and_sees_what_the_computer_chose(h):
    await open_and_start(h, players=(ADA, BEN))
    rnd = random.Random(4)
    for _ in range(500):
        record = game(h)
        if record.table.seat(str(BEN)).stand_in:
            break
        if str(ADA) in to_act(record.state):
            await take_a_decision(h, ADA, table_id(h), rnd)
        else:
            await pass_time(h, HOUR + 1)
    assert game(h).table.seat(str(BEN)).stand_in
    back = await h.click(BEN, table_id(h), label="My hand & actions")
    assert not game(h).table.seat(str(BEN)).stand_in
    since = back.answer.embeds[0]
    assert since["title"] == "Since your last move" and "Your time ran out; the computer chose for you" in (
        since["description"])
    assert re.search(r"\*\*(Philipp|Louise|Leo|Maria|Maximilian|Round \d|Round end):\*\* ", since["description"])
    assert "Ada" in since["description"]  # what the others did meanwhile
    history = await moves(h, game(h).id)
    assert [e.what for m in history for e in m.entries if e.type == "table"][-2:] == ["stand_in", "returned"]


async def test_the_host_sets_the_clock_in_the_lobby(h):
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    assert "24 h per decision" not in str(h.message(table).embeds)  # this bot's default is 1 h
    assert "1 h per decision" in str(h.message(table).embeds)
    select = next(c for c in h.message(table).selects())
    refused = await h.select(BEN, table, select["custom_id"], [str(4 * HOUR)])
    assert refused.answer.ephemeral and "Only the host" in refused.answer.content
    await h.select(ADA, table, select["custom_id"], ["0"])
    assert "No time limit per decision" in str(h.message(table).embeds)
    await h.click(ADA, table, label="Add computer player")
    await h.click(ADA, table, label="Add computer player")
    await h.click(ADA, table, label="Remove computer player")
    assert "Computer 2" not in str(h.message(table).embeds) and "Computer 1" in str(h.message(table).embeds)
    await h.click(ADA, table, label="Start game")
    assert await service(h).core.store.deadlines.deadlines() == []  # no limit: no clock


async def test_leaving_hands_the_seat_to_the_computer_and_the_last_human_abandons_the_game(h):
    await open_and_start(h, players=(ADA, BEN))
    ask = await h.slash(BEN, "augsburg seat leave")
    assert ask.answer.ephemeral
    done = await h.click(BEN, ask.answer.message_id, label="Yes, leave the game")
    assert "computer plays your seat" in done.answer.content and game(h).table.seat(str(BEN)).left
    assert str(BEN) not in {d.player for d in await service(h).core.store.deadlines.deadlines()}
    game_id = game(h).id
    ask = await h.slash(ADA, "augsburg seat leave")
    await h.click(ADA, ask.answer.message_id, label="Yes, leave the game")
    assert game(h) is None
    record = await service(h).core.store.games.load_game(game_id)
    assert record.status == "abandoned" and (await service(h).core.store.records.player_stats(str(ADA)))["games"] == 0
    status = await h.slash(CLEO, "augsburg status")
    assert "abandoned" in status.answer.embeds[0]["description"] and not status.answer.custom_ids()


async def test_the_host_replaces_a_seat_only_after_its_time_ran_out(h):
    await open_and_start(h)
    ask = await h.slash(ADA, "augsburg seat replace", player=str(CLEO))
    early = await h.click(ADA, ask.answer.message_id, label="Yes, the computer plays")
    assert "never run out" in early.answer.content and not game(h).table.seat(str(CLEO)).stand_in
    for user in (ADA, BEN):
        panel = (await h.click(user, table_id(h), label="My hand & actions")).answer
        await h.click(user, panel.message_id, label="Buy nothing")
    await pass_time(h, HOUR + 1)  # Cleo's time runs out once
    choices = await h.autocomplete(ADA, "augsburg seat replace", "player", "")
    assert [c["value"] for c in choices] == [str(CLEO)]
    ask = await h.slash(BEN, "augsburg seat replace", player=str(CLEO))
    refused = await h.click(BEN, ask.answer.message_id, label="Yes, the computer plays")
    assert "Only the host" in refused.answer.content
    ask = await h.slash(ADA, "augsburg seat replace", player=str(CLEO))
    await h.click(ADA, ask.answer.message_id, label="Yes, the computer plays")
    assert game(h).table.seat(str(CLEO)).stand_in
    history = await moves(h, game(h).id)
    assert any(e.type == "table" and e.what == "replaced" and e.by == str(ADA) for m in history for e in m.entries)
    back = await h.slash(CLEO, "augsburg seat back")
    assert "Welcome back" in back.answer.content and not game(h).table.seat(str(CLEO)).stand_in
    again = await h.slash(CLEO, "augsburg seat back")
    assert "your seat is yours" in again.answer.content


async def test_pings_name_only_the_newly_due_and_respect_each_players_choice(h):
    await h.slash(BEN, "augsburg seat notify", how="none")
    await open_and_start(h)
    for message in h.channel_messages.values():
        if "your move" in message.content:
            assert f"<@{BEN}>" not in message.content
            assert {str(u) for u in allowed(h, message)["users"]} == {str(ADA), str(CLEO)}
            assert allowed(h, message)["parse"] == []


async def test_the_log_is_paged_and_shows_every_round(h):
    await open_and_start(h, players=(ADA, BEN))
    rnd = random.Random(8)
    for _ in range(60):
        if not due_people(h):
            break  # the game is over
        await take_a_decision(h, rnd.choice(due_people(h)), table_id(h), rnd)
    first = await h.slash(CLEO, "augsburg log")  # a spectator may read the public log
    # A game of 85 moves: its newest page made from its last moves (the count of pages not worked out)
    assert first.answer.ephemeral and first.answer.content.startswith("**The game's log** (the newest page)")
    earlier = await h.click(CLEO, first.answer.message_id, label="◀ Earlier")
    page, pages = [int(x) for x in earlier.answer.content.split("page ")[1].split(")")[0].split(" of ")]
    assert page == pages - 1 >= 1
    assert "Your hand" not in earlier.answer.content
    one = await h.slash(CLEO, "augsburg log", round=1)
    assert "round 1" in one.answer.content


async def test_the_end_ranks_and_explains_every_score_and_leaves_no_live_button(h):
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    await h.click(ADA, table, label="Add computer player")
    await h.click(ADA, table, label="Start game")
    game_id = game(h).id
    rnd = random.Random(5)
    while game(h) is not None:
        await take_a_decision(h, ADA, table_id(h), rnd)
    final = next(m for m in h.channel_messages.values() if "final standings" in m.content)
    record = await service(h).core.store.games.load_game(game_id)
    state = record.state
    ranked = sorted(state.players, key=lambda p: (p.id not in state.winners, -p.score))
    names = {str(ADA): "Ada", "ai1": "Computer 1"}
    fields = final.embeds[0]["fields"]
    assert [f["name"] for f in fields] == [f"{names[p.id]} — {p.score}" for p in ranked]
    for field, p in zip(fields, ranked):
        assert f"{p.money:,} guilders left" in field["value"] and "Trade" in field["value"]
        if p.score:
            assert "from the rounds' scoring" in field["value"]
    assert all(c.startswith("aug:again:") for m in h.channel_messages.values() for c in m.custom_ids())  # Rematch
    status = await h.slash(BEN, "augsburg status")
    assert "The game is over" in status.answer.embeds[0]["description"]


async def test_a_display_name_of_at_everyone_notifies_nobody(tmp_path):
    clock = ManualClock()
    users = [FakeUser(ADA, "@everyone"), FakeUser(BEN, "@here <@&1>")]
    path = tmp_path / "names.sqlite3"
    bot = make_bot(path, clock=clock, turn_timeout_seconds=HOUR, reminder_seconds=HOUR / 4, watch_seconds=0)
    h = await Harness.create(bot, users=users, ignore=(long_lived,))  # nobody watches: every ping goes out
    h.db_path, h.clock = path, clock
    try:
        await open_and_start(h, players=(ADA, BEN))
        rnd = random.Random(1)
        for _ in range(40):
            await take_a_decision(h, rnd.choice(due_people(h)), table_id(h), rnd)
        await pass_time(h, HOUR)
        players = {str(ADA), str(BEN)}
        posts = h.requests_to("POST", "/channels/{channel_id}/messages") + h.requests_to(
            "POST", "/webhooks/{webhook_id}/{webhook_token}")  # pings go out as follow-ups where they can
        callbacks = h.requests_to("POST", "/interactions/{webhook_id}/{webhook_token}/callback")
        assert len(posts) > 3 and len(callbacks) > 40
        for request in posts:
            mentions = request.json.get("allowed_mentions")
            assert mentions is not None and mentions.get("parse") == [], request.json
            assert {str(u) for u in mentions.get("users", [])} <= players
            assert not mentions.get("roles") and not mentions.get("replied_user")
        for request in callbacks:
            data = request.json.get("data") or {}
            if "content" in data or "embeds" in data:
                assert (data.get("allowed_mentions") or {}).get("parse") == [], data
    finally:
        await h.close()


async def test_direct_messages_as_well_and_a_closed_inbox_falls_back_to_the_channel(h):
    for user in (BEN, CLEO):
        await h.slash(user, "augsburg seat notify", how="dm")
    h.close_dms(CLEO)
    await open_and_start(h)
    ben_dms = list(h.dm_messages(BEN).values())
    assert len(ben_dms) == 1 and "Your move in Augsburg 1520" in ben_dms[0].content
    assert h.dm_messages(CLEO) == {}
    ping = next(m for m in h.channel_messages.values() if "your move" in m.content)
    assert ping.notified([ADA, BEN, CLEO]) == {ADA, BEN, CLEO}  # the channel mention whatever the DMs
    assert [p for p in h.problems if "50007" in p] and all("50007" in p for p in h.problems)
    h.problems.clear()  # Discord refused the DM to Cleo, as it does for a closed inbox
    first = await h.click(CLEO, table_id(h), label="My hand & actions")
    assert "could not send you a direct message" in first.answer.content
    again = await h.click(CLEO, table_id(h), label="My hand & actions")
    assert "could not send you a direct message" not in again.answer.content  # told once
    await pass_time(h, HOUR * 3 / 4 + 1)
    assert any("still waiting" in m.content for m in h.dm_messages(BEN).values())  # reminders by DM too
    h.problems.clear()
    h.assert_no_errors()


async def test_every_ping_notifies_exactly_the_players_it_names(h):
    await open_and_start(h)
    rnd = random.Random(6)
    for _ in range(80):
        await pass_time(h, 301)  # nobody is watching their panel any more: pings put off go out
        if not due_people(h):
            break  # the game is over
        await take_a_decision(h, rnd.choice(due_people(h)), table_id(h), rnd)
    members = [ADA, BEN, CLEO]
    pings = [m for m in h.posted_in().values() if "your move" in m.content]  # (deleted once done, too)
    assert len(pings) >= 5
    for m in pings:  # pings carry no button to leave behind live
        assert not m.custom_ids() and "https://discord.com/channels/" in m.content, m.content
    for m in h.posted_in().values():  # only pings (and the winners in the standings) name anyone
        named = {int(x) for x in re.findall(r"<@!?(\d+)>", m.content)}
        assert m.notified(members) == named and (named == set() or m in pings or "final standings" in m.content)


# --- hours (issue 43): the clock counts only the time inside a person's hours, bounded by three days


def test_a_clock_counts_only_time_inside_the_hours_and_a_day_at_18_to_23_is_five_hours():
    from datetime import datetime

    from bot.service.hours import BOUND, Hours
    from bot.service.turns import Timing, plan
    from storage import Seat, Table

    berlin = Hours("Europe/Berlin", 18, 23)  # 17:00–22:00 UTC in winter
    monday_noon = datetime(2027, 1, 4, 12, tzinfo=UTC).timestamp()
    utc = lambda t: datetime.fromtimestamp(t, UTC).strftime("%a %H:%M")  # noqa: E731
    assert utc(berlin.after(monday_noon, 12 * HOUR)) == "Wed 19:00"  # 5 h Monday, 5 h Tuesday, 2 h Wednesday
    assert utc(berlin.after(monday_noon, 5 * HOUR)) == "Mon 22:00"  # a window's end is still inside it
    assert berlin.inside(berlin.after(monday_noon, 5 * HOUR))
    # 24 h of play would take almost five days: the bound (three days of real time) cuts it at the end of the last
    # window before it, so the clock never runs out in their sleep.
    capped = berlin.after(monday_noon, 24 * HOUR)
    assert utc(capped) == "Wed 22:00" and capped - monday_noon <= BOUND and berlin.inside(capped)
    assert Hours().after(monday_noon, 24 * HOUR) == monday_noon + 24 * HOUR  # no hours: as before
    assert utc(berlin.back_at(monday_noon)) == "Mon 17:00" and berlin.back_at(monday_noon + 6 * HOUR) is None
    late = Hours("America/New_York", 22, 2)  # over midnight: 03:00–07:00 UTC
    assert utc(late.after(monday_noon, 6 * HOUR)) == "Wed 05:00"
    # The plan: the timeout inside the hours, the reminder halfway through the time inside them.
    table = Table(host="a", seats=(Seat(id="a"), Seat(id="b")), turn_seconds=12 * HOUR)
    planned = plan(1, set(), {"a", "b"}, set(), table, Timing(), monday_noon, hours={"a": berlin})
    by = {(d.player, d.kind): d.due_at for d in planned.new}
    assert utc(by[("a", "timeout")]) == "Wed 19:00" and utc(by[("a", "reminder")]) == "Tue 18:00"
    assert by[("b", "timeout")] == monday_noon + 12 * HOUR  # no hours: any time
    long = table.model_copy(update={"turn_seconds": 72 * HOUR})
    capped_plan = {(d.player, d.kind): d.due_at for d in plan(1, set(), {"a"}, set(), long, Timing(), monday_noon,
                                                              hours={"a": berlin}).new}
    assert utc(capped_plan[("a", "timeout")]) == "Wed 22:00"  # bounded: three days, the end of a window
    assert utc(capped_plan[("a", "reminder")]) == "Wed 17:00"  # as their last window opens


def test_summer_time_moves_the_window_with_the_zone():
    from datetime import datetime

    from bot.service.hours import Hours

    berlin = Hours("Europe/Berlin", 18, 23)
    winter = datetime(2027, 1, 4, 12, tzinfo=UTC).timestamp()
    summer = datetime(2027, 7, 5, 12, tzinfo=UTC).timestamp()
    assert datetime.fromtimestamp(berlin.back_at(winter), UTC).hour == 17
    assert datetime.fromtimestamp(berlin.back_at(summer), UTC).hour == 16


async def test_a_timeout_or_reminder_due_outside_the_hours_waits_for_them(h):
    """Hours set after the clock was planned: the deadline that falls outside them waits, the reminder until the
    hours begin, the timeout until the time inside them has run out (never a stand-in in their sleep)."""
    await open_and_start(h)
    record = game(h)
    window = (2, 4)  # UTC; the test's clock starts at 08:00 UTC
    for user in (ADA, BEN, CLEO):
        await service(h).mine.set_hours(user, "UTC", window)
    await pass_time(h, 2 * HOUR)  # the reminder and the timeout of the hour-long clock: both outside the hours
    assert record.state.moves == game(h).state.moves, "nobody was decided for outside their hours"
    reminders = [m for m in h.posted_in().values() if m.content.startswith("⏰")]
    assert not reminders
    from bot.service.hours import Hours

    hours, fired = Hours("UTC", *window), []
    for _ in range(20):
        due = {d.due_at for d in await service(h).deadlines.deadlines() if d.kind in ("timeout", "reminder")}
        before = len(await moves(h, record.id))
        await pass_time(h, HOUR)
        fired += [t for t in due if t <= h.clock.now()]
        assert len(await moves(h, record.id)) == before or any(hours.inside(t) for t in fired)
    assert fired and all(hours.inside(t) for t in fired)  # every timeout and reminder fired inside the hours
    assert [m for m in await moves(h, record.id) if m.actor == "clock"], "inside their hours the clock ran out"
    assert [m for m in h.posted_in().values() if m.content.startswith("⏰")]  # reminded (deleted since)


def test_a_clock_that_ran_out_at_a_windows_end_fires_when_the_scheduler_comes_a_moment_late():
    """A deadline at the very end of a window (a 5-hour clock for 18:00–23:00, or the bound) fired a second
    late by a busy scheduler is outside the hours: it fires then, rather than waiting a whole day more, again
    and again at every late firing past the three-day bound. Put off only when it is long past (the bot was
    down): then until the end of their next window, never past the bound."""
    from datetime import datetime

    from bot.service.hours import BOUND, Hours, put_off

    berlin = Hours("Europe/Berlin", 18, 23)
    monday_noon = datetime(2027, 1, 4, 12, tzinfo=UTC).timestamp()
    due = berlin.after(monday_noon, 5 * HOUR)  # Monday 23:00 in Berlin, the window's end
    payload = {"since": monday_noon}
    assert put_off(berlin, "timeout", payload, 5 * HOUR, due + 2) is None, "a moment late: it fires"
    assert put_off(berlin, "timeout", payload, 5 * HOUR, due + 300) is None
    later = put_off(berlin, "timeout", payload, 5 * HOUR, due + 3 * HOUR)  # the bot was down for hours
    assert later is not None and berlin.inside(later) and 0 < later - (due + 3 * HOUR) <= 24 * HOUR
    assert put_off(berlin, "timeout", payload, 5 * HOUR, monday_noon + BOUND + 60) is None, "past the bound: now"
    near = put_off(berlin, "timeout", payload, 5 * HOUR, monday_noon + BOUND - 2 * HOUR)
    assert near is not None and near <= monday_noon + BOUND, "never put off past the bound"
