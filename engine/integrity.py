"""Consistency checks of a game state: what must hold after every action.

The property tests run them after each action; storage runs them when it
loads a snapshot, to catch a corrupted row before anyone plays on it.
"""

from __future__ import annotations

from functools import cache

from .components import CATEGORIES, TILE_KINDS, TileValue
from .edition import Edition
from .game import to_act
from .rules import held_steps, prestige_limit
from .state import GameState


@cache
def _sorted(ed: Edition) -> tuple[list[str], dict[str, list[TileValue]], list[str]]:
    """The edition's cards, tiles per stack and privilege cards, sorted (what a state must hold exactly)."""
    return sorted(ed.all_cards), {k: sorted(v) for k, v in ed.tile_stacks.items()}, sorted(ed.privilege_cards)


class IntegrityError(ValueError):
    pass


def problems(state: GameState) -> list[str]:
    """Everything wrong with `state`; empty when it is a position the rules can reach."""
    found: list[str] = []
    ed = state.edition
    all_cards, all_tiles, all_privileges = _sorted(ed)
    cards = [*state.deck, *state.discard]
    for p in state.players:
        cards += p.hand
        cards += p.offered
    if sorted(cards) != all_cards:
        found.append(f"the {len(all_cards)} debt cards do not each exist exactly once")

    n = len(state.players)
    if n not in ed.rounds:
        return [*found, f"{n} players cannot play"]
    expected_steps = ed.step_tiles(n)
    for cat in CATEGORIES:
        tiles = list(state.step_supply.get(cat, []))
        for p in state.players:
            tiles += held_steps(p.levels.get(cat, 0))
        if sorted(tiles) != expected_steps:
            found.append(f"{cat} step tiles are not conserved")

    for kind in TILE_KINDS:
        stack = list(state.tile_stacks.get(kind, ()))
        held = [v for p in state.players if (v := getattr(p.tiles, kind)) not in (None, False)]
        if sorted(stack + held) != all_tiles[kind]:
            found.append(f"{kind} tiles are not conserved")
        if stack != sorted(stack, reverse=True):
            found.append(f"the {kind} stack is not sorted")

    privilege = state.privilege_display + state.privilege_waiting + state.privilege_spent
    if sorted(privilege) != all_privileges:
        found.append("privilege cards are not conserved")

    for p in state.players:
        if p.money < 0:
            found.append(f"{p.id} has negative money")
        limit = prestige_limit(p.tiles, ed)
        if limit is not None and p.score > limit:
            found.append(f"{p.id} scored past a limit they have not unlocked")

    try:
        acting = to_act(state)
    except (AssertionError, AttributeError, IndexError, KeyError, TypeError):  # (the phases assert their details)
        return [*found, f"the {state.phase} phase is missing its details"]
    if state.phase == "game_over":
        if acting or not state.winners:
            found.append("a finished game must name winners and nobody to act")
    elif not acting:
        found.append("nobody is due to act in an unfinished game")
    return found


def check(state: GameState) -> None:
    found = problems(state)
    if found:
        raise IntegrityError("; ".join(found))
