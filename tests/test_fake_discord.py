"""The fake Discord (tests/support) through its two doors, with the toy bot of support/toy_bot.py."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route
from support.fake_discord import (
    DEFAULT,
    EPHEMERAL,
    TOKEN_LIFETIME,
    FakeDiscord,
    FakeUser,
    Harness,
    HarnessError,
    SettleTimeout,
)
from support.toy_bot import COLORS, EagerBot, ToyBot, on_gateway

ALICE, BOB = 101, 102
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
SEND = "/channels/{channel_id}/messages"


@pytest.fixture
async def h():
    harness = await Harness.create(ToyBot(), users=[FakeUser(ALICE, "alice"), FakeUser(BOB, "bob")])
    yield harness
    await harness.close()


async def test_login_setup_hook_and_sync_go_over_http_to_the_fake(h: Harness) -> None:
    bot = h.bot
    assert bot.user.id == h.bot_user.id == bot.application_id and bot.is_ready()
    assert h.channel_id in {c.id for c in bot.get_guild(h.guild_id).channels}
    assert Route.BASE == h.api_base and all(r.authorization == f"Bot fake-token-{h.key}" for r in h.requests)
    (sync,) = h.requests_to("PUT", "/applications/{application_id}/commands")
    (toy,) = sync.json
    assert toy["name"] == "toy" and {o["name"] for o in toy["options"]} >= {"count", "color", "admin"}


async def test_slash_click_and_the_channel_model(h: Harness) -> None:
    r = await h.slash(ALICE, "toy count", start=3)
    assert r.response.kind == "response" and not r.response.ephemeral and r.response.content == "count=3"
    assert r.custom_ids() == ["toy:btn:3"] and r.labels() == ["Bump 3"]
    assert h.bot.seen == [("count", "int", "Member")]
    board = r.response.message_id
    msg = h.channel_messages[board]
    assert msg.data["interaction_metadata"]["user"]["id"] == str(ALICE)
    assert any(m.id == board for m in h.bot.cached_messages)  # MESSAGE_CREATE: default intents get it

    bumped = await h.click(BOB, board, "toy:btn:3")
    assert bumped.response.kind == "update" and bumped.response.message_id == board
    assert h.message(board).custom_ids() == ["toy:btn:4"]
    with pytest.raises(HarnessError, match="no component"):
        await h.click(BOB, board, "toy:btn:3")  # gone from the message: no user can click it
    again = await h.click(ALICE, bumped, label="Bump 4")
    assert again.response.content == "count=5"
    h.assert_all_answered()
    h.assert_no_errors()


async def test_autocomplete_and_an_ephemeral_select(h: Harness) -> None:
    assert await h.autocomplete(ALICE, "toy color", "name", "re") == [
        {"name": "red", "value": "red"},
        {"name": "rebeccapurple", "value": "rebeccapurple"},
    ]
    out = (await h.slash(ALICE, "toy color", name="blue")).response
    assert out.ephemeral and out.payload["flags"] & EPHEMERAL
    assert [o["value"] for o in out.select_options("toy:pick")] == COLORS
    assert out.message_id in h.ephemeral_messages(ALICE) and out.message_id not in h.channel_messages
    with pytest.raises(HarnessError, match="ephemeral"):
        await h.select(BOB, out.message_id, "toy:pick", ["red"])
    with pytest.raises(HarnessError, match="not among options"):
        await h.select(ALICE, out.message_id, "toy:pick", ["purple"])
    picked = await h.select(ALICE, out.message_id, "toy:pick", ["green"])
    assert picked.response.content == "you picked green (on ephemeral=True)"
    # an ephemeral message is not reachable through channel routes, as on Discord
    with pytest.raises(discord.NotFound):
        await h.bot.http.get_message(h.channel_id, out.message_id)
    assert h.problems == ["GET /channels/{channel_id}/messages/{message_id} -> 404 10008 Unknown Message"]


async def test_thinking_defer_followups_and_webhook_edits(h: Harness) -> None:
    r = await h.slash(BOB, "toy slow")
    defer, first, second = r.outputs
    assert [o.kind for o in r.outputs] == ["defer", "followup", "followup"]
    assert first.message_id == defer.message_id and first.content == "done thinking"
    assert second.message_id != first.message_id and "Extra" in r.text and not r.still_thinking
    private = await h.slash(BOB, "toy slow", private=True)
    defer, first, second = private.outputs
    assert first.ephemeral and first.message_id == defer.message_id and not second.ephemeral
    note = await h.slash(ALICE, "toy note")
    kinds = ["response", "edit_original", "followup", "followup_edit", "followup_delete"]
    assert [o.kind for o in note.outputs] == kinds and note.outputs[1].content == "noted (edited)"
    h.assert_all_answered()


async def test_client_side_checks_of_options(h: Harness) -> None:
    r = await h.slash(ALICE, "toy admin reset", confirm=False, reason="why not")
    assert r.response.content == "reset confirm=False reason='why not'"
    cases = [
        ("toy count", {}, "required option 'start'"),
        ("toy count", {"start": "3"}, "integer"),
        ("toy count", {"start": 5000}, "outside"),
        ("toy count", {"start": 1, "nope": 2}, "unknown option"),
        ("toy nope", {}, "no subcommand"),
        ("toy admin", {}, "is a group"),
    ]
    for command, options, error in cases:
        with pytest.raises(HarnessError, match=error):
            await h.slash(ALICE, command, **options)
    assert len(h.requests_to("POST", CALLBACK)) == 1


async def test_unanswered_failed_and_stuck_handlers_are_reported(h: Harness) -> None:
    assert (await h.slash(ALICE, "toy ignore")).unanswered
    with pytest.raises(AssertionError, match="never answered"):
        h.assert_all_answered()
    boom = await h.slash(ALICE, "toy boom")
    assert boom.unanswered and any("kaboom" in e for e in boom.errors)
    with pytest.raises(AssertionError, match="kaboom"):
        h.assert_no_errors()
    hang = await h.slash(ALICE, "toy hang", settle=False)
    with pytest.raises(SettleTimeout, match="hang"):
        await h.settle(timeout=0.2)
    assert hang.response.content == "hanging"


async def test_three_seconds_to_answer_on_the_fakes_clock(h: Harness) -> None:
    r = await h.slash(ALICE, "toy late", settle=False)
    h.advance(3.1)
    h.bot.gate.set()
    await h.settle()
    assert r.unanswered and any("10062" in e for e in r.errors)
    assert h.problems == [f"POST {CALLBACK} -> 404 10062 Unknown interaction"]


async def test_a_token_takes_followups_for_fifteen_minutes_only(h: Harness) -> None:
    r = await h.slash(ALICE, "toy wait", settle=False)
    await h.wait_until(lambda: r.response, what="the defer")
    h.advance(TOKEN_LIFETIME + 1)
    h.bot.gate.set()
    await h.settle()
    assert r.still_thinking and any("50027" in e and "Invalid Webhook Token" in e for e in r.errors)
    assert h.problems == ["POST /webhooks/{webhook_id}/{webhook_token} -> 401 50027 Invalid Webhook Token"]


async def test_a_second_answer_gets_40060_and_guild_commands_work() -> None:
    guild_id = 777_000_000_000_000_001
    h = await Harness.create(EagerBot(guild_id=guild_id), guild_id=guild_id, users=[ALICE])
    try:
        assert h.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
        r = await h.slash(ALICE, "toy say", text="hello")
        assert r.interaction_id and len([o for o in r.outputs if o.kind == "response"]) == 1
        assert any("40060" in e for e in r.errors)
        assert h.problems == [f"POST {CALLBACK} -> 400 40060 Interaction has already been acknowledged."]
    finally:
        await h.close()


async def test_channel_posts_deletes_and_a_restart(h: Harness) -> None:
    counter = (await h.slash(ALICE, "toy count", start=7)).response.message_id
    r = await h.slash(ALICE, "toy post")
    post, ack = r.outputs
    assert [o.kind for o in r.outputs] == ["channel_message", "response"] and ack.content == f"posted {post.message_id}"
    first = h.bot
    await h.restart(ToyBot(instance=2))
    assert first.is_closed() and h.bot is not first
    assert (await h.click(BOB, counter, "toy:btn:7")).response.content == "count=8"  # DynamicItem: rebuilt
    assert h.bot.seen == [("bump", 7, BOB, 2)]
    assert (await h.click(BOB, post.message_id, "toy:delete")).unanswered  # a plain View died with the bot
    await h.restart(ToyBot(instance=3))
    deleted = (await h.slash(ALICE, "toy post")).outputs[0].message_id
    await h.restart(ToyBot(instance=4))
    h.message(deleted).deleted = True  # a user deleted it
    with pytest.raises(discord.NotFound):
        await h.bot.http.delete_message(h.channel_id, deleted)
    h.problems.clear()


async def test_injected_failures_meet_discord_pys_real_http_client(h: Harness) -> None:
    h.fail_next("POST", SEND, status=403, code=50013, message="Missing Permissions")
    r = await h.slash(ALICE, "toy post")
    assert r.unanswered and any("Missing Permissions" in e for e in r.errors)
    h.fail_next("POST", SEND, status=429, retry_after=0.01)  # discord.py waits and retries by itself
    assert not (await h.slash(ALICE, "toy post")).unanswered
    assert [r.status for r in h.requests_to("POST", SEND)] == [403, 429, 200]
    seen = []
    h.on_route("POST", SEND, lambda req: seen.append(req.json["content"]) or DEFAULT)
    await h.slash(ALICE, "toy post")
    assert seen == ["a plain post"] and h.problems == []  # injected failures are not refusals


async def test_a_lost_answer_leaves_the_request_done_and_discord_pys_retry_meets_it(h: Harness) -> None:
    h.lose_next_answer("POST", CALLBACK)  # Discord answers the callback, then says 500
    r = await h.slash(ALICE, "toy say", text="hello")
    assert not r.unanswered and r.answer.content == "hello"
    assert [req.status for req in h.requests_to("POST", CALLBACK)] == [500, 400]  # discord.py tried again
    assert any("40060" in e for e in r.errors)  # which the toy bot does not expect
    assert h.problems == [f"POST {CALLBACK} -> 400 40060 Interaction has already been acknowledged."]
    h.problems.clear()
    h.lose_next_answer("POST", "/webhooks/{webhook_id}/{webhook_token}")
    r = await h.slash(ALICE, "toy shout", text="hi")
    assert [o.content for o in r.outputs if o.kind == "followup"] == [f"<@{ALICE}> hi"] * 2  # posted twice
    assert r.errors == [] and h.problems == []


async def test_the_gateway_door_counts_a_callback_whose_answer_was_lost_as_answered() -> None:
    async with FakeDiscord(users=[ALICE]) as fake, on_gateway(fake):
        fake.lose_next_answer("POST", CALLBACK)
        r = await fake.slash(ALICE, "toy say", text="hello")  # settled by the callback Discord took
        assert not r.unanswered and r.answer.content == "hello"
        await fake.wait_until(lambda: fake.problems, what="discord.py's retry")
        assert fake.problems == [f"POST {CALLBACK} -> 400 40060 Interaction has already been acknowledged."]


async def test_close_fails_when_discord_would_refuse_what_the_bot_sent() -> None:
    h = await Harness.create(ToyBot(), users=[ALICE])
    r = await h.slash(ALICE, "toy say", text="x" * 2001)
    assert r.unanswered and any("In data.content: Must be 2000 or fewer in length" in e for e in r.errors)
    with pytest.raises(AssertionError, match="Discord would refuse what the bot sent"):
        await h.close()
    assert Route.BASE == "https://discord.com/api/v10"


# ------------------------------------------------------------------ the door for another process


async def test_gateway_door_identify_interactions_message_events_and_resume(monkeypatch) -> None:
    async with FakeDiscord(users=[ALICE, BOB], token="sekrit") as fake:
        monkeypatch.setattr(Route, "BASE", fake.api_base)
        monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
        async with ToyBot() as stranger:
            with pytest.raises(discord.LoginFailure):
                await stranger.login("wrong")
        bot = ToyBot()
        resumed = asyncio.Event()

        async def on_resumed() -> None:
            resumed.set()

        bot.add_listener(on_resumed)
        task = asyncio.create_task(bot.start("sekrit"))
        try:
            assert (await fake.wait_for_ready())["token"] == "sekrit"
            assert fake.gateway.connections[0].get("compress") in ("zlib-stream", "zstd-stream")
            r = await fake.slash(ALICE, "toy count", start=1)
            clicked = await fake.click(BOB, r.response.message_id, "toy:btn:1")
            assert clicked.response.content == "count=2"
            await fake.wait_until(lambda: discord.utils.get(bot.cached_messages, id=r.response.message_id))
            await fake.gateway.reconnect()  # op 7: discord.py reconnects and RESUMEs
            await asyncio.wait_for(resumed.wait(), 10)
            assert fake.gateway.ready_count == 1 and fake.gateway.resume_count == 1
            assert (await fake.slash(BOB, "toy say", text="still here")).response.content == "still here"
            with pytest.raises(discord.NotFound):
                await bot.http.request(Route("GET", "/applications/{a}/role-connections/metadata", a=1))
            assert [r.path for r in fake.unknown_requests] == ["/applications/1/role-connections/metadata"]
            async with aiohttp.ClientSession() as http, http.get(f"{fake.api_base}/users/@me") as resp:
                assert resp.status == 401
        finally:
            await bot.close()
            await asyncio.wait_for(task, 5)
