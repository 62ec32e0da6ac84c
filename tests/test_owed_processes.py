"""Work the bot owes is done first after every start (issue 41, point 3), with real `python -m bot` processes
against the fake Discord on 127.0.0.1: a restart loop whose kills (kill -9) come before the Discord login
ever succeeds, then one process that lives, which makes the owed moves at once and announces them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from support.bot_processes import bots
from support.fake_discord import DEFAULT, FakeDiscord, FakeUser

GUILD_ID, CHANNEL_ID = 720_000_000_000_000_001, 720_000_000_000_000_002
ADA, BEN = 1001, 1002  # with DEAL_SEED=1 (the fake's), two jokers each: every auction of round 1 is a pass
LOGIN = ("GET", "/users/@me")
CRASHES = 4


def read(tmp_path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(tmp_path / "bot.sqlite3", timeout=30)) as db:
        return db.execute(sql, params).fetchall()


def deadlines(tmp_path: Path, kind: str) -> list[tuple[Any, ...]]:
    return read(tmp_path, "SELECT player, due_at FROM deadlines WHERE kind = ?", (kind,))


def phase(tmp_path: Path) -> str:
    (snapshot,), = read(tmp_path, "SELECT snapshot FROM games")
    return str(json.loads(snapshot)["phase"])


def only_moves(tmp_path: Path) -> list[tuple[Any, ...]]:
    return read(tmp_path, "SELECT move, player FROM actions WHERE actor = 'only' ORDER BY move")


async def until(condition: Any, what: str, timeout: float) -> None:
    try:
        async with asyncio.timeout(timeout):
            while not condition():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"no {what} after {timeout} s") from None


def pings(fake: FakeDiscord) -> list[Any]:
    return [m for m in fake.channel_messages.values() if "your move" in m.content and not m.embeds]


async def test_moves_owed_when_killed_are_made_at_once_by_the_first_process_that_lives(tmp_path):
    users = [FakeUser(ADA, "Ada"), FakeUser(BEN, "Ben")]
    async with FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL_ID, users=users) as fake, \
            bots(fake, tmp_path, DISCORD_GUILD_ID=str(GUILD_ID), COMPUTER_DELAY="0.2") as start:
        # The first process waits 10 minutes before each move the bot makes: it is killed while it waits.
        first = await start("first", COMPUTER_DELAY="600")
        await fake.wait_for_ready()
        table = (await fake.slash(ADA, "augsburg new")).answer.message_id
        await fake.click(BEN, table, label="Join")
        await fake.click(ADA, table, label="Start game")
        for user in (ADA, BEN):
            panel = (await fake.click(user, table, label="My hand & actions")).answer
            await fake.click(user, panel.message_id, label="Buy nothing")
        assert phase(tmp_path) == "auction" and deadlines(tmp_path, "computer"), "a pass is owed"
        first.proc.kill()
        await first.exited()
        pinged = len(pings(fake))

        # Starts killed soon after they hold the database, Discord refusing their login meanwhile.
        failing = True

        def login(_request: Any) -> Any:
            if failing:
                raise fake.http_error(503, message="Service Unavailable")
            return DEFAULT

        fake.on_route(*LOGIN, login)
        for crash in range(CRASHES):
            bot = await start(f"crash-{crash}")
            pid = bot.proc.pid
            await until(lambda p=pid: read(tmp_path, "SELECT pid FROM lease") == [(p,)], "lease taken", 60)
            await asyncio.sleep(0.03)
            bot.proc.kill()
            await bot.exited()
        failing = False

        living = await start("living")  # its markers say 10 minutes: the moves are owed now, not then
        await until(lambda: phase(tmp_path) != "auction" and not deadlines(tmp_path, "computer"),
                    "owed moves made", 30)
        passes = only_moves(tmp_path)
        assert len(passes) == 10, passes  # five auctions, two passes each, each made once
        await until(lambda: not deadlines(tmp_path, "announce"), "announcement", 60)
        await fake.wait_until(lambda: len(pings(fake)) > pinged, timeout=60, what="the ping of who is due now")
        assert living.proc.returncode is None and "Traceback" not in living.output()
