"""Fewer pings (issue 27) through the bot and the fake Discord: a decision with one legal option is taken for
its person without a ping or a click; a person watching their panel gets their decision there, and a ping
only if they have not decided a few minutes later (after a restart too); a panel that can no longer follow
the game means a ping at once; an auction turn settled ahead on the panel is made when it comes."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from support.bot_support import (
    ADA,
    BEN,
    CLEO,
    buy_for_philipp,
    clocked_harness,
    due_people,
    game,
    make_bot,
    open_and_start,
    pass_time,
    run,
    service,
)

from engine.state import Auction, Showdown
from storage import Deadline

WATCH = 300


def bot(path, clock, **settings):
    return make_bot(path, clock=clock, **settings)


@pytest.fixture
async def h(tmp_path):
    harness = await clocked_harness(tmp_path / "pings.sqlite3", bot)
    yield harness
    await harness.close()


def pings(h, user: int) -> list:
    """The "your move" messages that notified `user` (those deleted since their decision was made too)."""
    return [m for m in h.posted_in().values() if "your move" in m.content and not m.embeds
            and user in m.notified([ADA, BEN, CLEO])]


def table_id(h) -> int:
    return h.find_message(label="My hand & actions").id


async def panel(h, user: int):
    return (await h.click(user, table_id(h), label="My hand & actions")).answer


def opener(h) -> int:
    state = game(h).state
    return int(state.players[state.lead].id)


async def test_a_turn_with_only_a_pass_is_taken_for_the_player_with_no_ping_and_no_click(h):
    await open_and_start(h, players=(ADA, BEN))
    for user in (ADA, BEN):
        await h.click(user, (await panel(h, user)).message_id, label="Buy nothing")
    record = game(h)
    assert record.state.phase == "round_end_purchase", "two jokers each: every auction of round 1 was passed"
    passes = [m for m in await service(h).games.history(record) if any(e.type == "pass" for e in m.entries)]
    assert len(passes) == 10 and {m.actor for m in passes} == {"only"}
    assert len(pings(h, ADA)) == len(pings(h, BEN)) == 1, "only the purchase at the start was announced"
    log = (await h.slash(CLEO, "augsburg log")).answer.content
    assert log.count("Ada passes.") == 5 and "only" not in log.lower()  # told as any pass
    mine = await panel(h, ADA)
    assert "Your only choice, made for you:" in mine.embeds[0]["description"]  # to Ada alone


async def test_a_watching_player_is_pinged_only_if_they_have_not_decided_within_the_minutes(h):
    await open_and_start(h, players=(ADA, BEN))
    first = opener(h)
    other = BEN if first == ADA else ADA
    for user in (other, first):  # the opener buys last: their panel shows the auction at once
        await buy_for_philipp(h, user, (await panel(h, user)).message_id)
    assert due_people(h) == [first] and not pings(h, first)[1:], "watching: no ping, the panel shows it"
    assert "Your move" in h.message(max(h.ephemeral_messages(first))).content
    await pass_time(h, WATCH - 1)
    assert len(pings(h, first)) == 1
    await pass_time(h, 2)
    late = pings(h, first)
    assert len(late) == 2 and "Philipp" in late[-1].content, "the ping owed, with the table as it is now"


async def test_a_ping_put_off_survives_a_restart(h):
    await open_and_start(h, players=(ADA, BEN))
    first = opener(h)
    other = BEN if first == ADA else ADA
    for user in (other, first):
        await buy_for_philipp(h, user, (await panel(h, user)).message_id)
    assert len(pings(h, first)) == 1
    await h.restart(bot(h.db_path, h.clock))
    await pass_time(h, WATCH + 1)
    assert len(pings(h, first)) == 2, "a restart forgets the panels, never the ping owed"


async def test_someone_who_has_not_used_their_panel_for_minutes_is_pinged_at_once(h):
    await open_and_start(h, players=(ADA, BEN))
    first = opener(h)
    other = BEN if first == ADA else ADA
    await buy_for_philipp(h, first, (await panel(h, first)).message_id)
    await pass_time(h, WATCH + 1)
    await buy_for_philipp(h, other, (await panel(h, other)).message_id)
    assert due_people(h) == [first] and len(pings(h, first)) == 2


async def test_a_panel_that_cannot_follow_the_game_means_a_ping_at_once(h):
    await open_and_start(h, players=(ADA, BEN))
    first = opener(h)
    other = BEN if first == ADA else ADA
    await buy_for_philipp(h, first, (await panel(h, first)).message_id)
    h.advance(16 * 60)  # Discord no longer takes the token of the opener's panel (the bot's clock has not moved)
    await buy_for_philipp(h, other, (await panel(h, other)).message_id)
    assert due_people(h) == [first] and len(pings(h, first)) == 2
    assert h.problems and all("50027" in p for p in h.problems)
    h.problems.clear()
    # Whether the lost panel or the move's own round asked first is up to Discord's timing; asked again, the
    # ping for the same decision does not go out twice.
    async def lost_again() -> None:
        h.bot.get_cog("Augsburg").presenter._lost(game(h), str(first))

    await run(h, lost_again())
    assert len(pings(h, first)) == 2


async def a_showdown(h, ada_hand, ben_hand, count=2):
    """Ada and Ben lay down for Philipp; Ada's hand and Ben's as given."""
    await open_and_start(h, players=(ADA, BEN))
    record = game(h)
    state = record.state.model_copy(deep=True)
    state.phase, state.noble, state.purchase = "showdown", 0, None
    state.auction = Auction(turn=0, offers=[count, count], passed=[False, False], high=count, high_seat=0)
    state.showdown = Showdown(count=count, seats=[0, 1], high_seat=0)
    state.players[0].hand, state.players[1].hand = tuple(ada_hand), tuple(ben_hand)
    assert [p.id for p in state.players] == [str(ADA), str(BEN)]
    service(h).core._games.put(dataclasses.replace(record, state=state))


async def test_a_lay_down_with_one_option_waits_for_the_others_and_is_never_asked(h):
    await a_showdown(h, ["philipp-3", "philipp-9", "maria-4"], ["philipp-5", "philipp-11", "joker"])
    mine = await panel(h, ADA)
    assert "made for you once the others have chosen" in mine.content
    assert not [c for c in mine.custom_ids() if c.startswith(("aug:do:", "aug:sel:"))], "nothing to click"
    assert not pings(h, ADA)[1:]
    ben = await panel(h, BEN)
    await h.click(BEN, ben.message_id, next(b["custom_id"] for b in ben.buttons() if "Lay down" in b["label"]))
    record = game(h)
    assert record.state.phase != "showdown", "Ben's choice was the last real one: Ada's followed"
    moves = await service(h).games.history(record)
    assert moves[-1].player == str(ADA) and moves[-1].actor == "only"
    log = (await h.slash(CLEO, "augsburg log")).answer.content
    assert "Ben has chosen." in log and "Ada has chosen." not in log  # Ada never seen choosing first
    assert not pings(h, ADA)[1:], "no ping for it"


async def test_a_waiting_only_option_is_not_reminded_and_its_timeout_counts_no_missed_turn(h):
    await a_showdown(h, ["philipp-3", "philipp-9", "maria-4"], ["philipp-5", "philipp-11", "joker"])
    record, now = game(h), h.clock.now()
    store = service(h).core.store
    await store.deadlines.set_deadline(record.id, str(ADA), "reminder", now, {"timeout": now + 100})
    stored = await store.deadlines.deadlines_of(record.id)
    [reminder] = [d for d in stored if d.kind == "reminder" and d.player == str(ADA)]
    assert await service(h).decisions.remind(dataclasses.replace(reminder, channel_id=h.channel_id)) is None
    await store.deadlines.set_deadline(record.id, str(ADA), "timeout", now)
    expired = await service(h).decisions.expire(Deadline(record.id, str(ADA), "timeout", now, {}, h.channel_id))
    assert expired.ok and expired.actor == "only" and expired.record.table.seat(str(ADA)).missed == 0


async def test_an_auction_turn_settled_ahead_on_the_panel_is_made_with_no_ping(h):
    await open_and_start(h)
    first = opener(h)
    for user in (ADA, BEN, CLEO):
        await buy_for_philipp(h, user, (await panel(h, user)).message_id)
    assert due_people(h) == [first]
    seats = [int(p) for p in game(h).table.players]
    after = seats[(seats.index(first) + 1) % 3]
    mine = await panel(h, after)
    menu = next(s for s in mine.selects() if s["custom_id"].startswith("aug:ahd:"))
    assert [o["value"] for o in menu["options"]][0] == "p"
    edits = len(h.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}"))
    public = len(h.channel_messages)
    data = {"custom_id": menu["custom_id"], "component_type": 3, "values": ["c99"]}  # a forged choice
    forged = await h.send_interaction(h.interaction_payload(after, 3, data, h.message(mine.message_id)))
    assert "⚠️" in forged.answer.content and game(h).table.seat(str(after)).ahead is None
    settled = await h.select(after, mine.message_id, menu["custom_id"], ["p"])
    assert "Settled ahead: Pass when my turn comes" in settled.answer.content
    assert any(c.startswith("aug:ahx:") for c in settled.answer.custom_ids()), "it can be cleared"
    assert len(h.channel_messages) == public and len(
        h.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}")) == edits, "nothing public moved"
    pinged = len(pings(h, after))
    opened = await panel(h, first)
    await h.click(first, opened.message_id, label="Bid 1 card")
    moves = await service(h).games.history(game(h))
    made = next(m for m in moves if m.player == str(after) and any(e.type == "pass" for e in m.entries))
    assert made.actor == "ahead" and len(pings(h, after)) == pinged, "made when the turn came, with no ping"


async def test_settled_ahead_from_a_panel_after_the_turn_has_come_is_the_move_and_said_so(h, caplog):
    """Issue 41: the menu to decide ahead stays on a panel drawn before the turn came; chosen there once the
    turn has come, it is the decision now, and the player is told it was made (not an apology)."""
    await open_and_start(h)
    first = opener(h)
    for user in (ADA, BEN, CLEO):
        await buy_for_philipp(h, user, (await panel(h, user)).message_id)
    seats = [int(p) for p in game(h).table.players]
    after = seats[(seats.index(first) + 1) % 3]
    mine = await panel(h, after)
    menu = next(s for s in mine.selects() if s["custom_id"].startswith("aug:ahd:"))
    as_drawn = copy.deepcopy(h.message(mine.message_id))
    opened = await panel(h, first)
    await h.click(first, opened.message_id, label="Bid 1 card")
    assert due_people(h) == [after], "the turn has come"
    caplog.clear()
    # Chosen before the panel's redraw reached them (the race a live panel leaves open; or a panel it no
    # longer follows): the menu as it was drawn.
    data = {"custom_id": menu["custom_id"], "component_type": 3, "values": ["p"]}
    answer = (await h.send_interaction(h.interaction_payload(after, 3, data, as_drawn))).answer
    assert "Sorry" not in answer.content and "went wrong" not in answer.content
    assert not [r for r in caplog.records if r.levelname == "ERROR"], [r.getMessage() for r in caplog.records]
    moves = await service(h).games.history(game(h))
    made = [m for m in moves if m.player == str(after) and any(e.type == "pass" for e in m.entries)]
    assert [m.actor for m in made] == ["player"], "made at once, as their own decision"
    assert "Undo" in str(answer.buttons()), "offered to be taken back, as any decision of theirs"
