"""Rematch (issue 29, point 2): the final standings carry a Rematch button (and /augsburg rematch) that opens a
table like the finished one: the same computers at their levels, the same clock and language; the others are
invited (mentioned) and confirm by joining. The finished game stays in the records."""

from __future__ import annotations

import random

from support.bot_support import ADA, BEN, CLEO, STRANGER, PublicRecord, game, make_bot, next_to_act, service
from support.bot_support import take_a_decision as decide
from support.fake_discord import Harness

MEMBERS = (ADA, BEN, CLEO, STRANGER)


async def finished_game(h: Harness) -> int:
    """Ada and Ben with one strong computer, a 4-hour clock, played to the end; the standings' message id."""
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    await h.click(BEN, table, label="Join")
    await h.click(ADA, table, label="Add computer player")
    ids = [c["custom_id"] for c in h.message(table).all_components() if "custom_id" in c]
    await h.select(ADA, table, next(i for i in ids if i.endswith(":level")), ["ai1:strong"])
    await h.select(ADA, table, next(i for i in ids if i.endswith(":time")), [str(4 * 3600)])
    await h.click(ADA, table, label="Start game")
    first = game(h)
    assert first.table.turn_seconds == 4 * 3600
    seen, rnd = PublicRecord(), random.Random(3)
    for _ in range(3000):
        user = await next_to_act(h, seen, rnd)
        if user is None:
            break
        await decide(h, user, h.find_message(label="My hand & actions").id, rnd)
    assert game(h) is None, "the game did not finish"
    (standings,) = [m for m in h.channel_messages.values() if "final standings" in m.content]
    return standings.id


async def test_a_rematch_seats_the_same_computers_with_the_clock_and_invites_the_others(harness):
    h = harness
    standings = await finished_game(h)
    finished = await service(h).games.last_game(h.channel_id)
    assert [c.get("label") for c in h.message(standings).all_components() if "custom_id" in c] == ["Rematch"]

    stranger = await h.click(STRANGER, standings, label="Rematch")  # not one of its players
    assert stranger.answer.ephemeral and "Only the people who played that game" in stranger.answer.content
    assert game(h) is None

    await h.restart(make_bot(h.db_path))  # the button outlives a restart
    asked = await h.click(BEN, standings, label="Rematch")
    assert not asked.answer.ephemeral
    again = game(h)
    assert again.status == "lobby" and again.table.host == str(BEN) and again.table.rematch_of == finished.id
    assert [(s.id, s.kind, s.level) for s in again.table.seats] == [(str(BEN), "human", "normal"),
                                                                     ("ai1", "computer", "strong")]
    assert again.table.turn_seconds == 4 * 3600 and again.table.lang == finished.table.lang
    assert again.table.edition == finished.table.edition
    (invitation,) = [m for m in h.channel_messages.values() if "asks for a rematch" in m.content]
    assert invitation.notified(MEMBERS) == {ADA}  # exactly the other person of the game

    joined = await h.click(ADA, standings, label="Rematch")  # Ada confirms from the same button
    assert joined.answer.ephemeral and "You have a seat at the rematch" in joined.answer.content
    assert [s.id for s in game(h).table.seats] == [str(BEN), "ai1", str(ADA)]
    twice = await h.click(ADA, standings, label="Rematch")
    assert twice.answer.ephemeral and "already have a seat" in twice.answer.content

    lobby = asked.answer.message_id
    started = await h.click(BEN, lobby, label="Start game")
    assert started.answer.kind == "update" and game(h).status == "active"
    late = await h.click(ADA, standings, label="Rematch")  # the rematch is under way: nothing else opens
    assert late.answer.ephemeral and "already has a game" in late.answer.content
    assert (await service(h).games.game(finished.id)).status == "finished"  # the first game stays in the records
    h.assert_all_answered()
    h.assert_no_errors()


async def test_typed_rematch_takes_the_channels_last_game_and_refuses_while_one_is_open(harness):
    h = harness
    nothing = await h.slash(ADA, "augsburg rematch")
    assert nothing.answer.ephemeral and "no finished game in this channel" in nothing.answer.content
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    busy = await h.slash(ADA, "augsburg rematch")
    assert busy.answer.ephemeral and "no finished game" in busy.answer.content
    assert game(h).id and table
    h.assert_all_answered()
