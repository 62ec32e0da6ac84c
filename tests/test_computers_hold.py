"""The computers' runner keeps the game parsed while its turns follow each other a moment apart
(issue 44): each turn found the game gone cold and parsed it again, a tenth of the bot's time under load."""

from __future__ import annotations

import asyncio
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
        while runner.tasks.get(CHANNEL) is not None:
            await asyncio.sleep(0.01)
        record = await service.games.current(CHANNEL)
        assert record is not None and record.state is not None
        assert len(moved) >= 2 and set(to_act(record.state)) == {"101"}  # both computers moved, Ada is due
        assert CHANNEL not in parsed, "a computer's turn parsed its game again"
        assert set(parsed) & set(OTHERS), "the other tables did push it out of the games kept parsed"
        assert not service.core._games._held  # let go once the computers are done
    finally:
        await service.close()
