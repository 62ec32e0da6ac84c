"""The bot's own pacing keeps within Discord's limits: so many operations per channel per window, and a
shared rate for all (issue 11). Short windows stand in for Discord's 5 per 5 s."""

from __future__ import annotations

import asyncio
import time

from bot.discord_app.pacing import Pacing


async def timed(pacing: Pacing, channels: list[int]) -> list[float]:
    start = time.monotonic()
    times = []

    async def op(channel: int) -> None:
        await pacing.turn(channel)
        times.append(time.monotonic() - start)

    await asyncio.gather(*(op(c) for c in channels))
    return sorted(times)


async def test_no_more_than_so_many_operations_per_window_in_one_channel():
    times = await timed(Pacing(rate=1000, per_channel=2, window=0.2), [1] * 6)
    for i in range(len(times) - 2):  # any 3 operations in a row span at least one window
        assert times[i + 2] - times[i] >= 0.19
    assert times[-1] >= 0.38


async def test_channels_are_paced_apart_but_share_the_overall_rate():
    apart = await timed(Pacing(rate=1000, per_channel=2, window=30.0), [1, 1, 2, 2, 3, 3])
    assert apart[-1] < 15  # two operations in each of three channels: none waited for the 30 s window
    shared = await timed(Pacing(rate=20, per_channel=100, window=1.0), list(range(45)))
    for i in range(len(shared) - 20):  # never more than 20 within any one second, as Discord counts
        assert shared[i + 20] - shared[i] >= 0.99
    assert shared[-1] >= 1.99
