"""Checks that must hold after every action of every game (used by the property tests)."""

from __future__ import annotations

from collections import Counter

from engine.common import prestige_limit
from engine.components import ALL_CARDS, CATEGORIES, PRIVILEGE_CARDS, TILE_KINDS, TILE_STACKS, step_tiles
from engine.game import to_act
from engine.state import GameState


def held_steps(level: int) -> list[int]:
    return ([2] if level >= 2 else []) + ([3] if level == 3 else []) + ([4] if level == 4 else [])


def check_invariants(state: GameState) -> None:
    cards = Counter(state.deck) + Counter(state.discard)
    for p in state.players:
        cards += Counter(p.hand) + Counter(p.offered)
    assert cards == Counter(ALL_CARDS), "every debt card exists exactly once"

    n = len(state.players)
    for cat in CATEGORIES:
        tiles = Counter(state.step_supply[cat])
        for p in state.players:
            tiles += Counter(held_steps(p.levels[cat]))
        assert tiles == Counter(step_tiles(n)), f"{cat} step tiles are conserved"

    for kind in TILE_KINDS:
        tiles = Counter(state.tile_stacks[kind])
        tiles += Counter(v for p in state.players if (v := getattr(p.tiles, kind)) not in (None, False))
        assert tiles == Counter(TILE_STACKS[kind]), f"{kind} tiles are conserved"
        assert state.tile_stacks[kind] == sorted(state.tile_stacks[kind], reverse=True), "stacks stay sorted"

    privilege = state.privilege_display + state.privilege_waiting + state.privilege_spent
    assert sorted(privilege) == sorted(PRIVILEGE_CARDS), "privilege cards are conserved"

    for p in state.players:
        assert p.money >= 0, f"{p.id} has negative money"
        limit = prestige_limit(p)
        assert limit is None or p.score <= limit, f"{p.id} scored past a limit they have not unlocked"

    acting = to_act(state)
    if state.phase == "game_over":
        assert acting == [] and state.winners
    else:
        assert acting, "someone must always be due to act"
        assert len(set(acting)) == len(acting)
