"""Picture benchmark: `python tests/bench_picture.py [--runs N]`.

Renders the public table for 2- and 5-player positions at the start, in the middle and at the end of
seeded games played by the computer player, and prints p50/p99 render time (view to PNG bytes) and the
PNG's size. Targets on a 2-core machine: 5 players p99 <= 30 ms, <= 150 KB.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.picture import table_picture  # noqa: E402
from bot.picture.story import Story, story  # noqa: E402
from bot.wording import words  # noqa: E402
from engine import GameState, apply, new_game, player_view, spectator_view, to_act  # noqa: E402
from engine.ai.player import ComputerPlayer  # noqa: E402

NAMES = ["Ada", "Ben", "Cleo", "Dörte", "Elisabetta Maria"]
STAGES = ("start", "mid", "end")


def position(players: int, stage: str, seed: int = 3) -> GameState:
    """A seeded game played by computer players: at the first decision (start), at the first auction of
    the middle round with a bid made (mid), or over (end)."""
    return played(players, stage, seed)[0]


def played(players: int, stage: str, seed: int = 3) -> tuple[GameState, Story]:
    """`position`, with the story its public log tells (who won each noble this round, where scores came from)."""
    ids = [f"p{i + 1}" for i in range(players)]
    state, events = new_game(ids, seed=seed)
    moves = [SimpleNamespace(entries=events)]
    bots = {pid: ComputerPlayer(seed=seed * 10 + i) for i, pid in enumerate(ids)}
    middle = state.rounds // 2 + 1
    while stage != "start" and state.phase != "game_over":
        if stage == "mid" and state.round == middle and state.phase == "auction" and state.auction.high:
            break
        player = to_act(state)[0]
        result = apply(state, player, bots[player].decide(player_view(state, player)))
        state = result.state
        moves.append(SimpleNamespace(entries=[e for e in result.events if e.to is None]))
    return state, story(moves)


def names_of(state: GameState):
    ids = [p.id for p in state.players]
    return lambda pid: NAMES[ids.index(pid)]


def measure(state: GameState, runs: int, lang: str = "en") -> tuple[float, float, int]:
    w, names = words(lang), names_of(state)
    times, data = [], b""
    for _ in range(runs):
        started = time.perf_counter()
        data = table_picture(spectator_view(state), names, w)
        times.append(time.perf_counter() - started)
    times.sort()
    return times[len(times) // 2] * 1000, times[min(len(times) - 1, int(0.99 * len(times)))] * 1000, len(data)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args(argv)
    measure(position(2, "start"), 3)  # warm the caches (font, composed letters) as a running bot has them
    print(f"{'players':>7} {'stage':>6} {'ms p50':>7} {'ms p99':>7} {'PNG KB':>7}")
    for players in (2, 5):
        for stage in STAGES:
            p50, p99, size = measure(position(players, stage), args.runs)
            print(f"{players:>7} {stage:>6} {p50:>7.1f} {p99:>7.1f} {size / 1024:>7.1f}")


if __name__ == "__main__":
    main()
