"""The integrity check catches positions the rules cannot reach (used on every stored snapshot)."""

from __future__ import annotations

import pytest

from engine import new_game, replay
from engine.integrity import IntegrityError, check, problems
from engine.randomplay import random_game
from engine.state import clone


def fresh():
    return new_game(["a", "b", "c"], seed=3)[0]


def test_a_fresh_game_is_sound():
    assert problems(fresh()) == []


@pytest.mark.parametrize("damage, words", [
    (lambda s: s.players[0].hand.append("maria-3"), "debt cards"),
    (lambda s: s.deck.pop(), "debt cards"),
    (lambda s: s.players[1].levels.update(trade=4), "trade step tiles"),
    (lambda s: s.tile_stacks["church"].pop(0), "church tiles"),
    (lambda s: s.tile_stacks["coat"].reverse(), "coat stack is not sorted"),
    (lambda s: s.privilege_waiting.pop(), "privilege cards"),
    (lambda s: setattr(s.players[2], "money", -1), "negative money"),
    (lambda s: setattr(s.players[2], "score", 26), "limit"),
    (lambda s: setattr(s, "purchase", None), "missing its details"),
])
def test_damage_is_found(damage, words):
    state = clone(fresh())
    damage(state)
    found = problems(state)
    assert any(words in f for f in found), found
    with pytest.raises(IntegrityError):
        check(state)


def test_replay_rebuilds_a_whole_game():
    final, log = random_game(4, seed=21)
    assert replay([p.id for p in final.players], 21, None, log) == final
