"""Many text channels in the fake's guild (tests/support/channels.py), through both doors."""

from __future__ import annotations

import discord
import pytest
from support.channels import CHANNEL_STRIDE, plan_channels
from support.fake_discord import FakeDiscord, FakeUser, Harness, HarnessError
from support.toy_bot import ToyBot, on_gateway

ALICE, BOB = 101, 102
SEND = "/channels/{channel_id}/messages"


@pytest.fixture
async def h():
    harness = await Harness.create(ToyBot(), users=[FakeUser(ALICE, "alice"), FakeUser(BOB, "bob")], channels=3)
    yield harness
    await harness.close()


def test_channel_ids_are_given_or_generated_and_the_first_is_the_default() -> None:
    assert plan_channels(7, None, 3) == [7, 7 + CHANNEL_STRIDE, 7 + 2 * CHANNEL_STRIDE]
    assert plan_channels(7, [30, 20], 1) == [30, 20]
    for bad in ([], [5, 5]):
        with pytest.raises(ValueError, match="distinct"):
            plan_channels(7, bad, 1)
    with pytest.raises(ValueError, match="at least one"):
        plan_channels(7, None, 0)
    fake = FakeDiscord(channel_ids=[30, 20])
    assert (fake.channel_id, fake.channel_ids) == (30, [30, 20])
    assert FakeDiscord().channel_ids == [900_000_000_000_000_002]


async def test_the_guild_has_every_channel_and_actions_happen_where_they_are_sent(h: Harness) -> None:
    first, second, third = h.channel_ids
    channels = h.bot.get_guild(h.guild_id).text_channels
    assert [(c.id, c.name) for c in channels] == [(first, "augsburg"), (second, "augsburg-2"), (third, "augsburg-3")]
    board = (await h.slash(ALICE, "toy count", start=1, channel_id=second)).response.message_id
    assert h.message(board).channel_id == second and list(h.messages_in(second)) == [board]
    assert h.channel_messages == {} and h.messages_in(third) == {}
    clicked = await h.click(BOB, board, "toy:btn:1")  # a click comes from the message's channel
    last = h.interactions[next(reversed(h.interactions))]
    assert (last.id, last.channel_id, clicked.response.content) == (clicked.interaction_id, second, "count=2")
    posted = await h.slash(ALICE, "toy post", channel_id=third)  # interaction.channel.send
    assert posted.outputs[0].channel_id == third and h.requests_to("POST", SEND)[-1].params["channel_id"] == str(third)
    assert [m.content for m in h.messages_in(third).values()] == ["a plain post"]
    assert await h.autocomplete(ALICE, "toy color", "name", "gr", channel_id=third) == [
        {"name": "green", "value": "green"}
    ]
    assert (await h.bot.fetch_channel(third)).name == "augsburg-3"
    with pytest.raises(HarnessError, match="no text channel"):
        await h.slash(ALICE, "toy say", text="x", channel_id=12345)
    with pytest.raises(discord.NotFound):
        await h.bot.http.send_message(12345, params=discord.http.handle_message_parameters(content="x"))
    assert h.problems == [f"POST {SEND} -> 404 10003 Unknown Channel"]
    h.problems.clear()
    h.assert_all_answered()


async def test_guild_create_carries_a_thousand_channels_over_the_gateway() -> None:
    async with FakeDiscord(users=[ALICE], channels=1000, token="t") as fake, on_gateway(fake) as bot:
        assert len(bot.get_guild(fake.guild_id).text_channels) == 1000
        last = fake.channel_ids[-1]
        r = await fake.slash(ALICE, "toy count", start=5, channel_id=last)
        assert r.response.content == "count=5" and r.response.channel_id == last
        assert (await fake.click(ALICE, r.response.message_id, "toy:btn:5")).response.content == "count=6"
        assert list(fake.messages_in(last)) == [r.response.message_id] and fake.problems == []
