"""`python -m bot` as an operator runs it: one process per database, start-up through Discord's bad moments.

Real subprocesses against the fake Discord on 127.0.0.1 (as in test_e2e.py), with short lease times.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
from pathlib import Path

from conftest import ROOT
from support.bot_processes import Bot
from support.bot_processes import bots as bot_processes
from support.fake_discord import FakeDiscord, FakeUser

GUILD_ID, CHANNEL_ID = 720_000_000_000_000_001, 720_000_000_000_000_002
ALICE = 720_000_000_000_000_101
HELD = 3  # the exit status for "another process serves this database"
LOGIN = ("GET", "/users/@me")
GUILD_SYNC = ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")


def bots(fake: FakeDiscord, tmp_path: Path):
    return bot_processes(fake, tmp_path, DISCORD_GUILD_ID=str(GUILD_ID))


def lease_row(tmp_path: Path):
    with contextlib.closing(sqlite3.connect(tmp_path / "bot.sqlite3")) as db:
        return db.execute("SELECT pid, seconds FROM lease").fetchone()


def write_locked(path: Path) -> bool:
    with contextlib.closing(sqlite3.connect(path, timeout=0, isolation_level=None)) as db:
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError:
            return True
        db.execute("ROLLBACK")
        return False


async def freeze_between_writes(bot: Bot, path: Path) -> None:
    """SIGSTOP the bot, outside a write: frozen inside one (a heartbeat, on a busy machine) it would hold
    SQLite's write lock, and no successor could take over before it is woken."""
    for _ in range(100):
        bot.proc.send_signal(signal.SIGSTOP)
        while Path(f"/proc/{bot.proc.pid}/stat").read_text().split(") ")[1][0] != "T":  # stopped by now
            await asyncio.sleep(0.01)
        if not write_locked(path):
            return
        bot.proc.send_signal(signal.SIGCONT)
        await asyncio.sleep(0.05)
    raise AssertionError("the bot was inside a write at each of 100 tries")


async def answers(fake: FakeDiscord) -> None:
    status = await fake.slash(ALICE, "augsburg status")
    assert status.answer is not None and status.answer.ephemeral


def fake_discord(**kwargs) -> FakeDiscord:
    return FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL_ID, users=[FakeUser(ALICE, "Alice")], **kwargs)


async def test_a_second_bot_is_refused_while_the_first_serves_and_a_killed_one_is_replaced_at_once(tmp_path):
    async with fake_discord() as fake, bots(fake, tmp_path) as start:
        first = await start("first")  # the default lease time: 30 s
        await fake.wait_for_ready()
        logins = len(fake.requests_to(*LOGIN))

        second = await start("second")
        assert await second.exited() == HELD
        (line,) = second.output().strip().splitlines()  # one line, no traceback
        assert f"pid {first.proc.pid} on" in line and "bot.sqlite3" in line
        assert "running on this machine: stop it first" in line  # waiting would not help: it is alive
        assert len(fake.requests_to(*LOGIN)) == logins  # refused before saying anything to Discord
        await answers(fake)  # the first is unaffected

        # What a supervisor does after a crash (systemd's Restart=on-failure, 100 ms later): start again at
        # once. The kernel has freed the dead process's lock, so its fresh heartbeat does not stand in the way.
        serving = first
        for restart in range(1, 11):
            serving.proc.kill()  # kill -9: no release, the lease row still names it with a fresh heartbeat
            await serving.exited()
            assert lease_row(tmp_path) == (serving.proc.pid, 30)
            serving = await start(f"restart-{restart}")
            await fake.wait_until(lambda n=restart: fake.gateway.ready_count == n + 1, timeout=60,
                                  what=f"restart {restart}'s IDENTIFY")
            await answers(fake)
            assert serving.proc.returncode is None and lease_row(tmp_path)[0] == serving.proc.pid
        assert "Traceback" not in "".join(bot.output() for bot in (first, serving))


