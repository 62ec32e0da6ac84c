"""Allowed mentions in the fake Discord, through discord.py's own send paths."""

from __future__ import annotations

import discord
import pytest
from discord.http import Route
from support.fake_discord import FakeUser, Harness, StoredMessage
from support.mentions import notified
from support.toy_bot import ToyBot

ALICE, BOB = 101, 102
SEND = "/channels/{channel_id}/messages"
MEMBERS = {ALICE, BOB}


@pytest.fixture
async def h():
    users = [FakeUser(ALICE, "alice"), FakeUser(BOB, "bob")]
    harness = await Harness.create(ToyBot(), users=users)
    yield harness
    await harness.close()


# ------------------------------------------------------------------ allowed mentions


async def send_raw(h: Harness, body: dict) -> StoredMessage:
    """A message create in the channel with exactly this JSON, through discord.py's HTTP client."""
    route = Route("POST", SEND, channel_id=h.channel_id)
    return h.message(int((await h.bot.http.request(route, json=body))["id"]))


async def test_allowed_mentions_are_recorded_on_every_create_and_edit(h: Harness) -> None:
    r = await h.slash(ALICE, "toy shout", text="@everyone look")
    response, followup = r.outputs
    assert response.allowed_mentions == {"parse": []} and h.message(response.message_id).notified(MEMBERS) == set()
    assert followup.allowed_mentions == {"parse": [], "users": [ALICE], "replied_user": True}
    assert h.message(followup.message_id).notified(MEMBERS) == {ALICE}
    said = (await h.slash(ALICE, "toy say", text=f"<@{BOB}>")).response
    assert said.allowed_mentions is None and h.message(said.message_id).notified(MEMBERS) == {BOB}
    channel = h.bot.get_channel(h.channel_id)
    sent = await channel.send(f"<@{ALICE}> <@{BOB}>", allowed_mentions=discord.AllowedMentions(users=[h.bot.user]))
    stored = h.message(sent.id)
    assert h.outputs[-1].allowed_mentions == stored.allowed_mentions and stored.notified(MEMBERS) == set()
    await sent.edit(view=None)  # no content: the mentions stand
    assert stored.notified(MEMBERS) == set() and h.outputs[-1].allowed_mentions is None
    await sent.edit(content=f"<@{BOB}> only", allowed_mentions=discord.AllowedMentions.all())
    assert stored.notified(MEMBERS) == {BOB} and h.outputs[-1].kind == "message_edit"
    h.assert_no_errors()


async def test_notified_follows_discords_allowed_mentions_rules(h: Harness) -> None:
    mixed = f"@everyone <@{ALICE}> <@!{BOB}> <@&555>"
    roles = {555: {BOB}}
    cases = [
        ({"content": f"<@{ALICE}> <@!{BOB}>"}, {ALICE, BOB}),  # absent: everything in the content
        ({"content": "@here hi"}, MEMBERS),
        ({"content": "<@&555> team"}, {BOB}),
        ({"content": mixed, "allowed_mentions": {"parse": []}}, set()),
        ({"content": mixed, "allowed_mentions": {"users": [str(ALICE)]}}, {ALICE}),
        ({"content": f"<@{BOB}>", "allowed_mentions": {"users": [str(ALICE)]}}, set()),  # ALICE not in content
        ({"content": mixed, "allowed_mentions": {"parse": ["everyone"]}}, MEMBERS),
        ({"content": f"<@{ALICE}>", "allowed_mentions": {"parse": ["everyone"]}}, set()),  # no @everyone
        ({"content": mixed, "allowed_mentions": {"parse": ["users", "roles"], "users": []}}, {ALICE, BOB}),
        ({"content": mixed, "allowed_mentions": {"parse": [], "roles": ["555"]}}, {BOB}),
        ({"content": "nobody", "embeds": [{"description": f"<@{ALICE}>"}]}, set()),  # embeds never ping
    ]
    for body, expected in cases:
        assert (await send_raw(h, body)).notified(MEMBERS, roles) == expected, body
    assert h.problems == []


def test_replies_ping_the_replied_user_by_default_or_with_replied_user() -> None:
    assert notified("answer", None, MEMBERS, replied_to=ALICE) == {ALICE}
    assert notified("answer", {"parse": []}, MEMBERS, replied_to=ALICE) == set()
    assert notified("answer", {"parse": [], "replied_user": True}, MEMBERS, replied_to=ALICE) == {ALICE}
    assert notified(f"<@{ALICE}>", None, MEMBERS, author_id=ALICE) == set()  # nobody pings themself


async def test_a_reply_carries_the_message_it_answers(h: Harness) -> None:
    channel = h.bot.get_channel(h.channel_id)
    first = await channel.send("first")
    reply = await first.reply("second", mention_author=True)
    stored = h.message(reply.id)
    assert stored.data["type"] == 19 and stored.data["referenced_message"]["id"] == str(first.id)
    assert reply.reference.message_id == first.id and stored.allowed_mentions["replied_user"] is True
    assert stored.notified(MEMBERS | {h.bot_user.id}) == set()  # the bot replied to itself
    with pytest.raises(discord.HTTPException, match="message_reference: Unknown message"):
        await channel.send("lost", reference=discord.MessageReference(message_id=1, channel_id=h.channel_id))
    missing = discord.MessageReference(message_id=1, channel_id=h.channel_id, fail_if_not_exists=False)
    lost = await channel.send("lost", reference=missing)
    assert h.message(lost.id).data["type"] == 0
    assert h.problems == [f"POST {SEND} -> 400 50035 Invalid Form Body: message_reference: Unknown message"]
    h.problems.clear()
