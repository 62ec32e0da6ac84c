"""The heads-up (issue 29, point 4): a player can ask to be told quietly (a direct message, or a channel line
that pings nobody) when the player before them in an auction is on the clock."""

from __future__ import annotations

import random

from support.bot_support import (
    ADA,
    BEN,
    CLEO,
    STRANGER,
    PublicRecord,
    game,
    message_text,
    next_to_act,
    open_and_start,
    take_a_decision,
)

from bot.service.turns import next_up
from engine import new_game
from engine.state import Auction
from storage import Seat, Table

MEMBERS = (ADA, BEN, CLEO, STRANGER)


def auction_at(turn: int, passed=(False, False, False, False)):
    state, _ = new_game(["a", "b", "c", "d"], seed=2)
    state = state.model_copy(update={"phase": "auction",
                                     "auction": Auction(turn=turn, offers=[0] * 4, passed=list(passed))})
    return state


def test_the_next_bidder_still_in_the_auction_is_next_up_and_nobody_in_a_secret_choice():
    table = Table(host="a", seats=tuple(Seat(id=p) for p in "abcd"))
    assert next_up(auction_at(1), table, {"b"}) == "c"
    assert next_up(auction_at(3), table, {"d"}) == "a"  # round the table
    assert next_up(auction_at(1, passed=(False, False, True, False)), table, {"b"}) == "d"  # c is out
    assert next_up(auction_at(1, passed=(True, False, True, True)), table, {"b"}) is None  # alone in it
    assert next_up(auction_at(1), table, {"c"}) is None  # the one due is not the bidder
    stood_in = table.with_seat("c", stand_in=True)
    assert next_up(auction_at(1), stood_in, {"b"}) is None  # the computer plays c: nobody to tell
    initial, _ = new_game(["a", "b", "c", "d"], seed=2)  # the first purchase: everybody at once
    assert next_up(initial, table, set("abcd")) is None


async def test_heads_ups_reach_only_who_asked_quietly_and_by_their_choice(harness):
    h = harness
    set_dm = await h.slash(CLEO, "augsburg seat notify", heads_up="dm")
    assert set_dm.answer.ephemeral and "direct message tells you" in set_dm.answer.content
    await h.slash(BEN, "augsburg seat notify", heads_up="channel")
    shown = await h.slash(BEN, "augsburg seat notify")  # no option: what is set
    assert "Mention me in the channel" in shown.answer.content and "without a ping" in shown.answer.content
    await open_and_start(h)
    rnd, seen, told = random.Random(11), PublicRecord(), []
    for _ in range(400):  # well into the game's auctions
        record = game(h)
        before = {m.id for m in h.dm_messages(CLEO).values()}
        user = await next_to_act(h, seen, rnd)
        if user is None:
            break
        await take_a_decision(h, user, h.find_message(label="My hand & actions").id, rnd)
        record = game(h)
        new = [m for m in h.dm_messages(CLEO).values() if m.id not in before and "Heads-up" in m.content]
        if new:
            auction = record.state.auction
            ids = [p.id for p in record.state.players]
            still_in = [ids[(auction.turn + i) % 3] for i in (1, 2) if not auction.passed[(auction.turn + i) % 3]]
            told.append((ids[auction.turn], still_in[0]))
    assert told, "Cleo asked for heads-ups by DM and got none"
    assert all(now != str(CLEO) and after == str(CLEO) for now, after in told)  # she bids right after them
    assert not [m for m in h.dm_messages(ADA).values() if "Heads-up" in m.content]  # Ada did not ask
    lines = [m for m in h.posted_in().values() if "👀" in m.content]
    assert lines and all(f"<@{BEN}>" in m.content and m.notified(MEMBERS) == set() for m in lines)
    assert all("👀" not in message_text(m) or f"<@{BEN}>" in m.content for m in h.posted_in().values())
    done = [m for m in lines if m.deleted]
    assert done and all(m.deleted for m in lines[:-1]), "a line is deleted once the bid it heralds is made"
    h.assert_no_errors()


async def test_a_heads_up_outside_the_hours_waits_for_them_and_comes_if_still_next(tmp_path):
    """Issue 43: Cleo asked for a heads-up by DM but is outside her hours (09:00–23:00 UTC; the clock says 08:00):
    it is owed, and sent when her hours begin, if she still bids right after the same decision."""
    from support.bot_support import clocked_harness, make_bot, pass_time, service

    h = await clocked_harness(tmp_path / "bot.sqlite3",
                              lambda path, clock: make_bot(path, clock=clock, turn_timeout_seconds=4 * 3600))
    try:
        await h.slash(CLEO, "augsburg seat notify", heads_up="dm")
        await service(h).mine.set_hours(CLEO, "UTC", (9, 23))
        await open_and_start(h)
        rnd, seen = random.Random(11), PublicRecord()
        owed = []
        for _ in range(200):
            user = await next_to_act(h, seen, rnd)
            if user is None:
                break
            await take_a_decision(h, user, h.find_message(label="My hand & actions").id, rnd)
            owed = [d for d in await service(h).deadlines.deadlines() if d.kind == "heads_up"]
            if owed:
                break
        assert owed and owed[0].player == str(CLEO)
        assert not [m for m in h.dm_messages(CLEO).values() if "Heads-up" in m.content]  # not in her sleep
        assert not [m for m in h.posted_in().values() if f"<@{CLEO}>" in m.content and "👀" in m.content]
        await pass_time(h, owed[0].due_at - h.clock.now())  # her hours begin, the same bidder still on the clock
        told = [m for m in h.dm_messages(CLEO).values() if "Heads-up" in m.content]
        assert len(told) == 1 and not [d for d in await service(h).deadlines.deadlines() if d.kind == "heads_up"]
        h.assert_no_errors()
    finally:
        await h.close()
