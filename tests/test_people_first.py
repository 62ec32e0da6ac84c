"""People first (issue 44): the bot's background work (computers' turns, live panels' redraws, tables' edits)
waits while the event loop is behind with what it is asked, and never longer than its limit.

The loop is kept behind by a task whose every step works for 30 ms of the thread's CPU, six times BEHIND: on
a machine of any speed or load each pass of the loop then takes longer than BEHIND, so what is asserted does
not depend on timing. A step that only sleeps (the machine busy elsewhere, not the loop) does not hold
background work back.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from support.clock import ManualClock

from bot.discord_app import people_first
from bot.discord_app.computers import ComputerRunner
from bot.discord_app.people_first import after_people
from bot.service import GameService, Outcome, Timing
from engine import to_act
from storage import Seat

STEP = 0.03  # seconds of CPU each step of the busy task works without letting the loop go


def _work(seconds: float) -> None:
    """Work on the loop's thread for `seconds` of its CPU (as a panel's drawing does, not letting the loop go)."""
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


async def _busy(steps: int, done: list[str]) -> None:
    for _ in range(steps):
        _work(STEP)
        await asyncio.sleep(0)
    done.append("busy")


async def _background(done: list[str], longest: float | None = None) -> None:
    await after_people(longest)
    done.append("background")


async def test_background_goes_at_once_on_a_loop_that_keeps_up() -> None:
    count = people_first.WAITED.count
    await after_people()
    assert people_first.WAITED.count == count  # it did not wait: nothing was in front of it


async def test_a_loop_that_only_waits_for_the_machine_holds_nothing_back() -> None:
    done: list[str] = []

    async def descheduled() -> None:  # each step blocked as long, but the loop's thread does no work
        for _ in range(8):
            time.sleep(STEP)
            await asyncio.sleep(0)
        done.append("stretched")

    stretched = asyncio.create_task(descheduled())
    await asyncio.sleep(0)
    await asyncio.gather(_background(done, longest=60.0), stretched)
    assert done == ["background", "stretched"]


async def test_background_waits_until_the_loop_has_caught_up(monkeypatch) -> None:
    done: list[str] = []
    told: list[float] = []
    monkeypatch.setattr(people_first.WAITED, "told", told.append)
    count, longest = people_first.WAITED.count, people_first.WAITED.longest
    busy = asyncio.create_task(_busy(8, done))
    await asyncio.sleep(0)  # the busy task is running: the loop is behind from now on
    await asyncio.gather(_background(done, longest=60.0), busy)
    assert done == ["busy", "background"]
    # counted for the operator: one more wait, of at least the busy steps it waited behind, told to the metrics
    assert people_first.WAITED.count == count + 1 and people_first.WAITED.longest >= max(longest, 5 * STEP)
    assert len(told) == 1 and told[0] >= 5 * STEP


async def test_background_waits_no_longer_than_its_limit() -> None:
    done: list[str] = []
    at_limit = people_first.WAITED.at_limit
    busy = asyncio.create_task(_busy(200, done))  # six seconds of a loop that never catches up
    await asyncio.sleep(0)
    try:
        await _background(done, longest=0.2)
        assert done == ["background"]  # it went on, late, while the loop was still behind
        assert people_first.WAITED.at_limit == at_limit + 1
    finally:
        busy.cancel()
        await asyncio.gather(busy, return_exceptions=True)


async def test_what_waits_goes_in_order_once_the_loop_keeps_up() -> None:
    done: list[str] = []
    busy = asyncio.create_task(_busy(8, done))
    await asyncio.sleep(0)
    waiting = [asyncio.create_task(_background(done, longest=60.0)) for _ in range(3 * people_first.BATCH)]
    await asyncio.gather(busy, *waiting)
    assert done == ["busy"] + ["background"] * len(waiting)


async def test_work_cancelled_while_waiting_lets_the_rest_go() -> None:
    done: list[str] = []
    busy = asyncio.create_task(_busy(4, done))
    await asyncio.sleep(0)
    first = asyncio.create_task(_background(done, longest=60.0))
    second = asyncio.create_task(_background(done, longest=60.0))
    await asyncio.sleep(0)
    first.cancel()  # (a cog unloading cancels its computers' turns)
    await asyncio.gather(busy, second)
    assert first.cancelled() and done == ["busy", "background"]


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_the_computers_move_after_the_clicks_in_front_of_them(database, monkeypatch):
    """With the bot: a table whose two computers are due, while people's clicks keep the loop behind. The
    computers' turns wait for the clicks, then both move, and their person is due (the game goes on)."""
    monkeypatch.setattr(people_first, "LONGEST", 60.0)  # (a slow machine stretches the clicks' CPU)
    service = await GameService.open(database, clock=ManualClock(), timing=Timing(turn_seconds=None))
    done: list[str] = []

    async def moved(outcome: Outcome) -> None:
        done.append("computer")

    runner = ComputerRunner(service, moved, delay=0.0)
    try:
        opened = await service.lobby.open_table(7, 700, Seat(id="101", name="Ada"))
        for _ in range(2):
            await service.lobby.add_computer(700, opened.record.id, "101")
        await service.lobby.start(700, opened.record.id, "101", seed=700)  # (a seed where the computers begin)
        clicks = asyncio.create_task(_busy(8, done))
        await asyncio.sleep(0)
        runner.schedule(700, at_once=True)
        await clicks
        while runner.busy(700):
            await asyncio.sleep(0.01)
        record = await service.games.current(700)
        assert record is not None and record.state is not None
        assert done == ["busy", "computer", "computer"] and set(to_act(record.state)) == {"101"}
    finally:
        await runner.close()
        await service.close()


