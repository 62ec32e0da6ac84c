"""The computers' runner keeps the game parsed while its turns follow each other a moment apart
(issue 44): each turn found the game gone cold and parsed it again, a tenth of the bot's time under load."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import cast

import pytest
from support.clock import ManualClock

import bot.service.cache as caching
from bot.discord_app.computers import ComputerRunner
from bot.service import GameService, Outcome, Timing
from engine import to_act
from storage import Seat

GUILD, CHANNEL, OTHERS = 7, 700, range(800, 806)


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_the_computers_turns_find_their_game_parsed_and_let_it_go_after(database, monkeypatch):
    service = await GameService.open(database, clock=ManualClock(), timing=Timing(turn_seconds=None))
    service.core._games = caching.GameCache(hot=2)
    parsed: list[int] = []
    full = caching.full

    def parsing(kept: caching.Kept):
        parsed.append(cast(int, kept[0][caching.PLAIN.index("channel_id")]))
        return full(kept)

    monkeypatch.setattr(caching, "full", parsing)
    moved: list[Outcome] = []

    async def busy_elsewhere(outcome: Outcome) -> None:  # between two turns, other tables are played
        moved.append(outcome)
        for channel in OTHERS:
            await service.games.current(channel)

    try:
        for channel in (CHANNEL, *OTHERS):  # a table of two computers, and six tables of people
            opened = await service.lobby.open_table(GUILD, channel, Seat(id="101", name="Ada"))
            if channel == CHANNEL:
                for _ in range(2):
                    await service.lobby.add_computer(channel, opened.record.id, "101")
            else:
                await service.lobby.join(channel, opened.record.id, Seat(id="102", name="Ben"))
            await service.lobby.start(channel, opened.record.id, "101", seed=channel)
        runner = ComputerRunner(service, busy_elsewhere, delay=0.01)
        await service.games.current(CHANNEL)  # as after the move that made the computers due: in use
        parsed.clear()
        runner.schedule(CHANNEL)
        while runner.busy(CHANNEL):
            await asyncio.sleep(0.01)
        record = await service.games.current(CHANNEL)
        assert record is not None and record.state is not None
        assert len(moved) >= 2 and set(to_act(record.state)) == {"101"}  # both computers moved, Ada is due
        assert CHANNEL not in parsed, "a computer's turn parsed its game again"
        assert set(parsed) & set(OTHERS), "the other tables did push it out of the games kept parsed"
        assert not service.core._games._held  # let go once the computers are done
    finally:
        await service.close()


class _Games:
    def __init__(self) -> None:
        self.held: set[int] = set()

    def hold(self, channel_id: int) -> None:
        self.held.add(channel_id)

    def release(self, channel_id: int) -> None:
        self.held.discard(channel_id)


async def test_a_move_made_while_a_computer_looked_is_looked_at_again():
    """A person's move that lands while the computers' runner is finding out whether a computer is due (and
    finds none: it looked before that move) makes the runner look again, rather than leave the table waiting."""
    looking, answer = asyncio.Event(), asyncio.Event()
    looks: list[int] = []

    async def play_computer(channel_id: int):
        looks.append(channel_id)
        if len(looks) == 1:
            looking.set()
            await answer.wait()
        return None  # no computer due (at the first look, the move had not landed)

    games = _Games()
    service = cast(GameService, SimpleNamespace(games=games, decisions=SimpleNamespace(play_computer=play_computer)))
    runner = ComputerRunner(service, lambda outcome: asyncio.sleep(0), delay=0.01)
    runner.schedule(CHANNEL)
    await asyncio.wait_for(looking.wait(), 5)
    runner.schedule(CHANNEL)  # the move that landed meanwhile
    answer.set()
    for _ in range(500):
        if not runner.busy(CHANNEL):
            break
        await asyncio.sleep(0.01)
    assert looks == [CHANNEL, CHANNEL], "the runner did not look again after the move made during its look"
    assert not games.held
    await runner.close()


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_tables_waiting_for_their_computers_are_no_tasks_and_stop_with_the_cog(database):
    """Hundreds of tables wait for a computer's moment at once under load: each waits on a timer, not on a
    task of its own (a dozen objects for the garbage collector each); closing the runner stops them all, and
    no computer moves after it."""
    service = await GameService.open(database, clock=ManualClock(), timing=Timing(turn_seconds=None))
    moved: list[Outcome] = []

    async def on_move(outcome: Outcome) -> None:
        moved.append(outcome)

    try:
        channels = range(900, 910)
        for channel in channels:
            opened = await service.lobby.open_table(GUILD, channel, Seat(id="101", name="Ada"))
            await service.lobby.add_computer(channel, opened.record.id, "101")
            await service.lobby.start(channel, opened.record.id, "101", seed=channel)
        runner = ComputerRunner(service, on_move, delay=0.2)
        before = len(asyncio.all_tasks())
        for channel in channels:
            runner.schedule(channel)
        assert all(runner.busy(channel) for channel in channels)
        assert len(asyncio.all_tasks()) == before, "a table waiting for its computer has a task of its own"
        assert service.core._games._held == set(channels)  # parsed for the turns to come
        await runner.close()
        assert not any(runner.busy(channel) for channel in channels)
        assert not service.core._games._held
        await asyncio.sleep(0.4)  # past the moment they waited for
        assert not moved, "a computer moved after the runner was closed"
    finally:
        await service.close()


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_each_computer_moves_a_moment_after_the_move_before(database):
    """Two computers at a table: the first moves a moment after it is asked, the second a moment after the
    first, and the runner lets the table go once a person is due."""
    service = await GameService.open(database, clock=ManualClock(), timing=Timing(turn_seconds=None))
    moved: list[float] = []
    loop = asyncio.get_running_loop()

    async def on_move(outcome: Outcome) -> None:
        moved.append(loop.time())

    try:
        opened = await service.lobby.open_table(GUILD, CHANNEL, Seat(id="101", name="Ada"))
        for _ in range(2):
            await service.lobby.add_computer(CHANNEL, opened.record.id, "101")
        await service.lobby.start(CHANNEL, opened.record.id, "101", seed=CHANNEL)
        runner = ComputerRunner(service, on_move, delay=0.1)
        asked = loop.time()
        runner.schedule(CHANNEL)
        for _ in range(500):
            if not runner.busy(CHANNEL):
                break
            await asyncio.sleep(0.01)
        record = await service.games.current(CHANNEL)
        assert record is not None and record.state is not None
        assert len(moved) == 2 and set(to_act(record.state)) == {"101"}
        assert moved[0] - asked >= 0.1 and moved[1] - moved[0] >= 0.1  # each a moment after the one before
        assert not runner.busy(CHANNEL)
    finally:
        await service.close()
