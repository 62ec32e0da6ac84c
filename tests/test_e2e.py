"""End to end: `python -m bot` as a subprocess against the fake Discord's loopback server and gateway (issue 4)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
import time

from conftest import ROOT
from support.fake_discord import FakeDiscord, FakeUser, HarnessError, stop_process

GUILD_ID, CHANNEL_ID = 710_000_000_000_000_001, 710_000_000_000_000_002
ALICE, BOB = 710_000_000_000_000_101, 710_000_000_000_000_102


@contextlib.asynccontextmanager
async def running_bot(fake, tmp_path, database: str | None = None, **settings: str):
    """`python -m bot` against the fake (on `database`, a DATABASE_URL; default a SQLite file); its log is
    printed if the test fails."""
    log = tmp_path / "bot.log"
    env = {**os.environ, **fake.env(), "DATABASE_PATH": str(tmp_path / "e2e.sqlite3"),
           **({"DATABASE_URL": database} if database else {}),
           "DISCORD_GUILD_ID": str(GUILD_ID), "TABLE_EDIT_DELAY": "0.1", "PYTHONPATH": str(ROOT),
           "PYTHONUNBUFFERED": "1", **settings}
    with log.open("wb") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env, cwd=tmp_path, stdout=out, stderr=asyncio.subprocess.STDOUT
        )
    try:
        yield proc
    except BaseException:
        print(log.read_text(errors="replace")[-4000:])
        raise
    finally:
        await stop_process(proc, 10)


async def test_the_bot_connects_registers_and_answers_new_join_and_start(tmp_path, database):
    users = [FakeUser(ALICE, "Alice"), FakeUser(BOB, "Bob")]
    async with FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL_ID, users=users, token="e2e-token") as fake:
        async with running_bot(fake, tmp_path, database):
            identify = await fake.wait_for_ready(timeout=30)
            assert identify["token"] == "e2e-token"
            assert fake.gateway.connections[0].get("compress") in ("zlib-stream", "zstd-stream")
            (augsburg,) = [c for c in fake.commands[GUILD_ID] if c["name"] == "augsburg"]
            assert {o["name"] for o in augsburg["options"]} >= {"new", "hand", "status", "rules", "cancel"}

            new = await fake.slash(ALICE, "augsburg new")
            assert new.answer.kind == "response" and "new table" in new.answer.embeds[0]["title"]
            table = new.answer.message_id
            joined = await fake.click(BOB, table, label="Join")
            assert joined.answer.kind == "update"  # the lobby message is updated in place
            seats = joined.answer.embeds[0]["fields"][0]["value"]
            assert "1." in seats and "2." in seats
            started = await fake.click(ALICE, table, label="Start game")
            assert "round 1 of" in started.answer.embeds[0]["title"]
            panel = await fake.click(BOB, table, label="My hand & actions")
            assert panel.answer.ephemeral and "Your money" in panel.answer.content
            assert fake.problems == [] and fake.unknown_requests == []


async def a_decision(fake, user: int, table: int, rnd: random.Random) -> bool:
    """Open the private panel and take one of its decisions, as a player would; False if none is due."""
    try:
        panel = (await fake.click(user, table, label="My hand & actions")).answer
    except HarnessError:  # the game has just ended: the table has no button any more
        return False
    if panel is None or not panel.ephemeral:
        return False
    buttons = [b for b in panel.buttons() if b["custom_id"].startswith("aug:do:") and not b.get("disabled")]
    choices = buttons + panel.selects()
    if not choices:
        return False
    choice = rnd.choice(choices)
    if choice.get("type") == 2:
        await fake.click(user, panel.message_id, choice["custom_id"])
        return True
    values = [o["value"] for o in choice["options"]]
    picked = rnd.sample(values, rnd.randint(choice.get("min_values", 1), choice.get("max_values", 1)))
    await fake.select(user, panel.message_id, choice["custom_id"], picked)  # a menu decides at once
    return True


async def test_a_silent_player_cannot_stall_the_real_bot(tmp_path):
    """The black-box check of issue 10: 3-second turns, one of three players never clicks anything."""
    carol = 710_000_000_000_000_103
    users = [FakeUser(ALICE, "Alice"), FakeUser(BOB, "Bob"), FakeUser(carol, "Carol")]
    async with FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL_ID, users=users, token="e2e-token") as fake:
        async with running_bot(fake, tmp_path, COMPUTER_DELAY="0", TURN_TIMEOUT_SECONDS="3", REMINDER_SECONDS="1"):
            await fake.wait_for_ready(timeout=30)
            table = (await fake.slash(ALICE, "augsburg new")).answer.message_id
            for user in (BOB, carol):
                await fake.click(user, table, label="Join")
            await fake.click(ALICE, table, label="Start game")
            rnd = random.Random(3)
            started = time.monotonic()
            def over() -> bool:
                return any("final standings" in m.content for m in fake.channel_messages.values())

            while not over() and fake.message(table).custom_ids():  # the table loses its button at the end
                assert time.monotonic() - started < 240, "the game did not finish"
                acted = [await a_decision(fake, user, table, rnd) for user in (ALICE, BOB)]
                if not any(acted):
                    await asyncio.sleep(0.5)  # Carol's turn: her clock runs out
            await fake.wait_until(over, timeout=30, what="the final standings")
            texts = "\n".join(m.content for m in fake.posted_in().values())
            assert "⏰" in texts  # she was reminded (the reminder deleted since: her decision was made for her)
            assert fake.unanswered == [], "an interaction failed"
            assert fake.problems == [] and fake.unknown_requests == []
