"""Every feature at once (issue 41, point 5): what the stateful test of the game service found, as plain
regression tests (the machine itself follows)."""

from __future__ import annotations

from support.clock import ManualClock

from bot.service import GameService, Timing
from engine import to_act
from storage import Seat

CHANNEL, GUILD, HOUR = 700, 7, 3600
TIMING = Timing(turn_seconds=HOUR, reminder_seconds=HOUR / 4)


# --- what the machine found, as plain regression tests


async def test_the_bot_moves_a_computer_due_after_the_game_left_the_cache(database):
    """Found by the machine: once the game was dropped from memory (core.forget: another process wrote, or a
    write failed), play_computer said nobody was due, although computers were: the bot's runner stopped until
    a computer's marker fired (the terminal has none). It reads the stored game, as every request does."""
    service = await GameService.open(database, clock=ManualClock(), timing=TIMING)
    try:
        opened = await service.lobby.open_table(GUILD, CHANNEL, Seat(id="101", name="Ada"))
        for _ in range(2):
            await service.lobby.add_computer(CHANNEL, opened.record.id, "101")
        record = (await service.lobby.start(CHANNEL, opened.record.id, "101", seed=0)).record
        assert {"ai1", "ai2"} <= set(to_act(record.state))  # the first purchase: everyone at once
        service.core.forget(CHANNEL)
        outcome = await service.decisions.play_computer(CHANNEL)
        assert outcome is not None and outcome.ok and outcome.player in ("ai1", "ai2")
        assert len(await service.core.store.log.played(record.id)) == 1
    finally:
        await service.close()
