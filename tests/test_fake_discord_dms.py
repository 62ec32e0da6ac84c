"""Direct messages and allowed mentions in the fake Discord, through discord.py's own DM and send paths."""

from __future__ import annotations

import asyncio

import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route
from support.fake_discord import FakeDiscord, FakeUser, Harness, HarnessError, StoredMessage
from support.mentions import notified
from support.toy_bot import ToyBot

ALICE, BOB, ROBOT = 101, 102, 103
OPEN_DM = "/users/@me/channels"
SEND = "/channels/{channel_id}/messages"
CLOSED = f"POST {SEND} -> 403 50007 Cannot send messages to this user"
MEMBERS = {ALICE, BOB}


@pytest.fixture
async def h():
    users = [FakeUser(ALICE, "alice"), FakeUser(BOB, "bob"), FakeUser(ROBOT, "robot", bot=True)]
    harness = await Harness.create(ToyBot(), users=users)
    yield harness
    await harness.close()


def contents(messages: dict[int, StoredMessage]) -> list[str]:
    return [m.content for m in messages.values()]


async def test_user_and_member_send_open_one_stable_dm_channel_per_user(h: Harness) -> None:
    alice = await h.bot.fetch_user(ALICE)  # no members intent: the bot caches no members, as on Discord
    first = await alice.send("first")
    second = await alice.send("second")  # discord.py keeps the DMChannel: no second POST
    (opened,) = h.requests_to("POST", OPEN_DM)
    assert opened.json == {"recipient_id": ALICE} and opened.response["type"] == 1
    assert opened.response["recipients"][0]["id"] == str(ALICE) and "guild_id" not in opened.response
    dm_id = h.dm_channels[ALICE]
    assert first.channel.id == second.channel.id == dm_id and isinstance(first.channel, discord.DMChannel)
    assert first.guild is None and first.channel.recipient.id == ALICE
    again = await h.bot.http.start_private_message(ALICE)  # Discord hands back the same channel
    assert int(again["id"]) == dm_id
    bob = await h.bot.get_guild(h.guild_id).fetch_member(BOB)
    await bob.send("hello bob")
    assert h.dm_channels[BOB] != dm_id
    partial = h.bot.get_partial_messageable(dm_id, type=discord.ChannelType.private)
    third = await partial.send("third")
    assert contents(h.dm_messages(ALICE)) == ["first", "second", "third"]
    assert contents(h.dm_messages(BOB)) == ["hello bob"]
    assert h.channel_messages == {} and "guild_id" not in h.message(third.id).data
    assert [o.kind for o in h.outputs] == ["dm_message"] * 4 and h.outputs[-1].recipient_id == ALICE
    fetched = await h.bot.fetch_channel(dm_id)
    assert isinstance(fetched, discord.DMChannel) and fetched.recipient.id == ALICE
    h.assert_no_errors()


async def test_dm_messages_are_read_edited_and_deleted_in_their_channel_only(h: Harness) -> None:
    dm = await (await h.bot.fetch_user(ALICE)).create_dm()
    sent = await dm.send("draft")
    assert (await dm.fetch_message(sent.id)).content == "draft"
    await sent.edit(content="final")
    assert contents(h.dm_messages(ALICE)) == ["final"]
    with pytest.raises(discord.NotFound):  # not a message of the guild's channel
        await h.bot.http.get_message(h.channel_id, sent.id)
    await sent.delete()
    assert h.dm_messages(ALICE) == {} and h.message(sent.id).deleted
    with pytest.raises(discord.NotFound):
        await h.bot.http.get_message(12345, 1)  # no such channel
    assert h.problems == [
        "GET /channels/{channel_id}/messages/{message_id} -> 404 10008 Unknown Message",
        "GET /channels/{channel_id}/messages/{message_id} -> 404 10003 Unknown Channel",
    ]
    h.problems.clear()


async def test_dm_bodies_get_discords_limits(h: Harness) -> None:
    alice = await h.bot.fetch_user(ALICE)
    with pytest.raises(discord.HTTPException, match="content: Must be 2000 or fewer") as refused:
        await alice.send("x" * 2001)
    assert refused.value.code == 50035 and h.dm_messages(ALICE) == {}
    with pytest.raises(discord.HTTPException, match="title: Must be 256 or fewer"):
        await alice.send(embed=discord.Embed(title="t" * 257))
    assert [p.split(" -> ")[1][:9] for p in h.problems] == ["400 50035", "400 50035"]
    h.problems.clear()  # else closing the harness fails: Discord refuses such bodies


async def test_an_unknown_recipient_gets_50033(h: Harness) -> None:
    with pytest.raises(discord.HTTPException) as unknown:
        await h.bot.create_dm(discord.Object(999))
    assert unknown.value.status == 400 and unknown.value.code == 50033
    with pytest.raises(discord.HTTPException) as malformed:
        await h.bot.http.start_private_message("alice")  # type: ignore[arg-type]
    assert malformed.value.code == 50035 and "recipient_id" in str(malformed.value)
    assert h.problems[0] == f"POST {OPEN_DM} -> 400 50033 Invalid Recipient(s)" and h.dm_channels == {}
    h.problems.clear()


