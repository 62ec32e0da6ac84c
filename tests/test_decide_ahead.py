"""Deciding ahead (issue 27): a player settles their next auction decision before their turn, the bot makes
it when the turn comes (no ping), it is stored with the game (a restart keeps it), it can be changed or
cleared until used, it lapses with the auction, and nothing anyone else sees changes when it is set."""

from __future__ import annotations

import pytest
from support.clock import ManualClock

from bot.service import GameService, Timing
from bot.service.automatic import auction_id
from engine import Bid, Buy, Pass, player_view, spectator_view, to_act
from storage import Ahead, Seat

CHANNEL, GUILD = 500, 1
# Seed 3 offers 11 two Philipp cards and 33 two; 22 none (only jokers: their Philipp turn is a forced pass).
PURCHASES = {"11": ["joker", "philipp-3", "philipp-12"], "22": ["joker", "leo-6", "leo-7"],
             "33": ["joker", "philipp-10", "philipp-8"]}


@pytest.fixture
def clock():
    return ManualClock()


async def auction_started(store, clock) -> GameService:
    """11, 22 and 33 have bought; Philipp's auction is opened by 11."""
    service = GameService(store, clock, Timing(turn_seconds=None))
    record = (await service.lobby.open_table(GUILD, CHANNEL, Seat(id="11", name="H"), clock=False)).record
    for p in ("22", "33"):
        await service.lobby.join(CHANNEL, record.id, Seat(id=p, name=p))
    await service.lobby.start(CHANNEL, record.id, "11", seed=3)
    for player, cards in PURCHASES.items():
        assert (await service.decisions.act(CHANNEL, record.id, player, None, Buy(cards=cards))).ok
    assert to_act(service.games.cached(CHANNEL).state) == ["11"]
    return service


async def until_someone_decides(service: GameService) -> list:
    """Let the bot make every move it makes by itself; the outcomes."""
    made = []
    while (outcome := await service.decisions.play_computer(CHANNEL)) is not None:
        assert outcome.ok, outcome.notice
        made.append(outcome)
    return made


def ahead(record, how: str, cards: int = 0) -> Ahead:
    return Ahead(auction=auction_id(record.state), how=how, cards=cards)


async def test_a_call_settled_ahead_is_made_when_the_turn_comes_and_is_stored(store, clock):
    service = await auction_started(store, clock)
    record = service.games.cached(CHANNEL)
    before = (spectator_view(record.state), player_view(record.state, "11"))
    set_ = await service.ahead.settle(CHANNEL, record.id, "33", auction_id(record.state), ahead(record, "call", 3))
    assert set_.ok and set_.record.table.seat("33").ahead == ahead(record, "call", 3)
    assert (spectator_view(set_.record.state), player_view(set_.record.state, "11")) == before  # nobody sees it
    assert (await store.games.load_game(record.id)).table.seat("33").ahead == ahead(record, "call", 3)  # stored
    restarted = GameService(store, clock, Timing(turn_seconds=None))  # a restart: only the database is left
    assert (await restarted.decisions.act(CHANNEL, record.id, "11", None, Bid(count=2))).ok
    made = await until_someone_decides(restarted)
    assert [(o.player, o.actor, o.action.do) for o in made] == [("22", "only", "pass"), ("33", "ahead", "call")]
    assert restarted.games.cached(CHANNEL).table.seat("33").ahead is None  # used
    moves = await restarted.games.history(restarted.games.cached(CHANNEL))
    assert [m.actor for m in moves[-2:]] == ["only", "ahead"]


async def test_it_can_be_changed_and_a_higher_bid_makes_it_a_pass(store, clock):
    service = await auction_started(store, clock)
    record = service.games.cached(CHANNEL)
    auction = auction_id(record.state)
    for plan in (ahead(record, "raise", 4), ahead(record, "call", 1)):
        assert (await service.ahead.settle(CHANNEL, record.id, "33", auction, plan)).ok
    assert service.games.cached(CHANNEL).table.seat("33").ahead == ahead(record, "call", 1)
    assert (await service.decisions.act(CHANNEL, record.id, "11", None, Bid(count=2))).ok
    made = await until_someone_decides(service)
    assert (made[-1].player, made[-1].actor, made[-1].action) == ("33", "ahead", Pass())  # 2 is above 1


