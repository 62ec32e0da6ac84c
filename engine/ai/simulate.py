"""Measure the computer player: python -m engine.ai.simulate --players 4 --games 1000 --opponents random --seed 1

Plays complete games through the public engine API. With `--opponents random`
one computer player meets uniformly random players and its seat rotates from
game to game; with `--opponents ai` every seat is a computer player and the one
in seat 0 is the measured one. A progress bar goes to stderr; stdout gets one
line of key=value figures:

    games       games played
    ai_win_rate share of games the measured computer player won (a shared win counts)
    mean_score  its mean final score (opp_mean_score: the other players')
    seat_win_rates  per seat, the computer player's win rate when it sat there
                (with --opponents ai: the win rate of each seat's copy)
    ms_per_decision_p50 / _p99  time of one decide(view) call, view building excluded
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from ..game import apply, legal_actions, new_game, to_act
from ..randomplay import concrete
from ..state import GameState
from ..views import player_view
from .player import ComputerPlayer


def play_game(players: int, seed: int, ai_seats: set[int], decision_times: list[float]) -> GameState:
    """One complete game; computer players in `ai_seats`, uniformly random players elsewhere."""
    ids = [f"p{i + 1}" for i in range(players)]
    state, _ = new_game(ids, seed=seed)
    bots = {ids[s]: ComputerPlayer(seed=seed * 10 + s) for s in ai_seats}
    rnd = random.Random(seed)
    clock = time.perf_counter
    while state.phase != "game_over":
        player = to_act(state)[0]
        bot = bots.get(player)
        if bot is not None:
            view = player_view(state, player)
            started = clock()
            action = bot.decide(view)
            decision_times.append(clock() - started)
        else:
            action = concrete(rnd.choice(legal_actions(state, player)), rnd)
        result = apply(state, player, action)
        if not result.ok:
            raise RuntimeError(f"game seed {seed}: {player} played an illegal {action}: {result.code} {result.params}")
        state = result.state
    return state


class Progress:
    """A one-line progress bar on stderr (no dependency needed)."""

    def __init__(self, total: int, enabled: bool = True, width: int = 30):
        self.total, self.enabled, self.width = total, enabled, width
        self.started = time.perf_counter()
        self.shown = 0.0

    def update(self, done: int, note: str = "") -> None:
        now = time.perf_counter()
        if not self.enabled or (now - self.shown < 0.2 and done < self.total):
            return
        self.shown = now
        filled = self.width * done // max(1, self.total)
        rate = done / max(1e-9, now - self.started)
        eta = (self.total - done) / rate if rate else 0.0
        bar = "#" * filled + "." * (self.width - filled)
        sys.stderr.write(f"\r[{bar}] {done}/{self.total} games {rate:.1f}/s eta {eta:.0f}s {note}")
        if done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(players: int, games: int, opponents: str, seed: int, progress: bool = True) -> dict:
    """Play the games and return the figures of the summary line."""
    seat_games = [0] * players
    seat_wins = [0] * players
    wins, scores, opp_scores, times = 0, [], [], []
    bar = Progress(games, progress)
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        if opponents == "random":
            measured = g % players
            ai_seats = {measured}
        else:
            measured = 0
            ai_seats = set(range(players))
        state = play_game(players, game_seed, ai_seats, times)
        ids = [p.id for p in state.players]
        won = ids[measured] in state.winners
        wins += won
        scores.append(state.players[measured].score)
        opp_scores.extend(p.score for s, p in enumerate(state.players) if s not in ai_seats)
        for s in ai_seats:
            seat_games[s] += 1
            seat_wins[s] += ids[s] in state.winners
        bar.update(g + 1, f"win rate {wins / (g + 1):.3f}")
    return {
        "games": games,
        "players": players,
        "opponents": opponents,
        "ai_win_rate": f"{wins / max(1, games):.3f}",
        "mean_score": f"{sum(scores) / max(1, len(scores)):.1f}",
        "opp_mean_score": f"{sum(opp_scores) / len(opp_scores):.1f}" if opp_scores else "-",
        "seat_win_rates": "/".join(f"{w / max(1, n):.2f}" for w, n in zip(seat_wins, seat_games)),
        "ms_per_decision_p50": f"{_percentile(times, 0.5) * 1e3:.3f}",
        "ms_per_decision_p99": f"{_percentile(times, 0.99) * 1e3:.3f}",
        "decisions": len(times),
        "seconds": f"{time.perf_counter() - bar.started:.1f}",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.ai.simulate", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, choices=range(2, 6))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--opponents", choices=("random", "ai"), default="random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-progress", action="store_true", help="do not draw the progress bar on stderr")
    args = parser.parse_args(argv)
    figures = run(args.players, args.games, args.opponents, args.seed, progress=not args.no_progress)
    print(" ".join(f"{k}={v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
