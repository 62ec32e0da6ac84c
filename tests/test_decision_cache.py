"""A person's decision as the service gives it (issue 44): worked out for the record asked about, never kept
(kept, each with its player's whole view, they were a fifth of what every young collection walked, and 95% were
asked once); who is due is kept per record, never past its move. A decision is never another player's (a panel
is private: hidden information never leaks), nor of another move or table."""

from __future__ import annotations

import gc
import random
import weakref
from dataclasses import replace

import pytest

from bot.service import GameService
from bot.service.showing import decision_of, due_of, panel_marks
from engine import apply, new_game
from engine.randomplay import concrete, random_action
from storage import GameRecord, Seat, Store, Table

CHANNEL, GUILD = 500, 1


@pytest.fixture
async def service(tmp_path):
    store = await Store.open(tmp_path / "bot.sqlite3")
    yield GameService(store)
    await store.close()


async def started(service: GameService):
    table = (await service.lobby.open_table(GUILD, CHANNEL, Seat(id="11", name="Ada"))).record
    for p in ("22", "33"):
        assert (await service.lobby.join(CHANNEL, table.id, Seat(id=p, name=f"P{p}"))).ok
    out = await service.lobby.start(CHANNEL, table.id, 11, seed=3)
    assert out.ok
    return out.record


def same_as_worked_out(service: GameService, record, player: str) -> bool:
    return service.games.decision(record, player) == decision_of(record, player)


async def test_each_player_gets_their_own_decision_never_anothers(service):
    record = await started(service)
    hands = {}
    for player in ("11", "22", "33"):
        decision = service.games.decision(record, player)
        assert decision.player == player and decision.view.you is not None
        assert decision == decision_of(record, player)
        hands[player] = decision.view.you.hand
        for other in ("11", "22", "33"):  # another's view is not theirs, nor their hand
            if other != player:
                assert service.games.decision(record, other).view.you is not decision.view.you
    # asked again, in any order: still each one's own
    for player in ("33", "11", "22", "11"):
        assert service.games.decision(record, player).view.you.hand == hands[player]
        assert service.games.decision(record, player).player == player


async def test_a_new_move_is_never_answered_with_the_decision_before_it(service):
    record = await started(service)
    for _ in range(12):  # moves through the purchase and into the first auction
        due = [p for p in ("11", "22", "33") if service.games.decision(record, p).options]
        if not due:
            break
        player = due[0]
        before = service.games.decision(record, player)
        action = concrete(list(before.options)[0], random.Random(1))
        outcome = await service.decisions.act(CHANNEL, record.id, player, before.key, action)
        assert outcome.ok, outcome.notice
        record = outcome.record
        for p in ("11", "22", "33"):
            assert same_as_worked_out(service, record, p)  # the new version's, not the one kept before it


async def test_a_changed_table_at_the_same_version_is_not_answered_from_what_was_kept(service):
    record = await started(service)
    service.games.decision(record, "22")
    seats = tuple(s.model_copy(update={"stand_in": True}) if s.id == "22" else s for s in record.table.seats)
    changed = replace(record, table=record.table.model_copy(update={"seats": seats}))
    assert changed.version == record.version and changed.table != record.table
    assert service.games.decision(changed, "22") == decision_of(changed, "22")


async def test_a_state_that_differs_at_the_same_version_is_never_answered_with_the_decision_kept(service):
    """Found by tests/test_stale_menus.py, which puts a state in the service's memory at the same version: the
    decision kept for the old one was shown. The key names the decision now and what the player holds too."""
    record = await started(service)
    before = service.games.decision(record, "11")
    state = record.state.model_copy(deep=True)
    me = next(p for p in state.players if p.id == "11")
    me.hand = me.hand[1:]  # one card fewer in Ada's hand, the version unchanged
    changed = replace(record, state=state)
    assert service.games.decision(changed, "11") == decision_of(changed, "11") != before


def marks_from_the_decision(record: GameRecord, player: str) -> tuple[object, ...]:
    """What a live panel compared before (issue 44): worked out from the player's whole decision and view."""
    if not record.open or record.state is None:
        return ("over",)
    decision = decision_of(record, player)
    assert decision.view.you is not None
    return decision.key if decision.due else "", decision.view.you.money, *decision.view.you.hand


@pytest.mark.parametrize("players,seed", [(2, 4), (3, 7), (5, 11)])
def test_what_a_live_panel_compares_is_what_the_players_decision_shows_at_every_move(players, seed):
    """A move asks every live panel of its game whether to redraw, from the state alone: it must say the same
    as the player's decision and view would, at every move of whole games, or a panel would miss a redraw."""
    ids = [str(10 + i) for i in range(players)]
    table = Table(host=ids[0], seats=tuple(Seat(id=p, name=f"P{p}") for p in ids), seed=seed)
    state = new_game(ids, seed=seed)[0]
    rnd = random.Random(seed)
    redraws = 0
    while True:
        record = GameRecord(id=1, guild_id=1, channel_id=2, status="active" if state.phase != "game_over"
                            else "finished", version=state.moves, state=state, table=table,
                            created_at=0.0, updated_at=0.0)
        for player in ids:
            assert panel_marks(record, player) == marks_from_the_decision(record, player)
        if state.phase == "game_over":
            assert panel_marks(record, ids[0]) == ("over",)
            break
        player, action = random_action(state, rnd)
        result = apply(state, player, action)
        assert result.ok
        after = replace(record, state=result.state, version=record.version + 1)
        redraws += panel_marks(after, player) != panel_marks(record, player)
        state = result.state
    assert redraws > 10  # the marks do change as the game goes: a panel is redrawn


async def test_only_the_record_asked_about_last_is_kept_for_each_game(service):
    """Who is due is kept for the record asked about last in each game: the one before a move is asked no
    more, and keeping it kept its parsed state alive for the garbage collector (issue 44)."""
    record = await started(service)
    first = service.games.due(record)
    assert service.games.due(record) is first  # kept: worked out once
    player = next(p for p in ("11", "22", "33") if service.games.decision(record, p).options)
    before = service.games.decision(record, player)
    outcome = await service.decisions.act(CHANNEL, record.id, player, before.key,
                                          concrete(list(before.options)[0], random.Random(1)))
    assert outcome.ok and outcome.record is not None
    service.games.due(outcome.record)
    assert [known.record for known in service.games._known.values()] == [outcome.record]
    assert service.games.due(record) == due_of(record)  # the older one asked again: worked out again, rightly


async def test_no_decision_or_view_outlives_the_request_that_asked_for_it(service):
    """Nothing the service keeps holds a decision or its view: once the panel that asked is built and sent, the
    collector never walks them (issue 44: they were a fifth of every young collection under load)."""
    record = await started(service)
    service.games.due(record)  # what is kept per record, there too
    gone = []
    for player in ("11", "22", "33"):
        decision = service.games.decision(record, player)
        gone.append(weakref.ref(decision.view))
        del decision
    gc.collect()
    assert [ref() for ref in gone] == [None, None, None]
