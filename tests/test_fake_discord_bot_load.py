"""The load benchmark's setup, in small: ``python -m bot`` against a rate-limited fake with many channels
and only counters kept, games opened and started in every channel at once."""

from __future__ import annotations

import asyncio
import os
import sys

from conftest import ROOT
from support.fake_discord import FakeDiscord, FakeUser, stop_process

GUILD_ID = 720_000_000_000_000_001
PLAYERS = [FakeUser(720_000_000_000_000_100 + n, f"P{n}") for n in range(60)]


async def a_game(fake: FakeDiscord, channel_id: int, players: list[FakeUser]) -> list[float]:
    new = await fake.slash(players[0].id, "augsburg new", channel_id=channel_id)
    table = new.answer.message_id
    joins = [await fake.click(p.id, table, label="Join") for p in players[1:]]
    started = await fake.click(players[0].id, table, label="Start game")
    panel = await fake.click(players[1].id, table, label="My hand & actions")
    assert "round 1 of" in started.answer.embeds[0]["title"] and panel.answer.ephemeral
    return [r.latency for r in (new, *joins, started, panel)]


async def test_the_real_bot_plays_in_twenty_channels_at_once_within_discords_limits(tmp_path) -> None:
    fake = FakeDiscord(
        guild_id=GUILD_ID, users=PLAYERS, channels=20, rate_limits=True, record_requests=False,
        keep_outputs=1000, token="bench-token",
    )  # fmt: skip
    async with fake:
        env = {**os.environ, **fake.env(), "DATABASE_PATH": str(tmp_path / "bench.sqlite3"), "PYTHONPATH": str(ROOT),
               "DISCORD_GUILD_ID": str(GUILD_ID), "TABLE_EDIT_DELAY": "0.1", "COMPUTER_DELAY": "0"}  # fmt: skip
        with (tmp_path / "bot.log").open("wb") as log:
            proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", env=env, cwd=tmp_path, stderr=log)
        try:
            await fake.wait_for_ready(timeout=30)
            games = [a_game(fake, c, PLAYERS[3 * n : 3 * n + 3]) for n, c in enumerate(fake.channel_ids)]
            latencies = [x for game in await asyncio.gather(*games) for x in game]
            stats = fake.stats()
            assert len(latencies) == 20 * 5 and max(latencies) < 3.0, sorted(latencies)[-5:]
            assert fake.problems == [] and stats["rate_limited"] == 0 and stats["invalid"] == 0
            assert stats["interaction_token"] >= 100 and stats["busiest_channel_ops"] <= 5 and fake.requests == []
        except BaseException:
            print((tmp_path / "bot.log").read_text(errors="replace")[-4000:])
            raise
        finally:
            await stop_process(proc, 10)
