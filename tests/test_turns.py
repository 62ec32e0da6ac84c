"""The turn clock without Discord: deadlines planned with each move, timeouts, stand-ins, the scheduler (issue 10)."""

from __future__ import annotations

import asyncio

import pytest
from support.clock import ManualClock

from bot.app.scheduler import Scheduler
from bot.service import GameService, Timing, codes
from bot.service.turns import computers_due, plan
from engine import to_act
from storage import Seat, Table

CHANNEL, GUILD, HOUR = 500, 1, 3600


@pytest.fixture
def clock():
    return ManualClock()


async def started(store, clock, players=("11", "22", "33"), turn=HOUR, reminder=None) -> GameService:
    service = GameService(store, clock, Timing(turn_seconds=turn, reminder_seconds=reminder))
    host, *others = players
    record = (await service.lobby.open_table(GUILD, CHANNEL, Seat(id=host, name="H"))).record
    for p in others:
        await service.lobby.join(CHANNEL, record.id, Seat(id=p, name=p))
    await service.lobby.start(CHANNEL, record.id, host, seed=3)
    return service


async def deadlines(store) -> dict[tuple[str, str], float]:
    return {(d.player, d.kind): d.due_at for d in await store.deadlines.deadlines()}


def test_a_still_due_player_keeps_their_clock_and_a_player_who_moved_gets_a_new_one():
    table = Table(host="a", seats=(Seat(id="a"), Seat(id="b"), Seat(id="c", stand_in=True)), turn_seconds=100)
    simultaneous = plan(1, {"a", "b"}, {"b"}, {"a"}, table, Timing(), 50.0)
    assert simultaneous.keep == {"b"} and simultaneous.new == ()
    again = plan(1, {"a"}, {"a"}, {"a"}, table, Timing(), 50.0)  # a moved and decides again: a new clock
    assert [(d.player, d.kind, d.due_at) for d in again.new] == [("a", "timeout", 150.0), ("a", "reminder", 100.0)]
    early = plan(1, set(), {"b"}, set(), table, Timing(reminder_seconds=10), 0.0)
    assert [(d.kind, d.due_at) for d in early.new] == [("timeout", 100.0), ("reminder", 90.0)]
    assert early.new[1].payload == {"timeout": 100.0}  # a reminder knows when time runs out


async def test_deadlines_are_written_with_the_moves_that_make_them(store, clock):
    service = await started(store, clock)
    start = clock.now()
    assert await deadlines(store) == {(p, k): start + (HOUR if k == "timeout" else HOUR / 2)
                                      for p in ("11", "22", "33") for k in ("timeout", "reminder")}
    record = service.games.cached(CHANNEL)
    clock.advance(600)
    assert (await service.decisions.act(CHANNEL, record.id, "11", None, codes.decode("buy:"))).ok
    left = await deadlines(store)
    assert ("11", "timeout") not in left and left[("22", "timeout")] == start + HOUR  # the others' clocks run on


async def test_time_runs_out_twice_then_the_computer_stands_in_until_the_player_is_back(store, clock):
    service = await started(store, clock, players=("11", "22"))
    record = service.games.cached(CHANNEL)
    assert (await service.decisions.act(CHANNEL, record.id, "11", None, codes.decode("buy:"))).ok
    clock.advance(HOUR + 1)
    [timeout] = [d for d in await store.deadlines.deadlines(due_before=clock.now()) if d.kind == "timeout"]
    first = await service.decisions.expire(timeout)
    assert first.ok and first.record.table.seat("22").missed == 1 and not first.record.table.seat("22").stand_in
    assert await service.decisions.expire(timeout) is None  # a deadline fires once: the move replaced it
    # Play on until 22 is due again, letting time run out each time.
    for _ in range(50):
        record = service.games.cached(CHANNEL)
        if record.table.seat("22").stand_in:
            break
        if computers_due(record.state, record.table):  # someone's only option: the bot takes it, no clock
            assert (await service.decisions.play_computer(CHANNEL)).actor == "only"
        elif "22" in to_act(record.state):
            clock.advance(HOUR + 1)
            due = [d for d in await store.deadlines.deadlines(due_before=clock.now()) if d.kind == "timeout"]
            assert (await service.decisions.expire(due[0])).ok
        else:
            assert (await service.decisions.play_computer(CHANNEL)) is None  # nobody a computer plays is due
            from engine import player_view
            from engine.ai import ComputerPlayer

            action = ComputerPlayer(1).decide(player_view(record.state, "11"))
            assert (await service.decisions.act(CHANNEL, record.id, "11", None, action)).ok
    seat = service.games.cached(CHANNEL).table.seat("22")
    assert seat.stand_in and seat.streak == 2 and seat.missed == 2
    assert not [d for d in await store.deadlines.deadlines() if d.player == "22"]  # no clock while the computer plays
    back = await service.seats.reclaim(CHANNEL, "22")
    assert back.ok and not back.record.table.seat("22").stand_in
    moves = await service.games.history(back.record)
    assert [e.what for m in moves for e in m.entries if e.type == "table"] == ["stand_in", "returned"]
    assert sum(m.actor == "clock" for m in moves) == 2


async def test_no_clock_no_deadlines(store, clock):
    await started(store, clock, turn=None)
    assert await store.deadlines.deadlines() == []


async def test_the_scheduler_fires_each_due_deadline_once_and_sleeps_until_the_next(store, clock):
    service = await started(store, clock, players=("11", "22"), turn=HOUR, reminder=HOUR / 4)
    fired = []

    async def fire(deadline):
        fired.append((deadline.player, deadline.kind))
        await store.deadlines.drop_deadline(deadline)

    scheduler = Scheduler(store.deadlines, clock, fire)
    scheduler.start()
    try:
        await asyncio.sleep(0.05)
        assert fired == []
        clock.advance(HOUR * 3 / 4 + 1)  # the reminders are due, not yet the timeouts
        for _ in range(3000):  # the scheduler wakes by itself (up to 30 s on a busy machine)
            await asyncio.sleep(0.01)
            if len(fired) == 2:
                break
        assert sorted(fired) == [("11", "reminder"), ("22", "reminder")]
        assert await scheduler.run_due() == 0  # nothing fires twice
        clock.advance(HOUR)
        assert await scheduler.run_due() == 2 and sorted(fired[2:]) == [("11", "timeout"), ("22", "timeout")]
    finally:
        await scheduler.stop()
    assert service.games.cached(CHANNEL) is not None


async def test_a_failing_deadline_is_tried_again_later_not_in_a_loop(store, clock):
    await started(store, clock, players=("11", "22"))
    calls = []

    async def fire(deadline):
        calls.append(deadline)
        raise RuntimeError("Discord is down")

    scheduler = Scheduler(store.deadlines, clock, fire)
    clock.advance(HOUR + 1)
    assert await scheduler.run_due() == 4
    assert await scheduler.run_due() == 0 and len(calls) == 4  # postponed, not retried at once
    assert all(d.due_at > clock.now() for d in await store.deadlines.deadlines())


async def test_a_stale_reminder_is_dropped_not_sent(store, clock):
    service = await started(store, clock, players=("11", "22"))
    record = service.games.cached(CHANNEL)
    assert (await service.decisions.act(CHANNEL, record.id, "11", None, codes.decode("buy:"))).ok
    clock.advance(HOUR / 2 + 1)
    reminders = [d for d in await store.deadlines.deadlines(due_before=clock.now()) if d.kind == "reminder"]
    assert [d.player for d in reminders] == ["22"]  # 11 chose: their reminder went with their move
    assert await service.decisions.remind(reminders[0]) is not None