async def test_a_database_stopped_inside_a_write_is_one_line_and_exit_3(tmp_path):
    """A process SIGSTOPped in the middle of a write holds SQLite's write lock: a new bot cannot start, and says
    so in one line (a supervisor's log), without a traceback and without connecting to Discord."""
    path = tmp_path / "bot.sqlite3"
    async with fake_discord() as fake, bots(fake, tmp_path) as start:
        first = await start("first")
        await fake.wait_for_ready()
        first.proc.send_signal(signal.SIGTERM)
        assert await first.exited() == 0
        logins = len(fake.requests_to(*LOGIN))
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as writer:
            writer.execute("BEGIN IMMEDIATE")
            second = await start("second")
            assert await second.exited() == HELD
            writer.execute("ROLLBACK")
        (line,) = second.output().strip().splitlines()
        assert "bot.sqlite3" in line and "write lock" in line and "Stop it" in line
        assert len(fake.requests_to(*LOGIN)) == logins


async def test_a_clean_stop_frees_the_database_at_once_and_unchanged_commands_are_not_synced_again(tmp_path):
    async with fake_discord() as fake, bots(fake, tmp_path) as start:
        first = await start("first")  # the default lease time: 30 s
        await fake.wait_for_ready()
        first.proc.send_signal(signal.SIGTERM)  # what systemd, Docker and Heroku send
        assert await first.exited() == 0
        assert lease_row(tmp_path) is None
        assert "stopped by SIGTERM" in first.output()

        second = await start("second")
        await fake.wait_until(lambda: fake.gateway.ready_count == 2, timeout=60, what="the second bot's IDENTIFY")
        await answers(fake)
        assert len(fake.requests_to(*GUILD_SYNC)) == 1  # the same commands: the restart did not sync them
        assert "slash commands unchanged" in second.output()


async def test_a_bot_stalled_past_its_lease_stops_serving_once_another_took_over(tmp_path):
    async with fake_discord() as fake, bots(fake, tmp_path) as start:
        stalled = await start("stalled", LEASE_SECONDS="1.5")
        await fake.wait_for_ready()
        await freeze_between_writes(stalled, tmp_path / "bot.sqlite3")  # frozen: no heartbeat
        try:
            await asyncio.sleep(2)
            successor = await start("successor", LEASE_SECONDS="1.5")
            await fake.wait_until(lambda: fake.gateway.ready_count == 2, timeout=60, what="the successor's IDENTIFY")
        finally:
            stalled.proc.send_signal(signal.SIGCONT)
        assert await stalled.exited(30) == HELD  # it noticed at its next heartbeat, and stopped
        assert "lost the lease" in stalled.output() and f"pid {successor.proc.pid}" in stalled.output()
        await answers(fake)
        assert successor.proc.returncode is None and lease_row(tmp_path)[0] == successor.proc.pid


async def test_start_up_rides_out_503s_on_login_and_on_the_command_sync(tmp_path):
    async with fake_discord() as fake, bots(fake, tmp_path) as start:
        # discord.py gives up on a 503 at once (it retries 500, 502, 504 itself): each one reaches the bot.
        fake.fail_next(*LOGIN, status=503, message="Service Unavailable", times=3)
        fake.fail_next(*GUILD_SYNC, status=503, message="Service Unavailable", times=2)
        bot = await start("bot")
        await fake.wait_for_ready(timeout=60)
        assert [r.status for r in fake.requests_to(*LOGIN)] == [503, 503, 503, 200]
        assert [r.status for r in fake.requests_to(*GUILD_SYNC)] == [503, 503, 200]
        await answers(fake)
        log = bot.output()
        assert log.count("WARNING bot.discord_app.backoff: could not log in to Discord") == 3
        assert log.count("could not sync the slash commands") == 2 and "Traceback" not in log


