"""Issue 43, on a clock of its own: a whole five-person game over several simulated days, people in five time
zones (one of them half an hour off UTC, one window over midnight) with different hours, a 12-hour clock, each
person acting only inside their hours after a delay, one of them now and then not at all, one with a daily word
instead of pings. Through the real bot and the fake Discord, on a ManualClock.

Checked: no ping, reminder or heads-up reaches anyone outside their hours; no stand-in decides for anyone
outside their hours; the game ends. The figures (stand-in decisions, pings outside hours, days to finish):

    .venv/bin/python -m pytest -q -s tests/test_hours_days.py
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime

from support.bot_support import PublicRecord, check_no_leak, due_people, game, long_lived, make_bot, service
from support.bot_support import run as run_in
from support.clock import ManualClock
from support.fake_discord import FakeUser, Harness

from bot.service.hours import BOUND, Hours

HOUR, DAY = 3600, 86400
MONDAY = datetime(2027, 1, 4, tzinfo=UTC).timestamp()  # 00:00 UTC; January: no summer time north


@dataclass
class Person:
    user: FakeUser
    hours: Hours
    notify: str = "channel"
    heads_up: str = "off"
    daily: int | None = None
    skips: float = 0.0  # how often they let a decision's time run out


PEOPLE = [  # their windows in UTC, in January: 16–22, 16–24, 15:30–21:30, 14–22, 16–24
    Person(FakeUser(2001, "Ada"), Hours("Europe/Berlin", 17, 23), notify="dm"),
    Person(FakeUser(2002, "Ben"), Hours("America/New_York", 11, 19), heads_up="dm"),
    Person(FakeUser(2003, "Cleo"), Hours("Asia/Kolkata", 21, 3), heads_up="channel"),  # over midnight, UTC+5:30
    Person(FakeUser(2004, "Dan"), Hours("UTC", 14, 22), skips=0.08),
    Person(FakeUser(2005, "Eve"), Hours("America/Sao_Paulo", 13, 21), daily=12),
]
BY_ID = {p.user.id: p for p in PEOPLE}


async def seat_everyone(h: Harness) -> int:
    for p in PEOPLE:
        if p.hours.start is not None:
            await h.slash(p.user.id, "augsburg me hours", zone=p.hours.zone, start=p.hours.start, end=p.hours.end)
        await h.slash(p.user.id, "augsburg seat notify", how=p.notify, heads_up=p.heads_up)
        if p.daily is not None:
            await h.slash(p.user.id, "augsburg me daily", at=p.daily)
    host = PEOPLE[0].user.id
    table = (await h.slash(host, "augsburg new")).answer.message_id
    for p in PEOPLE[1:]:
        await h.click(p.user.id, table, label="Join")
    await h.click(host, table, label="Start game")
    return table


def act_time(person: Person, now: float, rnd: random.Random) -> float:
    """When a person gets to a decision that came up at `now`: a delay after it (or after their hours begin),
    always inside their hours."""
    start = person.hours.back_at(now) or now
    at = start + rnd.randint(5, 45) * 60
    if not person.hours.inside(at):  # their window closed first: early in the next one
        at = (person.hours.back_at(at) or at) + rnd.randint(5, 20) * 60
    return at


async def play_days(seed: int = 7, max_days: int = 60) -> dict[str, object]:
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp(prefix="hours-days-"))
    clock = ManualClock(MONDAY + 10 * HOUR)
    bot = make_bot(folder / "bot.sqlite3", clock=clock, turn_timeout_seconds=12 * HOUR)
    h = await Harness.create(bot, users=[p.user for p in PEOPLE], ignore=(long_lived,))
    members = [p.user.id for p in PEOPLE]
    rnd, seen = random.Random(seed), PublicRecord()
    figures = {"decisions": 0, "stand_in": 0, "stand_in_outside": 0, "pings": 0, "pings_outside": 0,
               "daily_words": 0, "heads_ups": 0, "reminders": 0, "skipped": 0}
    try:
        table = await seat_everyone(h)
        game_id = game(h).id
        plans: dict[int, tuple[str, float | None]] = {}  # person -> (their decision, when they act; None: skip)
        counted_messages: set[int] = set()
        told_moves = 0
        scheduler = h.bot.get_cog("Augsburg").scheduler
        while game(h) is not None and clock.now() < MONDAY + max_days * DAY:
            record = game(h)
            for user in due_people(h):
                key = service(h).games.decision(record, str(user)).key
                if plans.get(user, ("",))[0] != key:
                    skip = rnd.random() < BY_ID[user].skips
                    figures["skipped"] += skip
                    plans[user] = (key, None if skip else act_time(BY_ID[user], clock.now(), rnd))
            for p in PEOPLE:  # a seat the computer took over: its person comes back in their hours
                if record.table.seat(str(p.user.id)).stand_in and plans.get(p.user.id, ("",))[0] != "back":
                    plans[p.user.id] = ("back", act_time(p, clock.now(), rnd))
            acts = [(at, user) for user, (_, at) in plans.items() if at is not None]
            earliest = await service(h).deadlines.deadlines(limit=1)
            wake = min([at for at, _ in acts] + [d.due_at for d in earliest] + [clock.now() + DAY])
            if wake > clock.now():
                clock.advance(wake - clock.now())
            await run_in(h, scheduler.run_due())
            now = clock.now()
            for at, user in sorted(acts):
                record = game(h)
                if at > now or record is None:
                    continue
                key, _ = plans.pop(user)
                assert BY_ID[user].hours.inside(now), "the simulated people act only inside their hours"
                if key == "back":
                    if record.table.seat(str(user)).stand_in:
                        await h.slash(user, "augsburg seat back")
                elif user in due_people(h) and service(h).games.decision(record, str(user)).key == key:
                    await take(h, user, table, rnd)
                    figures["decisions"] += 1
            # What reached whom, and when: every message created since, in the channel and in DMs.
            for m in [*h.posted_in().values(), *(x for p in PEOPLE for x in h.dm_messages(p.user.id).values())]:
                if m.id in counted_messages:
                    continue
                counted_messages.add(m.id)
                for user in {m.owner_id} if m.in_dm else m.notified(members):  # a DM reaches its reader
                    figures["pings"] += 1
                    figures["pings_outside"] += not BY_ID[user].hours.inside(now) and "☀️" not in m.content
                if m.in_dm and "Heads-up" in m.content:
                    figures["heads_ups"] += 1
                if m.in_dm and "☀️" in m.content:
                    figures["daily_words"] += 1
                if m.content.startswith("⏰"):
                    figures["reminders"] += 1
            logged = await service(h).core.store.log.moves_since(game_id, told_moves)
            for move in logged:
                told_moves = max(told_moves, move.move)
                if move.actor in ("clock", "stand_in") and move.player.isdigit():
                    figures["stand_in"] += 1
                    figures["stand_in_outside"] += not BY_ID[int(move.player)].hours.inside(now)
            if rnd.random() < 0.02:
                check_no_leak(h, await seen.update(h))
        finished = await service(h).games.game(game_id)
        figures["status"] = finished.status
        figures["days"] = round((clock.now() - (MONDAY + 10 * HOUR)) / DAY, 2)
        h.assert_no_errors()
        return figures
    finally:
        await h.close()


async def take(h: Harness, user: int, table: int, rnd: random.Random) -> None:
    from support.bot_support import take_a_decision

    await take_a_decision(h, user, table, rnd)


async def test_five_people_in_five_zones_play_a_whole_game_over_days_inside_their_hours():
    figures = await play_days()
    print(f"\nissue 43 multi-day game: {figures}")
    assert figures["status"] == "finished"
    assert figures["pings_outside"] == 0, "a ping, reminder or heads-up reached someone outside their hours"
    assert figures["stand_in_outside"] == 0, "a stand-in decided for someone outside their hours"
    assert figures["skipped"] > 0 and figures["stand_in"] > 0  # the clock did run out, inside the hours
    assert figures["pings"] > 0 and figures["daily_words"] > 0 and figures["heads_ups"] > 0
    assert figures["days"] > 1


async def test_hours_never_stall_a_table_longer_than_the_bound(tmp_path):
    """One hour a day on a 72-hour clock would be 72 days: the bound holds every decision to three days of
    real time, ending at the close of a window."""
    clock = ManualClock(MONDAY + 10 * HOUR)
    bot = make_bot(tmp_path / "bot.sqlite3", clock=clock, turn_timeout_seconds=72 * HOUR)
    ada, ben = FakeUser(2001, "Ada"), FakeUser(2002, "Ben")
    h = await Harness.create(bot, users=[ada, ben], ignore=(long_lived,))
    try:
        await h.slash(ada.id, "augsburg me hours", zone="UTC", start=20, end=21)
        table = (await h.slash(ada.id, "augsburg new")).answer.message_id
        await h.click(ben.id, table, label="Join")
        start = clock.now()
        await h.click(ada.id, table, label="Start game")
        timeouts = await service(h).games.timeouts(game(h))
        hours = Hours("UTC", 20, 21)
        assert start + 2 * DAY < timeouts[str(ada.id)] <= start + BOUND and hours.inside(timeouts[str(ada.id)])
        assert timeouts[str(ben.id)] == start + 72 * HOUR
    finally:
        await h.close()
