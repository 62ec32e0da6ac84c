"""Time away (issue 29, point 5): `/augsburg seat away days:N`, at most what the table's host allows. While
away, the computer decides for the player at once (or, at a table that waits, their clock starts when the time
away ends, with no reminder before); a click of theirs ends it early; nothing of it counts against them; it
lasts across a restart; the table shows who is away until when.

Time is a ManualClock: days pass in no time, and the scheduler fires what is due."""

from __future__ import annotations

import random
from datetime import UTC

import pytest
from support.bot_support import (
    ADA,
    BEN,
    CLEO,
    clocked_harness,
    due_people,
    game,
    pass_time,
    service,
    take_a_decision,
)
from support.bot_support import (
    hourly_bot as clocked_bot,
)

from bot.service import Timing
from bot.service.turns import plan
from engine import new_game, to_act
from storage import Seat, Table

HOUR, DAY = 3600, 86400
MEMBERS = (ADA, BEN, CLEO)


@pytest.fixture
async def h(database):
    """On each backend (the seat's time away is stored with the table, on both)."""
    harness = await clocked_harness(database, clocked_bot)
    yield harness
    await harness.close()


async def start(h, players=MEMBERS, away: str | None = None) -> int:
    """Ada opens a table (with the time away `away` chosen in the clock's menu, e.g. "away:3:wait"), the
    others join, she starts it; the table's message id."""
    table = (await h.slash(players[0], "augsburg new")).answer.message_id
    if away is not None:
        chosen = await h.select(players[0], table, f"aug:lob:{game(h).id}:time", [away])
        assert chosen.answer.kind == "update"
    for p in players[1:]:
        await h.click(p, table, label="Join")
    await h.click(players[0], table, label="Start game")
    return table


def seat(h, user):
    return game(h).table.seat(str(user))


async def timeouts(h) -> dict[str, float]:
    return await service(h).games.timeouts(game(h))


def test_a_table_that_waits_starts_an_away_players_clock_when_they_are_back_and_reminds_only_then():
    state, _ = new_game(["a", "b"], seed=3)
    table = Table(host="a", seats=(Seat(id="a"), Seat(id="b", away_until=1000.0 + 3 * DAY)), turn_seconds=HOUR,
                  away_waits=True)
    planned = plan(1, set(), {"a", "b"}, set(), table, Timing(reminder_seconds=HOUR / 4), 1000.0)
    by = {(d.player, d.kind): d.due_at for d in planned.new}
    assert by[("a", "timeout")] == 1000.0 + HOUR
    assert by[("b", "timeout")] == 1000.0 + 3 * DAY + HOUR  # pushed past the time away
    assert by[("b", "reminder")] == 1000.0 + 3 * DAY + 3 * HOUR / 4  # after it ends, not before
    assert by[("b", "away")] == 1000.0 + 3 * DAY
    assert set(to_act(state)) == {"a", "b"}
    playing = table.model_copy(update={"away_waits": False})  # the computer plays: no clock at all
    assert playing.computer_plays("b") and not table.computer_plays("b")


async def test_an_away_player_is_played_for_at_once_and_nothing_counts_against_them(h):
    table = await start(h)
    went = await h.slash(CLEO, "augsburg seat away", days=3)
    assert went.answer.ephemeral and "You are away until <t:" in went.answer.content
    shown = h.message(table).embeds[0]
    assert any(f["name"].startswith("Cleo") and f["name"].endswith("(on time away)") for f in shown["fields"])
    assert "Cleo is away until <t:" in str(shown)
    assert "the computer decides for them" in str(shown)
    assert h.message(table).notified(MEMBERS) == set()  # the table's edit pings nobody
    game_id, rnd = game(h).id, random.Random(5)
    for _ in range(3000):
        if game(h) is None:
            break
        due = due_people(h)
        assert str(CLEO) not in map(str, due), "the game waited for an away player"
        assert due, "nobody to decide, yet the game is not over"
        await take_a_decision(h, rnd.choice(due), table, rnd)
    assert game(h) is None, "the game did not finish"
    moves = await service(h).core.store.log.moves_since(game_id, -1)
    cleo = [m for m in moves if m.player == str(CLEO)]
    assert cleo and all(m.actor == "away" for m in cleo)
    assert not any(e.type == "table" and e.what in ("stand_in", "replaced") for m in moves for e in m.entries)
    stats = await service(h).records.player_stats(str(CLEO))
    assert (stats.decisions, stats.in_time) == (0, 0)  # neither in time nor late
    h.assert_no_errors()
    h.assert_all_answered()


