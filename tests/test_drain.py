"""The draining stop (issue 45): SIGTERM in the middle of a load of clicks.

A real `python -m bot` against the fake Discord on 127.0.0.1. Discord is made slow to take the bot's
acknowledgements (each takes a second), so the decisions clicked are in flight, acknowledged but not yet
applied, when SIGTERM comes. The bot then answers new clicks "restarting, try again in a moment", finishes
the decisions in flight (each committed, then answered), gives its lease up and exits 0; nothing answered
as done is lost, every game's log replays to its stored game, and a successor serves at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import signal
import sqlite3
import time

from bench_bot import open_table
from support.bot_processes import bots
from support.fake_discord import DEFAULT, FakeDiscord, FakeUser
from support.interaction_routes import CALLBACK

from storage import Store
from storage.repair import playable, replay_table

GUILD = 740_000_000_000_000_001
USER = 740_000_000_000_001_000
TABLES = 4
MENTION = re.compile(r"<@(\d+)>")
RESTARTING = "The game service is restarting; please try again in a moment."
NEU = "Der Spieldienst startet neu; bitte versuch es gleich noch einmal."  # (the German client's)


def moves(path) -> int:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]


def lease_row(path):
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT pid FROM lease").fetchone()


async def a_decision(fake: FakeDiscord, table: int, players: list[int], rnd: random.Random):
    """The person due at `table` opens their panel: (who, the panel, a decision on it to click)."""
    shown = fake.message(table)
    due = [int(u) for u in MENTION.findall(shown.embeds[0].get("description", ""))] if shown.embeds else []
    user = rnd.choice([u for u in due if u in players] or players)
    panel = (await fake.click(user, table, label="My hand & actions")).answer
    buttons = [b for b in panel.buttons() if b["custom_id"].startswith("aug:do:") and not b.get("disabled")]
    buttons += [b for b in panel.buttons() if b.get("label") == "Buy nothing"]
    selects = [s for s in panel.selects() if s["custom_id"].endswith(":pick")]
    return user, panel, (rnd.choice(buttons) if buttons else rnd.choice(selects))


async def click(fake: FakeDiscord, user: int, panel, choice: dict, rnd: random.Random):
    if choice.get("type") == 2:
        return await fake.click(user, panel.message_id, choice["custom_id"], settle=False)
    value = rnd.choice(choice["options"])["value"]
    return await fake.select(user, panel.message_id, choice["custom_id"], [value], settle=False)


async def test_sigterm_amid_clicks_finishes_them_turns_new_ones_away_and_frees_the_database(tmp_path):
    rnd = random.Random(45)
    users = [FakeUser(USER + i, f"P{i}") for i in range(2 * TABLES)]
    greta = FakeUser(USER + 99, "Greta", locale="de")
    path = tmp_path / "bot.sqlite3"
    fake = FakeDiscord(guild_id=GUILD, users=[*users, greta], channels=TABLES)
    async with fake, bots(fake, tmp_path, DISCORD_GUILD_ID=str(GUILD), TURN_TIMEOUT_SECONDS="0",
                          DRAIN_SECONDS="20") as start:
        first = await start("first")
        await fake.wait_for_ready(timeout=60)
        tables = []
        for i, channel in enumerate(fake.channel_ids):
            players = [users[2 * i].id, users[2 * i + 1].id]
            tables.append((await open_table(fake, channel, players, computer=False), players))
        chosen = [await a_decision(fake, table, players, rnd) for table, players in tables]
        before = moves(path)

        held = asyncio.Event()

        async def slowly(_request):  # Discord holds every acknowledgement until the bot is draining
            await held.wait()  # (not a fixed delay: on a busy machine the first would be applied too soon)
            return DEFAULT

        fake.on_route("POST", CALLBACK, slowly)
        callbacks = len(fake.requests_to("POST", CALLBACK))
        clicked = [await click(fake, user, panel, choice, rnd) for user, panel, choice in chosen]
        # Every click has reached the bot and been acknowledged (slowly): all are in flight, none applied yet.
        await fake.wait_until(lambda: len(fake.requests_to("POST", CALLBACK)) >= callbacks + TABLES, timeout=30,
                              what="the clicks' acknowledgements")
        assert moves(path) == before

        first.proc.send_signal(signal.SIGTERM)
        await fake.wait_until(lambda: "draining:" in first.output(), timeout=30, what="the bot draining")
        assert moves(path) == before  # the clicks are still in flight as it starts to drain
        held.set()
        late = [await fake.slash(user, "augsburg status", settle=False, channel_id=channel)
                for (table, (user, _)), channel in zip(tables, fake.channel_ids)]
        german = await fake.slash(greta.id, "augsburg status", settle=False, channel_id=fake.channel_ids[0])
        assert await first.exited(60) == 0

        for result in late:  # new clicks: told to come back, changing nothing
            await fake.wait_answered(result, timeout=30)
            assert result.answer.ephemeral and result.answer.content == RESTARTING
        await fake.wait_answered(german, timeout=30)
        assert german.answer.ephemeral and german.answer.content == NEU  # in the person's language
        done = 0
        for result in clicked:  # in flight at SIGTERM: finished, and answered
            await fake.wait_until(lambda r=result: r.answer is not None and not r.still_thinking, timeout=30,
                                  what="a decision's answer")
            assert result.answer.content != RESTARTING
            done += "✅" in (result.answer.content or "")
        assert done == TABLES
        assert moves(path) == before + done  # nothing acknowledged is lost, and nothing more was applied
        assert lease_row(path) is None  # given up on the way out: a successor need not wait for it to go stale
        assert "Traceback" not in first.output()

        # Nothing is half-applied: every game's log replays to the game stored.
        store = await Store.open(str(path))
        try:
            for channel in fake.channel_ids:
                record = await store.games.load_channel(channel)
                edition = playable(store.editions, record.table, record.id, channel)
                rows = await store.log.action_log(record.id)
                assert replay_table(record.table, rows, edition) == record.state
        finally:
            await store.close()

        fake.overrides.clear()
        started = time.monotonic()
        second = await start("second")
        await fake.wait_until(lambda: fake.gateway.ready_count == 2, timeout=60, what="the successor's IDENTIFY")
        status = await fake.slash(users[0].id, "augsburg status", channel_id=fake.channel_ids[0])
        served = time.monotonic() - started
        assert status.answer.ephemeral and status.answer.content != RESTARTING and status.answer.embeds
        assert second.proc.returncode is None and lease_row(path) == (second.proc.pid,)
        print(f"the successor served {served:.1f} s after it was started")
