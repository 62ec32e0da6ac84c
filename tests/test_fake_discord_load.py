"""The fake under load: accounting (tests/support/accounting.py) and what a long run with many
interactions in flight needs of it."""

from __future__ import annotations

import json

from support.fake_discord import Harness
from support.gateway import Session
from support.toy_bot import ToyBot

ALICE = 101
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
    finally:
        await h.close()


def test_a_gateway_session_keeps_a_bounded_backlog_for_resume() -> None:
    session = Session({"intents": 0}, backlog=3)
    for n in range(5):
        session.queue("MESSAGE_CREATE", json.dumps({"n": n}))
    assert [seq for seq, _ in session.backlog] == [3, 4, 5] and json.loads(session.backlog[-1][1])["d"] == {"n": 4}
    assert session.resumable(2) and session.resumable(5) and not session.resumable(1)
