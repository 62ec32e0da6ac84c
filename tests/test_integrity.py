"""The integrity check catches positions the rules cannot reach (used on every stored snapshot)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import apply, new_game, replay
from engine.integrity import IntegrityError, check, problems
from engine.position import build
from engine.randomplay import random_action, random_game
from engine.state import clone


def fresh():
    return new_game(["a", "b", "c"], seed=3)[0]


def test_a_fresh_game_is_sound():
    assert problems(fresh()) == []


@pytest.mark.parametrize("damage, words", [
    (lambda s: setattr(s.players[0], "hand", (*s.players[0].hand, "maria-3")), "debt cards"),
    (lambda s: setattr(s, "deck", s.deck[:-1]), "debt cards"),
    (lambda s: s.players[1].levels.update(trade=4), "trade step tiles"),
    (lambda s: s.tile_stacks.update(church=s.tile_stacks["church"][1:]), "church tiles"),
    (lambda s: s.tile_stacks.update(coat=s.tile_stacks["coat"][::-1]), "coat stack is not sorted"),
    (lambda s: setattr(s, "privilege_waiting", s.privilege_waiting[:-1]), "privilege cards"),
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


SCENARIOS = Path(__file__).parent / "scenarios"


def reach(phase: str):
    """A state in `phase`: of a random game, or for a deck shortage (which random games hardly reach) of the R24
    scenario's moves."""
    if phase == "shortage":
        data = json.loads((SCENARIOS / "r24_shortage_keeps_current_deck_top.json").read_text())
        state = build(data["setup"])[0]
        for step in data["steps"]:
            if state.phase == phase:
                return state
            if "check" not in step:
                result = apply(state, step["player"], {k: v for k, v in step.items() if k not in ("player", "expect")})
                state = result.state if result.ok else state
        raise AssertionError(f"the scenario never reached {phase}")
    for seed in range(100):
        rnd = random.Random(seed)
        state = new_game(["a", "b", "c"], seed=seed)[0]
        while state.phase != "game_over":
            if state.phase == phase:
                return state
            player, action = random_action(state, rnd)
            state = apply(state, player, action).state
    raise AssertionError(f"no random game reached {phase}")


@pytest.mark.parametrize("phase", ["auction", "showdown", "privilege", "shortage", "round_end_purchase"])
def test_a_phase_without_its_details_is_found(phase):
    """The phases assert their details are there (state.auction, .showdown…): the check reports them missing."""
    state = clone(reach(phase))
    setattr(state, "purchase" if phase.endswith("purchase") else phase, None)
    assert any("missing its details" in f for f in problems(state))
