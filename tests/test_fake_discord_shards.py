"""The fake Discord's gateway shards guilds as Discord does (issue 28): a session identified as shard
[id, count] gets the guilds with (guild_id >> 22) % count == id and only their events; two sessions that
claim one shard both get its events, counted loudly."""

from __future__ import annotations

import asyncio
import contextlib

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route
from support.fake_discord import FakeDiscord, FakeUser
from support.toy_bot import ToyBot

ALICE = 880_000_000_000_000_101
# Guild ids (snowflakes) of shard 0 and shard 1 of 2, each with one text channel.
GUILD_0, GUILD_1 = 4242 << 22, 4243 << 22
CHANNEL_0, CHANNEL_1 = 880_000_000_000_000_010, 880_000_000_000_000_011


def sharded(shard: int, instance: int) -> ToyBot:
    bot = ToyBot(instance=instance)
    bot.shard_id = bot.shard_count = bot._connection.shard_count = 2  # what discord.py identifies with
    bot.shard_id = shard
    return bot


async def test_each_guilds_events_go_only_to_the_session_of_its_shard_and_a_double_claim_is_counted(monkeypatch):
    async with FakeDiscord(guild_id=GUILD_0, channel_id=CHANNEL_0, more_guilds={GUILD_1: [CHANNEL_1]},
                           users=[FakeUser(ALICE, "Alice")]) as fake, contextlib.AsyncExitStack() as running:
        monkeypatch.setattr(Route, "BASE", fake.api_base)
        monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))

        async def start(bot: ToyBot) -> ToyBot:
            task = asyncio.create_task(bot.start("fake-token"))
            running.push_async_callback(lambda: asyncio.wait_for(task, 5))
            running.push_async_callback(bot.close)
            await asyncio.wait_for(bot.wait_until_ready(), 10)
            return bot

        zero, one = await start(sharded(0, 1)), await start(sharded(1, 2))
        assert [g.id for g in zero.guilds] == [GUILD_0] and [g.id for g in one.guilds] == [GUILD_1]
        assert [s.shard for s in fake.gateway.sessions.values()] == [(0, 2), (1, 2)]

        for channel in (CHANNEL_0, CHANNEL_1, CHANNEL_1):
            said = await fake.slash(ALICE, "toy say", channel_id=channel, text=f"in {channel}")
            assert said.response.content == f"in {channel}"
            assert fake.message(said.response.message_id).data["guild_id"] == str(fake.guild_of(channel))
        delivered = {fake.gateway.sessions[s].shard: n for s, n in fake.gateway.delivered.items()}
        assert delivered == {(0, 2): 1, (1, 2): 2}  # each interaction to its guild's shard only
        assert fake.gateway.shard_conflicts == [] and fake.gateway.delivered_twice == []
        assert fake.gateway.serving(GUILD_0) and fake.gateway.serving(GUILD_1)

        again = await start(sharded(1, 3))  # a second session claims shard 1: Discord sends it both
        assert fake.gateway.shard_conflicts == [(1, 2)] and [g.id for g in again.guilds] == [GUILD_1]
        await fake.slash(ALICE, "toy say", channel_id=CHANNEL_1, text="twice")
        assert fake.gateway.delivered_twice[0] == ("INTERACTION_CREATE", GUILD_1)
        await fake.wait_until(lambda: len(fake.requests_to("POST", "/interactions/{webhook_id}/{webhook_token}"
                                                           "/callback")) == 5, what="both sessions' answers")
        twice = len(fake.gateway.delivered_twice)  # its answer's MESSAGE_CREATE went to both too
        await fake.slash(ALICE, "toy say", channel_id=CHANNEL_0, text="once")  # shard 0's guild: one session
        assert len(fake.gateway.delivered_twice) == twice
        assert [p for p in fake.problems if "40060" in p] == fake.problems and len(fake.problems) == 1
        fake.problems.clear()  # the second answer to "twice" was refused (already acknowledged), as on Discord
