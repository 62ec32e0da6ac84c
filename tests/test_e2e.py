"""End to end: `python -m bot` as a subprocess against a small fake Discord on 127.0.0.1 (issue 4)."""

from __future__ import annotations

import asyncio
import os
import sys

from conftest import ROOT
from fake_discord import FakeDiscord, stop_process

GUILD_ID, CHANNEL_ID = 710_000_000_000_000_001, 710_000_000_000_000_002
ALICE, BOB = 710_000_000_000_000_101, 710_000_000_000_000_102


async def test_the_bot_connects_registers_and_answers_new_and_join(tmp_path):
    log = tmp_path / "bot.log"
    async with FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL_ID, users=[ALICE, BOB], token="e2e-token") as fake:
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
            commands = await fake.wait_for_commands(guild_id=GUILD_ID, timeout=30)
            augsburg = next(c for c in commands if c["name"] == "augsburg")
            assert {o["name"] for o in augsburg["options"]} >= {"new", "hand", "status", "rules", "cancel"}

            new = await fake.wait_for_callback(
                await fake.send_interaction(fake.slash(ALICE, "augsburg", "new")), timeout=10
            )
            assert new.callback_type == 4
            lobby = new.message
            assert "new table" in lobby["embeds"][0]["title"]
            join_id = next(c for c in new.custom_ids if c.endswith(":join"))

            joined = await fake.wait_for_callback(
                await fake.send_interaction(fake.click(BOB, lobby, join_id)), timeout=10
            )
            assert joined.callback_type == 7  # the lobby message is updated in place
            seats = joined.message["embeds"][0]["fields"][0]["value"]
            assert "1." in seats and "2." in seats
            assert fake.problems == []
        except BaseException:
            print(log.read_text(errors="replace")[-4000:])
            raise
        finally:
            await stop_process(proc, 10)