async def test_an_older_panel_is_told_it_moved_after_the_clicks_in_front_of_it(monkeypatch):
    """Opening a new panel tells the older one it has moved (live.py): an edit nobody waits for, which waits
    for the clicks that keep the loop behind, and then is made."""
    from bot.discord_app import live

    monkeypatch.setattr(people_first, "LONGEST", 60.0)
    done: list[str] = []

    async def edited(client, token, content, view, embed) -> None:
        done.append(f"{token}: {content}")

    monkeypatch.setattr(live, "edit_original", edited)
    panels = live.LivePanels(None, None)  # type: ignore[arg-type]  (retiring uses neither)
    key = (7, "101")
    panels._panels[key] = ("new-token", 900.0, 0.0, 2, (), "en")  # the newer panel, in message 2
    clicks = asyncio.create_task(_busy(8, done))
    await asyncio.sleep(0)
    await panels._retire(key, ("old-token", 900.0, 0.0, 1, (), "en"))
    await clicks
    assert done == ["busy", "old-token: This panel has moved: your newer one below is the one that follows the game."]
    # A click on the older panel while it waited made it the one that follows the game again: it stays.
    panels._panels[key] = ("click-token", 900.0, 0.0, 1, (), "en")
    await panels._retire(key, ("old-token", 900.0, 0.0, 1, (), "en"))
    assert len(done) == 2


async def test_a_ping_put_off_goes_out_after_the_clicks_in_front_of_it(monkeypatch):
    """A ping put off while its player watched their panel (presenter.py) goes out when its deadline fires,
    minutes late by design: after the clicks that keep the loop behind."""
    from types import SimpleNamespace

    from bot.discord_app.upkeep import Upkeep

    monkeypatch.setattr(people_first, "LONGEST", 60.0)
    done: list[str] = []

    async def ping_now(record, players) -> None:
        done.append(f"ping {sorted(players)}")

    stored = {700: (7, 12)}  # channel: (game, version) as the bot holds it now
    service = SimpleNamespace(games=SimpleNamespace(cached_version=stored.get))
    upkeep = Upkeep(None, service, SimpleNamespace(ping_now=ping_now), None, None)  # type: ignore[arg-type]
    record = SimpleNamespace(id=7, version=12, channel_id=700)
    clicks = asyncio.create_task(_busy(8, done))
    await asyncio.sleep(0)
    await upkeep._ping_late(SimpleNamespace(player="101"), record)  # type: ignore[arg-type]
    await clicks
    assert done == ["busy", "ping ['101']"]
    # A move while it waited: not sent from the older state (its row, put off a minute, fires again).
    stored[700] = (7, 13)
    await upkeep._ping_late(SimpleNamespace(player="101"), record)  # type: ignore[arg-type]
    assert done == ["busy", "ping ['101']"]
