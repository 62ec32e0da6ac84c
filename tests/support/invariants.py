"""Checks that must hold after every action of every game (used by the property tests)."""

from __future__ import annotations

from engine.integrity import problems
from engine.state import GameState


def check_invariants(state: GameState) -> None:
    found = problems(state)
    assert not found, found
