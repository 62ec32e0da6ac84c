"""The service keeps each person's decision per game record (issue 44): the panel, its live redraw and the check
whether to redraw ask for it several times per move. What is kept must never outlive its move, nor be shown to
another player (a panel is private: hidden information never leaks)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.service import GameService
from bot.service.showing import decision_of
from engine.randomplay import concrete
from storage import Seat, Store

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
