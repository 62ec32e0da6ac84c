"""End to end: `python -m bot` as a subprocess against the fake Discord's loopback server and gateway (issue 4)."""

from __future__ import annotations

import asyncio
import os
import sys

from conftest import ROOT
from support.fake_discord import FakeDiscord, FakeUser, stop_process

GUILD_ID, CHANNEL_ID = 710_000_000_000_000_001, 710_000_000_000_000_002
ALICE, BOB = 710_000_000_000_000_101, 710_000_000_000_000_102


async def test_the_bot_connects_registers_and_answers_new_join_and_start(tmp_path):
    log = tmp_path / "bot.log"
    users = [FakeUser(ALICE, "Alice"), FakeUser(BOB, "Bob")]
    async with FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL_ID, users=users, token="e2e-token") as fake:
        env = {
            **os.environ,
            **fake.env(),
            "DATABASE_PATH": str(tmp_path / "e2e.sqlite3"),
            "DISCORD_GUILD_ID": str(GUILD_ID),
            "TABLE_EDIT_DELAY": "0.1",
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
        }
        with log.open("wb") as out:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", env=env, cwd=tmp_path, stdout=out, stderr=asyncio.subprocess.STDOUT
            )
        try:
            identify = await fake.wait_for_ready(timeout=30)
            assert identify["token"] == "e2e-token"
            assert fake.gateway.connections[0].get("compress") in ("zlib-stream", "zstd-stream")
            (augsburg,) = [c for c in fake.commands[GUILD_ID] if c["name"] == "augsburg"]
            assert {o["name"] for o in augsburg["options"]} >= {"new", "hand", "status", "rules", "cancel"}

            new = await fake.slash(ALICE, "augsburg new")
            assert new.response.kind == "response" and "new table" in new.response.embeds[0]["title"]
            table = new.response.message_id
            joined = await fake.click(BOB, table, label="Join")
            assert joined.response.kind == "update"  # the lobby message is updated in place
            seats = joined.response.embeds[0]["fields"][0]["value"]
            assert "1." in seats and "2." in seats
            started = await fake.click(ALICE, table, label="Start game")
            assert "round 1 of" in started.response.embeds[0]["title"]
            panel = await fake.click(BOB, table, label="My hand & actions")
            assert panel.response.ephemeral and "Your money" in panel.response.content
            assert fake.problems == [] and fake.unknown_requests == []
        except BaseException:
            print(log.read_text(errors="replace")[-4000:])
            raise
        finally:
            await stop_process(proc, 10)
