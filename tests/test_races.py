"""Moves and drawings of one channel interleaved on purpose: the table ends right, nothing stale is sent,
no second table appears, no ping is lost (issue 11). The fake holds or throttles a request exactly
where a race would bite."""

from __future__ import annotations

import asyncio
import random

import pytest
from support.bot_support import ADA, BEN, CLEO, game, long_lived, make_bot, open_and_start, shows_now, take_a_decision
from support.fake_discord import DEFAULT, FakeUser, Harness

from engine import to_act

TABLE_EDIT = "/channels/{channel_id}/messages/{message_id}"
FOLLOW_UP = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"


@pytest.fixture
async def h(tmp_path):
    users = [FakeUser(ADA, "Ada"), FakeUser(BEN, "Ben"), FakeUser(CLEO, "Cleo")]
    path = tmp_path / "races.sqlite3"
    harness = await Harness.create(make_bot(path, delay=0.05), users=users, ignore=(long_lived,))
    harness.db_path = path
    yield harness
    await harness.close()



async def buy_nothing(h, user: int, table: int, settle: bool = True):
    panel = (await h.click(user, table, label="My hand & actions", settle=settle)).answer
    panel_id = panel.message_id if panel is not None else (await _answer(h, user)).id  # not settled: wait for it
    result = await h.click(user, panel_id, label="Buy nothing", settle=settle)
    if not settle:
        await _until(lambda: str(user) not in to_act(game(h).state))
    return result


async def _answer(h, user: int):
    await _until(lambda: any("Your money" in m.content for m in h.ephemeral_messages(user).values()))
    return list(h.ephemeral_messages(user).values())[-1]


async def _until(condition) -> None:
    for _ in range(1500):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("it did not happen in 30 seconds")


async def test_a_move_during_a_table_edit_is_drawn_after_it(h):
    table = await open_and_start(h)
    held, release = asyncio.Event(), asyncio.Event()

    async def hold(request):
        if request.path.endswith(f"/{table}") and not held.is_set():
            held.set()
            await release.wait()
        return DEFAULT

    h.on_route("PATCH", TABLE_EDIT, hold)
    await buy_nothing(h, ADA, table, settle=False)
    await asyncio.wait_for(held.wait(), 5)  # Ada's move is being drawn right now
    await buy_nothing(h, BEN, table, settle=False)  # Ben moves while that edit is on its way
    release.set()
    await h.settle()
    assert shows_now(h, table), h.message(table).embeds[0]["description"]
    edits = [r for r in h.requests_to("PATCH", TABLE_EDIT) if r.path.endswith(f"/{table}") and r.status == 200]
    assert f"<@{BEN}>" in edits[-2].json["embeds"][0]["description"]  # the held edit: from before Ben's move
    assert f"<@{BEN}>" not in edits[-1].json["embeds"][0]["description"]  # then the newest


async def test_a_throttled_edit_is_never_replayed_stale(h):
    table = await open_and_start(h)
    # Long enough that Ben's move lands while discord.py waits it out, even on a busy machine.
    h.fail_next("PATCH", TABLE_EDIT, 429, message="You are being rate limited.", retry_after=8.0)
    await buy_nothing(h, ADA, table, settle=False)
    for _ in range(1500):  # wait for Discord to answer 429 (discord.py then sleeps 8 s and would replay)
        await asyncio.sleep(0.02)
        if any(r.status == 429 for r in h.requests_to("PATCH", TABLE_EDIT)):
            break
    await buy_nothing(h, BEN, table, settle=False)  # Ben moves while discord.py waits out the 429
    await h.settle(timeout=30)
    edits = [r for r in h.requests_to("PATCH", TABLE_EDIT) if r.path.endswith(f"/{table}")]
    assert edits[0].status == 429
    done = [r for r in edits if r.status == 200]
    assert len(done) == 1 and shows_now(h, table)  # the throttled edit was given up, not replayed
    # Before Ben's move the table waited for Ben and Cleo: that state must never reach Discord late.
    assert all(f"<@{BEN}>" not in r.json["embeds"][0]["description"] for r in done), (
        "the state from before Ben's move was sent after it")


async def test_a_pending_drawing_never_posts_a_second_table(h):
    table = await open_and_start(h, players=(ADA, BEN))
    await buy_nothing(h, ADA, table, settle=False)  # a drawing of this game is pending...
    ask = await h.slash(ADA, "augsburg cancel", settle=False)
    await h.settle()
    await h.click(ADA, ask.answer.message_id, label="Yes, cancel the game", settle=False)
    fresh = await h.slash(BEN, "augsburg new", settle=False)  # ...when a new table opens
    await h.settle()
    live = [m for m in h.channel_messages.values() if any(c.startswith("aug:") for c in m.custom_ids())]
    assert [m.id for m in live] == [fresh.answer.message_id], "exactly one live table: the new lobby"
    assert "cancelled" in h.message(table).embeds[0]["description"] and not h.message(table).custom_ids()


async def test_a_burst_of_moves_loses_no_ping_and_deletes_only_pings_whose_decision_is_made(h):
    table = await open_and_start(h)
    rnd = random.Random(9)
    for _ in range(30):
        await take_a_decision(h, int(rnd.choice(to_act(game(h).state))), table, rnd)
    pings = [m for m in h.posted_in().values() if "your move" in m.content]
    kept = {p.id for p in game(h).messages.pings}
    assert pings and not h.message(table).deleted, "the table is never deleted"
    assert all(m.deleted != (m.id in kept) for m in pings), "a ping is deleted exactly when its decision is made"
    deletions = h.requests_to("DELETE", TABLE_EDIT) + h.requests_to("DELETE", FOLLOW_UP)  # as a message, by token
    assert len(deletions) == len([m for m in pings if m.deleted]), "each ping deleted once"
    assert shows_now(h, table)

