"""The bot lets go of discord.py's rate-limit buckets of channels it no longer writes to (issue 44: at 5,000
live games they were a tenth of what every full garbage collection walked), and Discord's limits still hold:
a bucket with a window running or a request in flight or waiting is kept, and a channel written to again after
its bucket went is never answered 429."""

from __future__ import annotations

import asyncio

import pytest
from support.bot_support import ADA
from support.fake_discord import FakeUser, Harness
from support.ratelimits import RateLimits
from support.toy_bot import ToyBot

from bot.app.buckets import FORGETTING_TASK, forget_idle, keep_forgetting

PERIOD = 1.0  # s: each channel's window of five messages, in the fake Discord


def _buckets_of(h: Harness, channel_id: int) -> list[str]:
    """The keys of the channel's buckets (a channel written to first is known by its route too)."""
    return [key for key in h.bot.http._buckets if key.endswith(f":{channel_id}")]


async def test_idle_buckets_go_busy_ones_stay_and_discords_limits_still_hold() -> None:
    h = await Harness.create(ToyBot(), users=[FakeUser(ADA, "Ada")], channels=2,
                             rate_limits=RateLimits(message_period=PERIOD))
    try:
        quiet, busy = (h.bot.get_channel(c) for c in h.channel_ids)
        await quiet.send("one")
        assert _buckets_of(h, quiet.id)
        assert forget_idle(h.bot.http, idle=0.0) == 0 and _buckets_of(h, quiet.id), "gone inside its window"
        sending = asyncio.gather(*(busy.send(f"post {n}") for n in range(7)))  # two wait for the window
        for _ in range(100):
            if any(h.bot.http._buckets[key]._pending_requests for key in _buckets_of(h, busy.id)):
                break
            await asyncio.sleep(0.01)
        else:
            pytest.fail("no request of the busy channel ever waited for its window")
        await asyncio.sleep(PERIOD + 0.2)  # the quiet channel's window is over; the busy one's runs again
        assert forget_idle(h.bot.http, idle=30.0) == 0, "a bucket used within the last half minute went"
        assert forget_idle(h.bot.http, idle=0.0) >= 1
        assert not _buckets_of(h, quiet.id), "an idle bucket, its window over, was kept"
        assert _buckets_of(h, busy.id), "a bucket with requests waiting or its window running went"
        await sending
        await asyncio.gather(*(quiet.send(f"again {n}") for n in range(7)))  # a fresh bucket learns the limit
        stats = h.stats()
        assert stats["rate_limited"] == 0 and stats["busiest_channel_ops"] == 5
        assert len([m for m in h.channel_messages.values() if m.channel_id == quiet.id]) == 8
    finally:
        await h.close()


async def test_the_bot_forgets_idle_buckets_as_long_as_it_runs(harness) -> None:
    """Every bot keeps the upkeep running from its setup, and the loop forgets what is idle."""
    task = harness.bot.forgetting
    assert task is not None and task.get_name() == FORGETTING_TASK and not task.done()
    channel = harness.bot.get_channel(harness.channel_id)
    await channel.send("hello")
    assert _buckets_of(harness, channel.id)
    loop = asyncio.get_running_loop().create_task(keep_forgetting(harness.bot.http, every=0.05, idle=0.0))
    try:
        for _ in range(100):
            if not _buckets_of(harness, channel.id):
                break
            await asyncio.sleep(0.05)
        assert not _buckets_of(harness, channel.id), "the loop never forgot the idle bucket"
    finally:
        loop.cancel()