async def test_closed_dms_open_a_channel_but_refuse_messages_with_50007(h: Harness) -> None:
    h.close_dms(BOB)
    r = await h.slash(BOB, "toy dm", text="your move")
    assert r.response.content == "cannot DM you: 50007" and r.errors == []
    assert [q.status for q in h.requests_to("POST", OPEN_DM)] == [200]  # opening still succeeds
    assert BOB in h.dm_channels and h.dm_messages(BOB) == {}
    with pytest.raises(discord.Forbidden) as refused:
        await (await h.bot.fetch_user(ROBOT)).send("bots take no DMs")
    assert refused.value.code == 50007 and refused.value.status == 403
    assert h.problems == [CLOSED, CLOSED]
    with pytest.raises(AssertionError, match="50007"):
        h.assert_no_errors()  # an expected refusal still has to be acknowledged by the test
    h.problems.clear()
    h.assert_no_errors()
    h.open_dms(BOB)
    assert (await h.slash(BOB, "toy dm", text="your move")).response.content.startswith("sent ")
    assert contents(h.dm_messages(BOB)) == ["your move"]
    with pytest.raises(HarnessError, match="unknown user"):
        h.close_dms(999)


async def test_closing_fails_only_on_refused_bodies_not_on_a_50007() -> None:
    h = await Harness.create(ToyBot(), users=[ALICE])
    h.close_dms(ALICE)
    assert (await h.slash(ALICE, "toy dm", text="hi")).response.content == "cannot DM you: 50007"
    assert h.problems == [CLOSED]
    await h.close()  # does not raise: a 50007 is Discord's rule about the user, not a bad body


async def test_a_click_in_a_dm_comes_from_the_dm(h: Harness) -> None:
    r = await h.slash(ALICE, "toy dm", text="your move")
    (dm,) = r.dms
    assert dm.recipient_id == ALICE and dm.custom_ids() == ["toy:dm:ack"] and r.public == []
    assert h.find_message("toy:dm:ack", user_id=ALICE).id == dm.message_id
    with pytest.raises(HarnessError, match="no live message"):
        h.find_message("toy:dm:ack", user_id=BOB)
    with pytest.raises(HarnessError, match="in the DMs of user 101"):
        await h.click(BOB, dm.message_id, "toy:dm:ack")
    clicked = await h.click(ALICE, dm, "toy:dm:ack")
    assert clicked.response.kind == "update" and clicked.response.recipient_id == ALICE
    assert h.bot.seen == [("ack", None, "DMChannel", "User")]
    assert contents(h.dm_messages(ALICE)) == ["your move (seen)"] and h.message(dm.message_id).components == []
    payload = h.interactions[next(reversed(h.interactions))].payload
    assert "guild_id" not in payload and "member" not in payload and payload["context"] == 1
    assert payload["user"]["id"] == str(ALICE) and payload["channel"]["type"] == 1
    assert set(h.visible_messages(ALICE)) >= {dm.message_id} and dm.message_id not in h.visible_messages(BOB)
    h.assert_all_answered()
    h.assert_no_errors()


async def test_dm_message_events_need_the_direct_messages_intent(h: Harness) -> None:
    sent = await (await h.bot.fetch_user(ALICE)).send("ping")
    cached = discord.utils.get(h.bot.cached_messages, id=sent.id)
    assert cached is not None and cached.guild is None and isinstance(cached.channel, discord.DMChannel)
    await h.restart(ToyBot(instance=2, intents=discord.Intents.default() & ~discord.Intents(dm_messages=True)))
    quiet = await (await h.bot.fetch_user(ALICE)).send("pong")
    assert discord.utils.get(h.bot.cached_messages, id=quiet.id) is None
    assert contents(h.dm_messages(ALICE)) == ["ping", "pong"]  # same channel after the restart
    post = await h.bot.get_channel(h.channel_id).send("guild messages still arrive")
    assert discord.utils.get(h.bot.cached_messages, id=post.id) is not None


async def test_dms_over_the_gateway_door(monkeypatch) -> None:
    async with FakeDiscord(users=[ALICE, BOB]) as fake:
        monkeypatch.setattr(Route, "BASE", fake.api_base)
        monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
        bot = ToyBot()
        task = asyncio.create_task(bot.start("token"))
        try:
            await fake.wait_for_ready()
            fake.close_dms(BOB)
            assert (await fake.slash(BOB, "toy dm", text="hi")).response.content == "cannot DM you: 50007"
            r = await fake.slash(ALICE, "toy dm", text="hi")
            (dm,) = await fake.wait_until(lambda: r.dms, what="the DM")
            await fake.wait_until(lambda: discord.utils.get(bot.cached_messages, id=dm.message_id), what="the event")
            assert (await fake.click(ALICE, dm.message_id, "toy:dm:ack")).response.content == "hi (seen)"
            assert fake.problems == [CLOSED] and contents(fake.dm_messages(ALICE)) == ["hi (seen)"]
        finally:
            await bot.close()
            await asyncio.wait_for(task, 5)


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
    dm = await (await h.bot.fetch_user(ALICE)).send(f"<@{ALICE}> <@{BOB}> @everyone")
    assert h.message(dm.id).notified(MEMBERS) == {ALICE}  # in a DM only its recipient can be pinged
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
