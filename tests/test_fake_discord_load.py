"""The fake under load: accounting (tests/support/accounting.py), bounded memory for long runs, many
interactions in flight over the gateway with their latency, and the throughput the fake takes
(tests/support/load.py)."""

from __future__ import annotations

import asyncio
import json

from support.fake_discord import FakeDiscord, Harness
from support.gateway import Session
from support.load import run_load
from support.toy_bot import ToyBot, on_gateway

ALICE, BOB = 101, 102
SEND = "/channels/{channel_id}/messages"
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


async def test_stats_count_routes_global_and_token_requests_and_the_busiest_channel() -> None:
    h = await Harness.create(ToyBot(), users=[ALICE], channels=2)
    try:
        for _ in range(3):
            await h.slash(ALICE, "toy post", channel_id=h.channel_ids[1])  # callback + a channel message
        await h.bot.get_channel(h.channel_id).send("one in the first channel")
        stats = h.stats()
        assert stats["by_route"][f"POST {SEND}"] == 4 and stats["by_route"][f"POST {CALLBACK}"] == 3
        assert stats["interaction_token"] == 3 and stats["global_limited"] == stats["requests"] - 3
        assert (stats["busiest_channel"], stats["busiest_channel_ops"]) == (h.channel_ids[1], 3)
        assert stats["rate_limited"] == 0 and stats["invalid"] == 0 and stats["message_window"] == 5.0
        posts = h.requests_to("POST", SEND)
        assert [r.channel_id for r in posts] == [h.channel_ids[1]] * 3 + [h.channel_id]
        callbacks = h.requests_to("POST", CALLBACK)
        assert all(r.global_limited for r in posts) and not any(r.global_limited for r in callbacks)
        assert all(a.at <= b.at for a, b in zip(h.requests, h.requests[1:], strict=False))
        json.dumps(stats)  # ready for a benchmark's report
    finally:
        await h.close()


async def test_a_long_run_keeps_counters_and_the_newest_outputs_only() -> None:
    h = await Harness.create(ToyBot(), users=[ALICE], record_requests=False, keep_outputs=4)
    try:
        results = [await h.slash(ALICE, "toy say", text=f"n{n}") for n in range(30)]
        assert h.requests == [] and h.stats()["by_route"][f"POST {CALLBACK}"] == 30
        assert len(h.outputs) <= 8 and h.outputs_dropped >= 22 and h.outputs[-1].content == "n29"
        assert [r.response.content for r in results] == [f"n{n}" for n in range(30)]  # kept by each result
        assert results[0].outputs == [] and [o.content for o in results[-1].outputs] == ["n29"]
        assert all(i.payload == {} for i in h.interactions.values())
        h.advance(31)  # half a minute on, an interaction keeps its token and callback type, not its bodies
        later = await h.slash(ALICE, "toy say", text="later")
        assert results[0].response is None and results[0].callback_type == 4 and later.response.content == "later"
    finally:
        await h.close()


async def test_a_hundred_interactions_in_flight_over_the_gateway_each_with_its_latency() -> None:
    async with FakeDiscord(users=[ALICE, BOB], channels=10, token="t") as fake, on_gateway(fake) as bot:
        together = await asyncio.gather(
            *(fake.slash(ALICE, "toy say", text=f"n{n}", channel_id=fake.channel_ids[n % 10]) for n in range(100))
        )
        assert [r.response.content for r in together] == [f"n{n}" for n in range(100)]
        assert all(0 < r.latency < 5 and r.sent_at < r.answered_at for r in together)
        sent = [await fake.slash(BOB, "toy say", text=f"m{n}", settle=False) for n in range(50)]
        assert any(r.unanswered and r.latency is None for r in sent)  # nothing waited yet
        answered = await asyncio.gather(*(fake.wait_answered(r) for r in sent))
        assert all(r.latency is not None for r in answered) and fake.problems == []
        (session,) = fake.gateway.sessions.values()
        await fake.wait_until(lambda: bot.ws.sequence == session.seq, what="every dispatch")


def test_a_gateway_session_keeps_a_bounded_backlog_for_resume() -> None:
    session = Session({"intents": 0}, backlog=3)
    for n in range(5):
        session.queue("MESSAGE_CREATE", json.dumps({"n": n}))
    assert [seq for seq, _ in session.backlog] == [3, 4, 5] and json.loads(session.backlog[-1][1])["d"] == {"n": 4}
    assert session.resumable(2) and session.resumable(5) and not session.resumable(1)


async def test_the_fake_serves_a_hundred_and_fifty_clicks_a_second_with_rate_limits_on() -> None:
    """A bare bot in a subprocess answers each click and edits 40 messages a second in 200 channels; every click
    is answered and Discord's limits hold. The rates and latencies are printed, not asserted: a busy machine
    serves fewer (`python tests/clicks_per_decision.py` and the bench scripts measure speed)."""
    clicks = 150
    report = await run_load(seconds=3.0, clicks_per_second=clicks, edits_per_second=40.0, channels=200)
    print(json.dumps(report))
    assert report["answered"] == report["clicks"] == 3 * clicks and report["problems"] == 0
    assert report["peak_global_per_second"] <= 50 and report["busiest_channel_ops"] <= 5