async def test_it_can_be_cleared(store, clock):
    service = await auction_started(store, clock)
    record = service.games.cached(CHANNEL)
    auction = auction_id(record.state)
    assert (await service.ahead.settle(CHANNEL, record.id, "33", auction, ahead(record, "pass"))).ok
    assert (await service.ahead.settle(CHANNEL, record.id, "33", auction, None)).ok
    assert service.games.cached(CHANNEL).table.seat("33").ahead is None
    assert (await service.decisions.act(CHANNEL, record.id, "11", None, Bid(count=2))).ok
    assert [o.player for o in await until_someone_decides(service)] == ["22"]
    assert to_act(service.games.cached(CHANNEL).state) == ["33"]  # cleared: 33 decides themselves


async def test_only_counts_the_hand_allows_and_only_for_the_running_auction(store, clock):
    service = await auction_started(store, clock)
    record = service.games.cached(CHANNEL)
    auction = auction_id(record.state)
    too_many = await service.ahead.settle(CHANNEL, record.id, "33", auction, ahead(record, "raise", 6))
    assert not too_many.ok and too_many.notice.code == "stale_choice"  # 33 holds 5 cards valid for Philipp
    nothing = await service.ahead.settle(CHANNEL, record.id, "22", auction, ahead(record, "call", 1))
    assert not nothing.ok and nothing.notice.code == "stale_choice"  # 22 can only pass
    old = await service.ahead.settle(CHANNEL, record.id, "33", "1.4", ahead(record, "pass"))
    assert not old.ok and old.notice.code == "ahead_lapsed"
    assert service.games.cached(CHANNEL).version == record.version  # refused: nothing written


async def test_it_lapses_when_the_auction_ends_before_the_turn_comes(store, clock):
    service = await auction_started(store, clock)
    record = service.games.cached(CHANNEL)
    assert (await service.decisions.act(CHANNEL, record.id, "11", None, Bid(count=1))).ok
    await until_someone_decides(service)  # 22 passes
    assert (await service.decisions.act(CHANNEL, record.id, "33", None, Bid(count=2))).ok
    record = service.games.cached(CHANNEL)
    assert (await service.ahead.settle(CHANNEL, record.id, "33", auction_id(record.state), ahead(record, "pass"))).ok
    assert (await service.decisions.act(CHANNEL, record.id, "11", None, Pass())).ok  # 33's bid stands: the auction ends
    record = service.games.cached(CHANNEL)
    assert record.state.phase == "showdown" and record.table.seat("33").ahead is None
    assert (await store.games.load_game(record.id)).table.seat("33").ahead is None


async def test_settled_on_a_turn_that_has_come_it_is_the_move(store, clock):
    service = await auction_started(store, clock)
    record = service.games.cached(CHANNEL)
    now = await service.ahead.settle(CHANNEL, record.id, "11", auction_id(record.state), ahead(record, "raise", 2))
    assert now.ok and (now.player, now.actor, now.action) == ("11", "player", Bid(count=2))
    assert now.undo == now.record.state.moves  # its panel offers Undo, as after any decision of theirs (issue 29)
    back = await service.undo.take_back(CHANNEL, record.id, "11", now.undo)
    assert back.ok and to_act(back.record.state) == ["11"]


async def test_an_export_tells_the_moves_the_bot_made_for_people_as_theirs(store, clock):
    from bot.service.export import export_game

    service = await auction_started(store, clock)
    record = service.games.cached(CHANNEL)
    assert (await service.ahead.settle(CHANNEL, record.id, "33", auction_id(record.state), ahead(record, "pass"))).ok
    assert (await service.decisions.act(CHANNEL, record.id, "11", None, Bid(count=2))).ok
    await until_someone_decides(service)
    stored = [m.actor for m in await service.games.history(service.games.cached(CHANNEL))]
    assert "only" in stored and "ahead" in stored  # kept apart in storage, for the player's own catch-up
    exported = await export_game(store.log, service.games.cached(CHANNEL))
    assert {m["actor"] for m in exported["log"]} == {"player"}  # to everyone else: the player's own moves
