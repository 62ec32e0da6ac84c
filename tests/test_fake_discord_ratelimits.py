"""Discord's rate limits in the fake (tests/support/ratelimits.py), met by discord.py's real HTTP client."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import discord
import pytest
from support.errors import DiscordError
from support.fake_discord import FakeDiscord, FakeUser, Harness
from support.ratelimits import RateLimiter, RateLimits, SlidingWindow, bucket_of
from support.toy_bot import ToyBot

ALICE = 101
SEND, EDIT = "/channels/{channel_id}/messages", "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"


async def limited(**kwargs) -> Harness:
    kwargs.setdefault("rate_limits", True)
    return await Harness.create(ToyBot(), users=[FakeUser(ALICE, "alice")], **kwargs)


async def raw(fake: FakeDiscord, method: str, path: str, body: dict | None = None) -> tuple[int, dict, dict]:
    """A request as any HTTP client sends it: status, headers, JSON body."""
    async with aiohttp.ClientSession() as http:
        async with http.request(method, fake.api_base + path, json=body, headers={"Authorization": "Bot t"}) as r:
            return r.status, dict(r.headers), await r.json() if r.status != 204 else {}


# ------------------------------------------------------------------ the model, on a clock a test moves


class Clock:
    t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_a_bucket_is_a_sliding_window_and_says_so_in_its_headers() -> None:
    clock, limits = Clock(), RateLimits()
    limiter = RateLimiter(limits, clock)
    post, edit = bucket_of("POST", SEND, {"channel_id": "1"}), bucket_of("PATCH", EDIT, {"channel_id": "1"})
    other = bucket_of("DELETE", EDIT, {"channel_id": "2", "message_id": "9"})
    assert post.hash == edit.hash == other.hash and post.major == "1" and other.major == "2"
    remaining = []
    for step in range(5):
        clock.t = 1000.0 + step
        remaining.append(limiter.admit(post if step % 2 else edit, "Bot t")["X-RateLimit-Remaining"])
    assert remaining == ["4", "3", "2", "1", "0"]
    assert limiter.admit(other, "Bot t")["X-RateLimit-Remaining"] == "4"  # another channel, another bucket
    clock.t = 1004.5
    with pytest.raises(DiscordError) as refused:
        limiter.admit(post, "Bot t")
    assert refused.value.body() == {"message": "You are being rate limited.", "retry_after": 0.5, "global": False}
    headers = refused.value.headers
    assert headers["X-RateLimit-Scope"] == "user" and headers["Retry-After"] == "1"
    assert headers["X-RateLimit-Reset-After"] == "4.500"  # full again once the newest request is 5 s old
    clock.t = 1005.0  # the first request left the window: one more fits, not five
    assert limiter.admit(post, "Bot t")["X-RateLimit-Remaining"] == "0"


def test_the_global_limit_counts_every_bot_request_but_the_interaction_routes() -> None:
    clock = Clock()
    limiter = RateLimiter(RateLimits(), clock)
    for i in range(50):
        limiter.admit(bucket_of("GET", "/channels/{channel_id}", {"channel_id": str(i)}), "Bot t")
    callback = bucket_of("POST", CALLBACK, {"webhook_id": "1", "webhook_token": "tok"})
    assert not callback.counts_global and limiter.admit(callback, "Bot t")["X-RateLimit-Limit"] == "50"
    assert limiter.admit(bucket_of("POST", FOLLOWUP, {"webhook_id": "1", "webhook_token": "tok"}), None)
    clock.t += 0.25
    with pytest.raises(DiscordError) as refused:
        limiter.admit(bucket_of("GET", "/users/@me", {}), "Bot t")
    assert refused.value.body() == {"message": "You are being rate limited.", "retry_after": 0.75, "global": True}
    assert refused.value.headers == {"Retry-After": "1", "X-RateLimit-Scope": "global", "X-RateLimit-Global": "true"}
    assert limiter.admit(bucket_of("GET", "/users/@me", {}), "Bot other-bot")  # the limit is per token
    clock.t += 0.75
    assert limiter.admit(bucket_of("GET", "/users/@me", {}), "Bot t")


def test_the_sliding_window_forgets_what_is_older_than_its_period() -> None:
    window = SlidingWindow(5.0)
    assert [window.add(t) for t in (0.0, 1.0, 2.0, 5.0, 5.5)] == [1, 2, 3, 3, 4]  # 0.0 left at 5.0
    assert window.retry_after(5.5) == 0.5 and window.reset_after(5.5) == 5.0 and window.count(7.0) == 2


# ------------------------------------------------------------------ through discord.py


async def test_every_answer_carries_its_bucket_and_a_forced_429_is_discords() -> None:
    h = await limited(channels=2)
    try:
        status, headers, sent = await raw(h, "POST", f"/channels/{h.channel_id}/messages", {"content": "hi"})
        assert status == 200 and headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "4"
        assert float(headers["X-RateLimit-Reset-After"]) == pytest.approx(5.0, abs=0.1) and headers["Via"]
        assert float(headers["X-RateLimit-Reset"]) == pytest.approx(time.time() + 5.0, abs=1.0)
        status, edited, _ = await raw(h, "PATCH", f"/channels/{h.channel_id}/messages/{sent['id']}", {"content": "x"})
        assert edited["X-RateLimit-Bucket"] == headers["X-RateLimit-Bucket"] and edited["X-RateLimit-Remaining"] == "3"
        _, elsewhere, _ = await raw(h, "POST", f"/channels/{h.channel_ids[1]}/messages", {"content": "hi"})
        assert elsewhere["X-RateLimit-Remaining"] == "4"
        _, me, _ = await raw(h, "GET", "/users/@me")
        assert me["X-RateLimit-Limit"] == "50" and me["X-RateLimit-Bucket"] != headers["X-RateLimit-Bucket"]
        h.fail_next("GET", "/users/@me", status=429, retry_after=1.25, scope="global")
        status, headers, body = await raw(h, "GET", "/users/@me")
        assert (status, body) == (429, {"message": "You are being rate limited.", "retry_after": 1.25, "global": True})
        assert headers["Retry-After"] == "2" and headers["X-RateLimit-Global"] == "true" and headers["Via"]
        assert headers["X-RateLimit-Scope"] == "global" and "X-RateLimit-Bucket" not in headers
        h.fail_next("GET", "/users/@me", status=429, retry_after=0.2)
        status, headers, body = await raw(h, "GET", "/users/@me")
        assert body["global"] is False and headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Bucket"]
        assert h.stats()["rate_limited_by_scope"] == {"global": 1, "user": 1} and h.problems == []
    finally:
        await h.close()


async def test_ten_quick_edits_of_one_message_wait_for_the_channel_bucket() -> None:
    """discord.py reads Remaining 0 and Reset-After and sleeps them out before the edit that emptied the
    bucket returns (the fifth and the tenth each take 5 s): no 429 at all."""
    h = await limited()
    try:
        channel = h.bot.get_channel(h.channel_id)
        message = channel.get_partial_message(h.new_message({"content": "0"}).id)
        returned = []
        for n in range(1, 11):
            await message.edit(content=str(n))
            returned.append(time.monotonic())
        edits = h.requests_to("PATCH", EDIT)
        assert edits[5].at - edits[4].at >= 5.0 and returned[4] - edits[4].at >= 4.9
        assert returned[9] - edits[9].at >= 4.9 and h.channel_messages[message.id].content == "10"
        stats = h.stats()
        assert (stats["busiest_channel"], stats["busiest_channel_ops"], stats["rate_limited"]) == (h.channel_id, 5, 0)
        assert [r.status for r in h.requests_to("PATCH", EDIT)] == [200] * 10
    finally:
        await h.close()


async def test_concurrent_posts_in_one_channel_stay_within_five_per_window() -> None:
    h = await limited(rate_limits=RateLimits(message_period=1.0))
    try:
        channel = h.bot.get_channel(h.channel_id)
        start = time.monotonic()
        await asyncio.gather(*(channel.send(f"post {n}") for n in range(12)))
        assert time.monotonic() - start > 1.9 and len(h.channel_messages) == 12
        assert h.stats()["busiest_channel_ops"] == 5
    finally:
        await h.close()


async def test_past_fifty_requests_a_second_discord_py_sleeps_out_the_global_429() -> None:
    h = await limited(channels=60)
    try:
        fetched = await asyncio.gather(*(h.bot.fetch_channel(c) for c in h.channel_ids))  # 60 buckets, one limit
        assert [c.id for c in fetched] == h.channel_ids
        stats = h.stats()
        assert stats["rate_limited_by_scope"].get("global", 0) >= 10 and stats["peak_global_per_second"] == 50
        assert {r.status for r in h.requests_to("GET", "/channels/{channel_id}")} == {200, 429}
    finally:
        await h.close()


async def test_a_forced_global_429_holds_every_request_of_the_bot() -> None:
    h = await limited()
    try:
        h.fail_next("POST", SEND, status=429, retry_after=0.5, scope="global")
        post = asyncio.create_task(h.bot.get_channel(h.channel_id).send("after the pause"))
        await h.wait_until(lambda: h.requests_to("POST", SEND), what="the first try")
        user = await h.bot.fetch_user(ALICE)  # another route, held by discord.py's global lock
        await post
        first, retry = h.requests_to("POST", SEND)
        (fetch,) = h.requests_to("GET", "/users/{user_id}")
        assert (first.status, retry.status, user.id) == (429, 200, ALICE)
        assert retry.at - first.at >= 0.5 and fetch.at - first.at >= 0.45
    finally:
        await h.close()


async def test_five_429s_in_a_row_reach_the_caller_as_an_http_exception() -> None:
    h = await limited()
    try:
        h.fail_next("POST", SEND, status=429, retry_after=0.01, times=5)
        with pytest.raises(discord.HTTPException) as gave_up:
            await h.bot.get_channel(h.channel_id).send("never")
        assert gave_up.value.status == 429 and len(h.requests_to("POST", SEND)) == 5
        assert {r.json["content"] for r in h.requests_to("POST", SEND)} == {"never"}  # the same body each time
    finally:
        await h.close()


async def test_interaction_callbacks_are_never_rate_limited_nor_counted_as_global() -> None:
    h = await limited(rate_limits=RateLimits(global_limit=3, route_limit=3))
    try:
        before = h.stats()
        results = [await h.slash(ALICE, "toy note", settle=False) for _ in range(20)]
        await h.settle()
        assert all(h.message(r.response.message_id).content == "noted (edited)" for r in results)
        stats = h.stats()
        for route in (CALLBACK, FOLLOWUP, FOLLOWUP + "/messages/@original"):
            assert all(r.status < 300 for r in h.requests_to("POST", route) + h.requests_to("GET", route))
        assert stats["global_limited"] == before["global_limited"] and stats["rate_limited"] == 0
        assert stats["interaction_token"] - before["interaction_token"] == 20 * 6  # callback, get, edit, 3 followup
        h.fail_next("POST", CALLBACK, status=429, retry_after=0.1)  # the webhook adapter sleeps it out too
        assert (await h.slash(ALICE, "toy say", text="late")).response.content == "late"
        h.assert_all_answered()
    finally:
        await h.close()
