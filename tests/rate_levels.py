"""The computer levels' fixed marks (issue 46): games between the levels, rated by the bot's own model.

    .venv/bin/python tests/rate_levels.py --deals 100 --seed 1 [--workers 2]

Three-player games, one seat per level (easy, normal, strong); every deal is played once in each of the three
rotations of the seats, so no seat or deal favours a level. Each level is one identity that the model
(storage/skill.py: openskill's Plackett-Luce, ranks from the game's own places, ties shared) updates after
every game, in the order played, from the newcomer's 25 ± 8.33. It prints each level's mu, sigma and ordinal,
its win share and mean score, and the MARKS to paste into storage/skill.py. The games are deterministic
(the strong level's work is fixed), so the same command prints the same marks on any machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai.simulate import play_game  # noqa: E402
from storage import skill  # noqa: E402

LEVELS = ("easy", "normal", "strong")
# The strong level's work per decision is fixed; its wall-clock safety cap is lifted here, so that a busy
# machine cannot cut a decision short and change the games: the same command plays the same games anywhere.
NO_CAP = 1e9


def deal(seed: int) -> list[tuple[list[str], list[int], list[int]]]:
    """One deal in each rotation: (the seats' levels, their places, their scores)."""
    games = []
    for r in range(len(LEVELS)):
        kinds = list(LEVELS[r:] + LEVELS[:r])
        state = play_game(kinds, seed, 0, think=NO_CAP).state
        assert state.winners is not None
        ends = [(p.score, p.id in state.winners) for p in state.players]
        games.append((kinds, [skill.place(s, w, ends) for s, w in ends], [s for s, _ in ends]))
    return games


def figures(ratings: dict[str, skill.Rating], wins: dict[str, float], scores: dict[str, list[int]],
            played: int) -> list[str]:
    return [f"games={played}"] + [
        f"{k}: mu={ratings[k].mu:.2f} sigma={ratings[k].sigma:.2f} ordinal={ratings[k].ordinal:.2f}"
        f" win_share={wins[k] / played:.3f} mean_score={sum(scores[k]) / len(scores[k]):.1f}" for k in LEVELS]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100, help="deals, each played in 3 rotations (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    seeds = [args.seed * 1_000_003 + d for d in range(args.deals)]
    started = time.perf_counter()
    ratings = {k: skill.NEW for k in LEVELS}
    wins = dict.fromkeys(LEVELS, 0.0)
    scores: dict[str, list[int]] = {k: [] for k in LEVELS}
    played = 0
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for games in (pool.map(deal, seeds) if pool else map(deal, seeds)):
            for kinds, places, points in games:
                skill.update(kinds, places, ratings)
                firsts = places.count(1)
                for k, p, s in zip(kinds, places, points):
                    wins[k] += (p == 1) / firsts
                    scores[k].append(s)
                played += 1
            # After each deal, the figures so far: a prefix of the deals is what `--deals` that many prints.
            print(" | ".join(figures(ratings, wins, scores, played)), file=sys.stderr, flush=True)
    finally:
        if pool:
            pool.shutdown()
    print(f"games={played} deals={args.deals} seed={args.seed} seconds={time.perf_counter() - started:.0f}")
    print("\n".join(figures(ratings, wins, scores, played)[1:]))
    print("MARKS = {" + ", ".join(f'"{k}": ({ratings[k].mu:.2f}, {ratings[k].sigma:.2f})' for k in LEVELS) + "}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