async def test_a_table_that_waits_pushes_the_clock_and_reminds_nobody_while_away(h):
    await start(h, away="away:3:wait")
    assert game(h).table.away_waits and game(h).table.away_days == 3
    went = await h.slash(CLEO, "augsburg seat away", days=3)
    assert "the table waits for you" in went.answer.content
    until = seat(h, CLEO).away_until
    assert (await timeouts(h))[str(CLEO)] == until + HOUR
    table = h.find_message(label="My hand & actions").id
    for user in (ADA, BEN):  # the first purchase: everyone at once; the table then waits for Cleo
        await take_a_decision(h, user, table, random.Random(user))
    assert due_people(h) == [CLEO]
    await pass_time(h, 2 * DAY)
    assert game(h).state.moves == 2 and seat(h, CLEO).away_until == until  # nothing moved for her
    assert not [m for m in h.posted_in().values() if "⏰" in m.content], "reminded while away"
    await pass_time(h, until - h.clock.now())  # the time away ends
    assert seat(h, CLEO).away_until is None and seat(h, CLEO).missed == 0
    await pass_time(h, 3 * HOUR / 4 + 1)
    (reminder,) = [m for m in h.posted_in().values() if "⏰" in m.content]
    assert reminder.notified(MEMBERS) == {CLEO}  # her reminder comes once she is back, to her alone
    assert [str(u) for u in reminder.allowed_mentions["users"]] == [str(CLEO)]
    h.assert_no_errors()


async def test_any_click_of_theirs_or_zero_days_ends_time_away(h):
    table = await start(h, away="away:7:wait")
    await h.slash(CLEO, "augsburg seat away", days=5)
    await h.slash(BEN, "augsburg seat away", days=2)
    h.clock.advance(HOUR / 2)
    panel = (await h.click(CLEO, table, label="My hand & actions")).answer  # looking counts as being back
    assert panel.ephemeral and seat(h, CLEO).away_until is None
    assert (await timeouts(h))[str(CLEO)] == h.clock.now() + HOUR  # a new clock from now
    back = await h.slash(BEN, "augsburg seat away", days=0)
    assert back.answer.ephemeral and "Welcome back" in back.answer.content and seat(h, BEN).away_until is None
    moves = await service(h).core.store.log.moves_since(game(h).id, -1)
    returned = [e.player for m in moves for e in m.entries if e.type == "table" and e.what == "returned"]
    assert sorted(returned) == sorted([str(CLEO), str(BEN)])
    assert "on time away" not in str(h.message(table).embeds[0])
    h.assert_no_errors()


async def test_time_away_is_refused_politely_and_changes_nothing(h):
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    early = await h.slash(ADA, "augsburg seat away", days=2)
    assert early.answer.ephemeral and "has not started" in early.answer.content
    await h.click(BEN, table, label="Join")
    await h.click(ADA, table, label="Start game")
    version = game(h).version
    for user, days, said in ((CLEO, 2, "not playing in this game"), (BEN, 8, "at most 7 days away"),
                             (BEN, 0, "You are not away")):
        refused = await h.slash(user, "augsburg seat away", days=days)
        assert refused.answer.ephemeral and said in refused.answer.content, refused.answer.content
    assert game(h).version == version and all(s.away_until is None for s in game(h).table.seats)
    h.assert_no_errors()


async def test_a_host_who_allows_no_time_away(h):
    await start(h, players=(ADA, BEN), away="away:0:play")
    refused = await h.slash(BEN, "augsburg seat away", days=1)
    assert refused.answer.ephemeral and "allows no time away" in refused.answer.content
    assert seat(h, BEN).away_until is None
    h.assert_no_errors()


async def test_time_away_lasts_across_a_restart_and_ends_after_it(h):
    await start(h, away="away:14:wait")
    await h.slash(CLEO, "augsburg seat away", days=1)
    until = seat(h, CLEO).away_until
    await h.restart(clocked_bot(h.db_path, h.clock))
    await pass_time(h, 0)
    record = await service(h).games.current(h.channel_id)
    assert record.table.seat(str(CLEO)).away_until == until
    assert (await service(h).games.timeouts(record))[str(CLEO)] == until + HOUR
    await pass_time(h, DAY + 1)
    record = await service(h).games.current(h.channel_id)
    assert record.table.seat(str(CLEO)).away_until is None
    moves = await service(h).core.store.log.moves_since(record.id, -1)
    assert [e.player for m in moves for e in m.entries if e.type == "table" and e.what == "away_over"] == [str(CLEO)]
    h.assert_no_errors()


def test_back_from_time_away_at_a_table_that_waits_the_clock_counts_inside_the_hours():
    """Issue 43 meets issue 29: the clock starts when the time away ends, and counts only the hours inside them."""
    from datetime import datetime

    from bot.service.hours import Hours

    monday_noon = datetime(2027, 1, 4, 12, tzinfo=UTC).timestamp()
    back = monday_noon + DAY  # Tuesday noon
    table = Table(host="a", seats=(Seat(id="a", away_until=back),), turn_seconds=4 * HOUR, away_waits=True)
    planned = plan(1, set(), {"a"}, set(), table, Timing(), monday_noon, hours={"a": Hours("UTC", 18, 20)})
    by = {(d.player, d.kind): d.due_at for d in planned.new}
    at = lambda t: datetime.fromtimestamp(t, UTC).strftime("%a %H:%M")  # noqa: E731
    assert at(by[("a", "timeout")]) == "Wed 20:00"  # two hours on Tuesday evening, two on Wednesday
    assert at(by[("a", "reminder")]) == "Tue 20:00"  # halfway through the time inside their hours
