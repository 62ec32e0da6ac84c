"""Shared pieces of the bot tests: a bot on a temporary database inside the Discord test harness."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.discord_app.client import AugsburgBot
from support.fake_discord import FakeUser, Harness

ADA, BEN, CLEO, STRANGER = 1001, 1002, 1003, 1009


def make_bot(path, delay: float = 0.0, clock=None, **settings) -> AugsburgBot:
    return AugsburgBot(
        Settings(
            _env_file=None,
            discord_token="test-token",
            database_path=str(path),
            table_edit_delay=delay,
            computer_delay=0.0,
            discord_guild_id=None,
            **settings,
        ),
        clock=clock,
    )


def long_lived(task) -> bool:
    """The bot's one deadline scheduler runs for as long as the bot."""
    return task.get_name() == "deadline scheduler"


@pytest.fixture
async def harness(tmp_path):
    users = [FakeUser(ADA, "Ada"), FakeUser(BEN, "Ben"), FakeUser(CLEO, "Cleo"), FakeUser(STRANGER, "Sam")]
    h = await Harness.create(make_bot(tmp_path / "bot.sqlite3"), users=users, ignore=(long_lived,))
    h.db_path = tmp_path / "bot.sqlite3"
    yield h
    await h.close()


def service(h: Harness):
    return h.bot.get_cog("Augsburg").service


def game(h: Harness):
    return service(h).cached(h.channel_id)


async def open_and_start(h: Harness, players=(ADA, BEN, CLEO)) -> int:
    r = await h.slash(players[0], "augsburg new")
    assert r.response.kind == "response" and not r.response.ephemeral
    table = r.response.message_id
    for p in players[1:]:
        joined = await h.click(p, table, label="Join")
        assert joined.response.kind == "update"
    started = await h.click(players[0], table, label="Start game")
    assert started.response.kind == "update" and "round 1 of" in started.response.embeds[0]["title"]
    return table
