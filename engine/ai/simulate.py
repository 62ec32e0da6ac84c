"""Measure a computer level against others:

    python -m engine.ai.simulate --players 4 --games 400 --level strong --opponents normal --seed 1

Every deal (a game seed) is played once with the measured player in each seat,
the opponents' level in the others, so no seat or deal favours it. `--games` is
rounded up to whole deals. Opponents: random (uniformly random legal play),
greedy (one-ply greedy, greedy.py), or a level. A progress bar goes to stderr (when
it is a terminal); stdout gets one line of key=value figures:

    win_share   the measured level's share of the wins (a k-way tie counts 1/k);
                a fair share is 1/players
    ci95        95% confidence interval of win_share (normal approximation over deals)
    mean_score / opp_mean_score   mean final score of the measured player / of its opponents
    lost / opp_lost   prestige lost to the 25/45 limits (R21) per game by the measured player / by
                an opponent
    seat_win_shares   win_share per seat
    ms_p50 / ms_p90 / ms_p99 / ms_max   the measured player's time per decision (view building excluded)
    cpu_ms_p99  the same p99 in CPU time: about what a decision takes on an idle machine
    load        the machine's load average (1 minute) while the games were played, lowest-highest
    capped      strong decisions stopped by the safety cap (`--think`) before their work was done

`--workers N` plays deals in N processes. The figures do not depend on it, nor on
how busy the machine is (the strong level's work is fixed), except the timings and,
should any decision reach the safety cap (`capped=`), the results.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import NamedTuple

from ..events import PrestigeGained
from ..game import apply, legal_actions, new_game, to_act
from ..randomplay import concrete
from ..state import GameState
from ..views import player_view
from .greedy import GreedyPlayer
from .levels import LEVELS, THINK_SECONDS, Computer, computer
from .progress import Progress, percentile

OPPONENTS = ("random", "greedy", *LEVELS)


@dataclass
class Seat:
    kind: str
    seed: int
    think: float = THINK_SECONDS
    bot: Computer | GreedyPlayer | None = field(init=False, default=None)  # None: random play

    def __post_init__(self) -> None:
        if self.kind == "greedy":
            self.bot = GreedyPlayer(self.seed)
        elif self.kind != "random":
            self.bot = computer(self.kind, self.seed, think_seconds=self.think)


class Played(NamedTuple):
    state: GameState  # at the game's end
    times: list[float]  # the measured seat's decision times
    lost: dict[str, int]  # prestige each player lost to the limits (R21)
    capped: int  # the measured seat's decisions stopped by the safety cap
    cpu: list[float]  # the measured seat's decision times in CPU seconds (what they take on an idle machine)


class Row(NamedTuple):
    """One game of a deal, from the measured seat."""

    share: float  # of the win (a k-way tie: 1/k)
    score: int
    others: list[int]  # the other players' scores
    times: list[float]
    lost: int
    others_lost: list[int]
    capped: int
    cpu: list[float]


def play_game(kinds: list[str], seed: int, measured: int, think: float = THINK_SECONDS) -> Played:
    """One complete game, seat s played by kinds[s]."""
    ids = [f"p{i + 1}" for i in range(len(kinds))]
    state, events = new_game(ids, seed=seed)
    seats = {pid: Seat(kind, seed * 10 + s, think) for s, (pid, kind) in enumerate(zip(ids, kinds))}
    seen = {pid: [e for e in events if e.to in (None, pid)] for pid in ids}  # what each may know, oldest first
    rnd = random.Random(seed)
    times: list[float] = []
    cpu: list[float] = []
    lost = dict.fromkeys(ids, 0)
    capped = 0
    clock = time.perf_counter
    while state.phase != "game_over":
        player = to_act(state)[0]
        seat = seats[player]
        if seat.bot is None:
            action = concrete(rnd.choice(legal_actions(state, player)), rnd)
        else:
            view = player_view(state, player)
            started, used = clock(), time.process_time()
            action = seat.bot.decide(view, seen[player])
            if player == ids[measured]:
                times.append(clock() - started)
                cpu.append(time.process_time() - used)
                capped += getattr(seat.bot, "cut", False)
        result = apply(state, player, action)
        if not result.ok:
            raise RuntimeError(f"game seed {seed}: {player} played an illegal {action}: {result.code} {result.params}")
        state = result.state
        for e in result.events:
            if isinstance(e, PrestigeGained):
                lost[e.player] += e.requested - e.amount
        for pid in ids:
            seen[pid].extend(e for e in result.events if e.to in (None, pid))
    return Played(state, times, lost, capped, cpu)


def play_deal(args: tuple[int, str, str, int, float]) -> list[Row]:
    """One deal, the measured level in each seat in turn: a row per seat."""
    players, level, opponents, seed, think = args
    rows = []
    for seat in range(players):
        kinds = [opponents] * players
        kinds[seat] = level
        state, times, lost, capped, cpu = play_game(kinds, seed, seat, think)
        assert state.winners is not None  # (played to its end)
        me = state.players[seat]
        share = 1.0 / len(state.winners) if me.id in state.winners else 0.0
        others = [p for s, p in enumerate(state.players) if s != seat]
        rows.append(Row(share, me.score, [p.score for p in others], times, lost[me.id], [lost[p.id] for p in others],
                        capped, cpu))
    return rows


def run(players: int, games: int, level: str, opponents: str, seed: int, think: float = THINK_SECONDS,
        workers: int = 1, progress: bool = True) -> dict[str, str | int]:
    deals = max(1, math.ceil(games / players))
    jobs = [(players, level, opponents, seed * 1_000_003 + d, think) for d in range(deals)]
    bar = Progress(deals * players, progress)
    per_deal: list[float] = []
    shares: list[float] = []
    seat_shares: list[list[float]] = [[] for _ in range(players)]
    scores: list[int] = []
    opp_scores: list[int] = []
    times: list[float] = []
    lost: list[int] = []
    opp_lost: list[int] = []
    capped = 0
    cpu: list[float] = []
    loads = [os.getloadavg()[0]]
    pool = ProcessPoolExecutor(workers) if workers > 1 else None
    results = pool.map(play_deal, jobs) if pool else map(play_deal, jobs)
    try:
        for rows in results:
            per_deal.append(sum(r.share for r in rows) / players)
            for s, r in enumerate(rows):
                shares.append(r.share)
                seat_shares[s].append(r.share)
                scores.append(r.score)
                opp_scores.extend(r.others)
                times.extend(r.times)
                lost.append(r.lost)
                opp_lost.extend(r.others_lost)
                capped += r.capped
                cpu.extend(r.cpu)
            loads.append(os.getloadavg()[0])
            bar.update(len(shares), f"win share {sum(shares) / len(shares):.3f}")
    finally:
        if pool:
            pool.shutdown()
    share = sum(shares) / len(shares)
    low, high = confidence(per_deal)
    return {
        "games": len(shares),
        "players": players,
        "level": level,
        "opponents": opponents,
        "win_share": f"{share:.3f}",
        "ci95": f"{low:.3f}-{high:.3f}",
        "fair_share": f"{1 / players:.3f}",
        "mean_score": f"{sum(scores) / len(scores):.1f}",
        "opp_mean_score": f"{sum(opp_scores) / len(opp_scores):.1f}",
        "lost": f"{sum(lost) / len(lost):.2f}",
        "opp_lost": f"{sum(opp_lost) / len(opp_lost):.2f}",
        "seat_win_shares": "/".join(f"{sum(s) / len(s):.2f}" for s in seat_shares),
        "ms_p50": f"{percentile(times, 0.5) * 1e3:.2f}",
        "ms_p90": f"{percentile(times, 0.9) * 1e3:.2f}",
        "ms_p99": f"{percentile(times, 0.99) * 1e3:.2f}",
        "ms_max": f"{max(times, default=0.0) * 1e3:.2f}",
        "cpu_ms_p99": f"{percentile(cpu, 0.99) * 1e3:.2f}",
        "load": f"{min(loads):.1f}-{max(loads):.1f}",
        "decisions": len(times),
        "capped": capped,
        "seconds": f"{time.perf_counter() - bar.started:.1f}",
    }


def confidence(values: list[float]) -> tuple[float, float]:
    """95% interval of the mean of `values` (one per deal: a deal's seats are not independent games)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return 0.0, 1.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)


def whole(text: str) -> int:
    """A whole number in digits 0-9 (argparse's type: its message becomes the usage error). int() alone would
    also take other scripts' digits ('١٢'), and a settings file's would not: the same rule everywhere."""
    if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (digits 0-9)")
    return int(text)


def positive(text: str) -> int:
    """A whole number of 1 or more."""
    number = whole(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not 1 or more")
    return number


def seconds(text: str) -> float:
    """A number of seconds above 0."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < number < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return number


def arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """simulate's options, on `parser` (its own, or `augsburg simulate`'s)."""
    parser.description = ("Measure a computer level against others: every deal is played once with the measured"
                          " level in each seat, the opponents in the others. Prints one line of key=value figures"
                          " (win_share, ci95, mean_score, timings...; see engine/ai/simulate.py).")
    parser.add_argument("--players", type=whole, default=4, choices=range(2, 6), metavar="N",
                        help="players at each table, 2 to 5 (default: 4)")
    parser.add_argument("--games", type=positive, default=400, metavar="G",
                        help="games to play, 1 or more, rounded up to whole deals (default: 400)")
    parser.add_argument("--level", choices=LEVELS, default="normal",
                        help=f"the level measured: {', '.join(LEVELS)} (default: normal)")
    parser.add_argument("--opponents", choices=OPPONENTS, default="random",
                        help=f"the other seats: {', '.join(OPPONENTS)} (default: random; greedy: one-ply greedy)")
    parser.add_argument("--seed", type=whole, default=1, metavar="S",
                        help="a whole number: the same seed deals the same games (default: 1)")
    parser.add_argument("--think", type=seconds, default=THINK_SECONDS, metavar="SECONDS",
                        help="the strong level's safety cap in seconds per decision; its work is fixed "
                             f"(default: {THINK_SECONDS:g})")
    parser.add_argument("--workers", type=positive, default=1, metavar="N",
                        help="processes playing deals at once, 1 or more (default: 1)")
    parser.add_argument("--no-progress", action="store_true",
                        help="draw no progress bar (it is drawn on stderr only when that is a terminal)")
    return parser


def simulate(args: argparse.Namespace) -> int:
    """Play the games `args` ask for (arguments()), print the figures: 0."""
    progress = not args.no_progress and sys.stderr.isatty()  # never into a pipe or a log
    figures = run(args.players, args.games, args.level, args.opponents, args.seed, args.think, args.workers,
                  progress=progress)
    print(" ".join(f"{k}={v}" for k, v in figures.items()))
    return 0


def main(argv: list[str] | None = None) -> int:
    return simulate(arguments(argparse.ArgumentParser(prog="python -m engine.ai.simulate")).parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
