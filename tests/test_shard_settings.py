"""SHARD_COUNT and SHARD_IDS (issue 28): one process owns everything by default; a process given some shards
connects only those; SQLite refuses to leave shards to other processes, in one line."""

from __future__ import annotations

import os
import subprocess
import sys

import discord
from conftest import ROOT
from support.bot_support import ADA, long_lived
from support.bot_support import make_bot as make_test_bot
from support.fake_discord import FakeUser, Harness

from bot.app.config import Settings
from bot.app.discord_bot import AugsburgBot, ShardedAugsburgBot, make_bot
from bot.app.shards import shards_of, shards_refused

PG = "postgresql://bot@db.example/augsburg"
SYNC = ("PUT", "/applications/{application_id}/commands")


def settings(**values) -> Settings:
    return Settings(_env_file=None, discord_token="t", **values)


def test_by_default_one_process_owns_everything_on_one_gateway_session():
    default = settings()
    shards = shards_of(default)
    assert (shards.count, shards.ids, shards.share) == (1, (0,), 1.0)
    assert shards_refused(default) is None
    bot = make_bot(default)
    assert type(bot) is AugsburgBot and not isinstance(bot, discord.AutoShardedClient)


def test_a_process_given_some_shards_connects_only_those():
    given = settings(database_url=PG, shard_count=4, shard_ids="3, 1")
    assert shards_refused(given) is None
    shards = shards_of(given)
    assert (shards.count, shards.ids, shards.share) == (4, (1, 3), 0.5)
    bot = make_bot(given)
    assert isinstance(bot, ShardedAugsburgBot) and isinstance(bot, discord.AutoShardedClient)
    assert (bot.shard_count, list(bot.shard_ids)) == (4, [1, 3])
    every = shards_of(settings(database_url=PG, shard_count=2))  # SHARD_IDS unset: all of them
    assert every.ids == (0, 1) and every.everything and make_bot(settings(shard_count=2)).shard_ids == [0, 1]


def test_shard_settings_that_cannot_work_are_refused_in_one_line():
    for wrong, said in [({"shard_count": 0}, "SHARD_COUNT must be 1 or more"),
                        ({"shard_count": 2, "shard_ids": "0,2"}, "from 0 to 1"),
                        ({"shard_count": 2, "shard_ids": "1,1"}, "different shards"),
                        ({"shard_count": 2, "shard_ids": "one"}, "separated by commas")]:
        line = shards_refused(settings(database_url=PG, **wrong))
        assert line is not None and "\n" not in line and said in line, (wrong, line)


def test_sqlite_serves_one_process_so_it_refuses_shards_left_to_others(tmp_path):
    assert shards_refused(settings(shard_count=2)) is None  # one process, both shards: fine on SQLite
    line = shards_refused(settings(database_path=str(tmp_path / "x.sqlite3"), shard_count=2, shard_ids="1"))
    assert "SQLite" in line and "one bot process" in line and "PostgreSQL" in line
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "0",
           "DATABASE_PATH": str(tmp_path / "bot.sqlite3")}
    out = subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, cwd=tmp_path, env=env,
                         timeout=60)
    assert out.returncode == 2
    (said,) = (out.stdout + out.stderr).strip().splitlines()
    assert "SHARD_IDS=0" in said and "SQLite" in said and "Traceback" not in said
    assert not (tmp_path / "bot.sqlite3").exists()  # refused before the database was opened


async def test_only_the_owner_of_shard_0_syncs_commands_and_each_process_paces_at_its_share(postgres_url):
    """Two processes of a bot with two shards: together they keep to REQUESTS_PER_SECOND (Discord counts per
    token), and the commands are synced once, by the owner of shard 0 (point 4)."""
    paced = {"requests_per_second": 30.0, "shard_count": 2}
    h = await Harness.create(bot_on(postgres_url, shard_ids="1", **paced), users=[FakeUser(ADA, "Ada")],
                             ignore=(long_lived,))
    try:
        assert h.requests_to(*SYNC) == [] and h.commands == {}  # shard 1's owner leaves the commands alone
        assert h.bot.get_cog("Augsburg").presenter.pacing.rate == 15.0  # half of the whole bot's budget
        await h.restart(bot_on(postgres_url, shard_ids="0", **paced))
        assert len(h.requests_to(*SYNC)) == 1 and h.bot.get_cog("Augsburg").presenter.pacing.rate == 15.0
        await h.restart(bot_on(postgres_url, shard_ids="0", **paced))
        assert len(h.requests_to(*SYNC)) == 1  # unchanged since: not again
        await h.restart(bot_on(postgres_url, **paced))  # one process, both shards: the whole budget
        assert h.bot.get_cog("Augsburg").presenter.pacing.rate == 30.0
    finally:
        await h.close()


def bot_on(url: str, **settings):
    return make_test_bot(url, **settings)
