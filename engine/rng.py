"""A tiny deterministic generator whose whole state is one integer.

The game keeps that integer in its state, so a seed plus the action log
rebuilds every shuffle exactly, and the state stays small in JSON.
"""

from __future__ import annotations

from typing import TypeVar

_T = TypeVar("_T")

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return seed & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """splitmix64: returns (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def shuffle(state: int, items: list[_T]) -> int:
    """Fisher-Yates shuffle of `items` in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, r = next_u64(state)
        j = r % (i + 1)  # bias below 1e-17 for i < 100
        items[i], items[j] = items[j], items[i]
    return state


def randbelow(state: int, n: int) -> tuple[int, int]:
    state, r = next_u64(state)
    return state, r % n
