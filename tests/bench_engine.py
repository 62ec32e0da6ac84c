"""Engine benchmark: `python tests/bench_engine.py [--games N] [--seed S]`.

Plays random complete games per player count and prints the figures the
engine is held to (targets on a 2-core machine: a 5-player game <= 25 ms
median, one apply <= 50 us median, a 5-player end state <= 16 KB).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.game import apply, legal_actions, new_game, to_act  # noqa: E402
from engine.randomplay import concrete  # noqa: E402
from engine.state import GameState  # noqa: E402


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(players: int, seed: int, apply_times: list[float]) -> tuple[GameState, float]:
    """One random game; returns its end state and the engine time (apply + legal_actions) it took."""
    rnd = random.Random(seed)
    clock = time.perf_counter
    engine_time = 0.0
    t0 = clock()
    state, _ = new_game([f"p{i + 1}" for i in range(players)], seed=seed)
    engine_time += clock() - t0
    while state.phase != "game_over":
        t0 = clock()
        player = rnd.choice(to_act(state))
        options = legal_actions(state, player)
        engine_time += clock() - t0
        action = concrete(rnd.choice(options), rnd)
        t0 = clock()
        result = apply(state, player, action)
        elapsed = clock() - t0
        apply_times.append(elapsed)
        engine_time += elapsed
        if not result.ok:
            raise RuntimeError(f"legal action refused: {player} {action}: {result.code} {result.params}")
        state = result.state
    return state, engine_time


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(f"{'players':>7} {'games/s':>8} {'game ms p50':>11} {'game ms p99':>11} {'apply us p50':>12} "
          f"{'apply us p99':>12} {'actions/game':>12}")
    last_state: GameState | None = None
    for players in (2, 3, 4, 5):
        apply_times: list[float] = []
        game_times: list[float] = []
        started = time.perf_counter()
        for g in range(args.games):
            state, took = play(players, args.seed * 100_000 + g, apply_times)
            game_times.append(took)
        wall = time.perf_counter() - started
        print(f"{players:>7} {args.games / wall:>8.1f} {statistics.median(game_times) * 1e3:>11.2f} "
              f"{_percentile(game_times, 0.99) * 1e3:>11.2f} {statistics.median(apply_times) * 1e6:>12.1f} "
              f"{_percentile(apply_times, 0.99) * 1e6:>12.1f} {len(apply_times) / args.games:>12.0f}")
        last_state = state

    assert last_state is not None  # (the loop plays every player count)
    encoded = last_state.model_dump_json()
    reps = 500
    t0 = time.perf_counter()
    for _ in range(reps):
        last_state.model_dump_json()
    encode = (time.perf_counter() - t0) / reps
    t0 = time.perf_counter()
    for _ in range(reps):
        GameState.model_validate_json(encoded)
    decode = (time.perf_counter() - t0) / reps
    print(f"JSON encode {encode * 1e6:.1f} us, decode {decode * 1e6:.1f} us; "
          f"5-player end state {len(encoded.encode())} bytes")


if __name__ == "__main__":
    main()