async def test_a_refused_token_is_one_line_and_not_retried(tmp_path):
    async with fake_discord(token="the-right-token") as fake, bots(fake, tmp_path) as start:
        bot = await start("bot", DISCORD_TOKEN="a-wrong-token")
        assert await bot.exited() == 2
        lines = bot.output().strip().splitlines()  # after the log of the attempt, one line and no traceback
        assert "401" in lines[-1] and "DISCORD_TOKEN" in lines[-1] and "Traceback" not in bot.output()
        assert len(fake.requests_to(*LOGIN)) == 1
        assert lease_row(tmp_path) is None  # it gave the lease up on the way out


async def pg_lease_row(url: str):
    import asyncpg

    con = await asyncpg.connect(url)
    try:
        return await con.fetchrow("SELECT pid, seconds FROM lease")
    finally:
        await con.close()


async def test_on_postgres_a_bot_killed_minus_nine_is_followed_at_once_and_its_game_goes_on(tmp_path, postgres_url):
    """PostgreSQL frees a dead process's lease with its connection: no waiting for the heartbeat to go stale."""
    async with fake_discord() as fake, bots(fake, tmp_path) as start:
        first = await start("first", DATABASE_URL=postgres_url, LEASE_SECONDS="60")
        await fake.wait_for_ready()
        table = (await fake.slash(ALICE, "augsburg new")).answer.message_id
        await fake.click(ALICE, table, label="Add computer player")
        started = await fake.click(ALICE, table, label="Start game")
        assert "round 1 of" in started.answer.embeds[0]["title"]

        second = await start("second", DATABASE_URL=postgres_url, LEASE_SECONDS="60")
        assert await second.exited() == HELD
        (line,) = second.output().strip().splitlines()
        assert f"pid {first.proc.pid} on" in line and "stop it first" in line and "postgresql://" in line

        first.proc.kill()  # kill -9: the heartbeat is fresh for another minute, but its connection is gone
        await first.exited()
        third = await start("third", DATABASE_URL=postgres_url, LEASE_SECONDS="60")
        await fake.wait_until(lambda: fake.gateway.ready_count == 2, timeout=60, what="the third bot's IDENTIFY")
        assert third.proc.returncode is None and (await pg_lease_row(postgres_url))["pid"] == third.proc.pid
        status = await fake.slash(ALICE, "augsburg status")
        assert status.answer.ephemeral and "round 1 of" in status.answer.embeds[0]["title"]  # the game lives on


async def test_on_postgres_backup_dir_and_restore_refuse_politely(tmp_path, postgres_url):
    async with fake_discord() as fake, bots(fake, tmp_path) as start:
        bot = await start("bot", DATABASE_URL=postgres_url, BACKUP_DIR=str(tmp_path / "backups"))
        assert await bot.exited() == 2
        (line,) = bot.output().strip().splitlines()
        assert "BACKUP_DIR" in line and "PostgreSQL" in line and "pg_dump" in line and "Traceback" not in line
    env = {**os.environ, "DATABASE_URL": postgres_url, "PYTHONPATH": str(ROOT)}
    restore = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.app.cli", "restore", "--from",
                                                   str(tmp_path),
                                                   env=env, cwd=tmp_path, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.STDOUT)
    said = (await restore.communicate())[0].decode()
    assert restore.returncode == 1 and "PostgreSQL" in said and "Nothing was changed" in said
    assert "Traceback" not in said


async def test_on_postgres_a_database_that_cannot_be_opened_is_one_line_and_status_5(tmp_path, postgres_url):
    missing = postgres_url.replace("/augsburg_test_", "/no_such_database_")
    async with fake_discord() as fake, bots(fake, tmp_path) as start:
        bot = await start("bot", DATABASE_URL=missing)
        assert await bot.exited() == 5
        (line,) = bot.output().strip().splitlines()
        assert "Could not reach the database postgresql://" in line and "no_such_database_" in line
        assert "Traceback" not in bot.output()
        assert "did not start" in line and len(fake.requests_to(*LOGIN)) == 0  # before saying anything to Discord
