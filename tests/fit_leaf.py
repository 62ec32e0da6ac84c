"""Fit the strong player's leaf (engine/ai/leaf.py): `python tests/fit_leaf.py [--games 3000] [--seed 50000000]
[--check 1000] [--workers 2]`.

Plays --games normal-level games for each number of players (2 to 5; deals from --seed on) and, at the start of
every round but the first (where the strong player's playouts stop), records each player's leaf.features and
then the final score they reached. For each number of players and scorings still to come it fits the final score
by least squares on the features (and a constant) and prints the table to paste as leaf.FIT. Then, on --check
further games (deals after those), it prints how well each leaf forecasts the final score (correlation): the
normal player's valuation (as strong.py scored playouts before), the one just fitted and leaf.FIT as it is.
"""

from __future__ import annotations

import argparse
import statistics as st
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from engine.ai.leaf import FEATURES, FIT, features, weighed, weights_for
from engine.ai.player import ComputerPlayer
from engine.ai.situation import horizon, me_from_view, tops_from_view
from engine.ai.valuation import card_time_factor, card_worth, position_value
from engine.ai.worlds import quick_view
from engine.game import apply, new_game, to_act


def game(args: tuple[int, int]) -> list[tuple[int, tuple[float, ...], float, float]]:
    """(scorings to come, features, the normal valuation, final score) per player at each round's start."""
    players, seed = args
    ids = [f"p{i + 1}" for i in range(players)]
    state, _ = new_game(ids, seed=seed)
    bots = {pid: ComputerPlayer(seed * 10 + i) for i, pid in enumerate(ids)}
    points, started = [], {1}
    while state.phase != "game_over":
        if state.phase == "auction" and state.round not in started:
            started.add(state.round)
            for pid in ids:
                view = quick_view(state, pid)
                points.append((pid, horizon(view).scorings, features(view), normal_worth(view)))
        player = to_act(state)[0]
        state = apply(state, player, bots[player].decide(quick_view(state, player)), in_place=True).state
    final = {p.id: p.score for p in state.players}
    return [(scorings, x, normal, final[pid]) for pid, scorings, x, normal in points]


def normal_worth(view) -> float:
    """The normal player's valuation of its position, hand included (the leaf before the fit)."""
    hz = horizon(view)
    hand = sum(card_worth(c, view.edition) for c in view.you.hand)
    return position_value(me_from_view(view), hz, tops_from_view(view)) + hand * card_time_factor(hz)


def least_squares(rows: list[tuple[float, ...]], ys: list[float]) -> tuple[float, ...]:
    """Weights w (and a constant, last) minimising sum (w . x + c - y)^2: the normal equations, each column
    scaled to unit spread first, solved by Gauss-Jordan elimination with partial pivoting."""
    cols = len(rows[0])
    scale = [st.pstdev(r[j] for r in rows) or 1.0 for j in range(cols)]
    xs = [[r[j] / scale[j] for j in range(cols)] + [1.0] for r in rows]
    n = cols + 1
    a = [[sum(x[i] * x[j] for x in xs) for j in range(n)] + [sum(x[i] * y for x, y in zip(xs, ys))]
         for i in range(n)]
    for i in range(n):
        pivot = max(range(i, n), key=lambda k: abs(a[k][i]))
        a[i], a[pivot] = a[pivot], a[i]
        if abs(a[i][i]) < 1e-12:  # a feature that never varies here: no weight
            continue
        for k in range(n):
            if k != i and a[k][i]:
                f = a[k][i] / a[i][i]
                a[k] = [u - f * v for u, v in zip(a[k], a[i])]
    solved = [a[i][n] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n)]
    return tuple(solved[j] / scale[j] for j in range(cols)) + (solved[cols],)


def play(pool, players: int, seed: int, games: int) -> dict[int, list]:
    by = defaultdict(list)
    for points in pool.map(game, [(players, seed + g) for g in range(games)], chunksize=8):
        for scorings, x, normal, final in points:
            by[scorings].append((x, normal, final))
    return by


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--check", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=50000000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    fit: dict[int, dict[int, tuple[float, ...]]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for players in (2, 3, 4, 5):
            by = play(pool, players, args.seed, args.games)
            fit[players] = {s: least_squares([x for x, _, _ in rows], [y for _, _, y in rows])[:-1]
                            for s, rows in sorted(by.items())}
        print(f"# weights of {', '.join(FEATURES)}")
        print("FIT = {")
        for players, table in fit.items():
            print(f"    {players}: {{")
            for s, weights in table.items():
                print(f"        {s}: ({', '.join(f'{w:.4g}' for w in weights)}),")
            print("    },")
        print("}")
        for players in (2, 3, 4, 5):  # forecasts on games the fit has not seen
            for s, rows in sorted(play(pool, players, args.seed + args.games, args.check).items()):
                finals = [y for _, _, y in rows]
                fitted = [weighed(x, fit[players][s]) for x, _, _ in rows]
                table_now = [weighed(x, weights_for(players, s)) if FIT else 0.0 for x, _, _ in rows]
                print(f"players={players} scorings={s} n={len(rows)} correlation with the final score: "
                      f"normal valuation {st.correlation([n for _, n, _ in rows], finals):.3f}, "
                      f"fitted {st.correlation(fitted, finals):.3f}, leaf.FIT "
                      f"{st.correlation(table_now, finals) if FIT else float('nan'):.3f}")


if __name__ == "__main__":
    main()
