"""How close the strong level's worlds come to the real hands: `python tests/bench_worlds.py [--seed 30000000]
[--games 40] [--worlds 12]`.

Plays normal-level games (four players, seeds from --seed on); at every third auction decision the player to
act deals --worlds worlds as the strong level does (engine/ai/likely.py) and, for each other player, the cards
valid for the running noble in those worlds are compared with the real hand: how many (valid), the best
certificate's value (best, 0 for none) and the jokers. Printed per group of players (all; those who already
bid or called in the running auction; those who passed; those yet to act) and per noble: the real and the
dealt mean, the mean absolute error and the correlation over decisions. A measurement, not a test: it reads
the real game, which the strong level never does.
"""

from __future__ import annotations

import argparse
import random
import statistics as st
from concurrent.futures import ProcessPoolExecutor

from test_strong import positions  # normal-level games, position by position

from engine.ai.belief import Belief
from engine.ai.levels import visible_to
from engine.ai.likely import auction_so_far, likely_world, opener_of
from engine.ai.strong import _decide
from engine.components import JOKER
from engine.views import player_view

FIGURES = ("valid", "best", "jokers")


def features(hand: list[str], noble: str, ed) -> tuple[int, int, int]:
    valid = [c for c in hand if ed.is_valid_for(c, noble)]
    best = max((ed.card_value[c] for c in valid if c != JOKER), default=0)
    return len(valid), best, valid.count(JOKER)


def game(args: tuple[int, int]) -> list[dict]:
    seed, worlds = args
    rows = []
    for auctions, (state, events, player) in enumerate(positions(4, seed, phases=("auction",)), 1):
        if auctions % 3 == 0:
            rows += _compare(state, player_view(state, player), visible_to(events, player), player, worlds,
                             seed * 1000 + auctions)
    return rows


def _compare(state, view, seen, player, worlds, salt) -> list[dict]:
    ed = state.edition
    belief = Belief.from_events(seen, ed)
    so_far, opener = auction_so_far(seen), opener_of(seen)
    rnd = random.Random(salt)
    dealt = {p.id: [] for p in state.players if p.id != player}
    for _ in range(worlds):
        world = likely_world(view, belief, rnd, opener, so_far, _decide)
        for p in world.players:
            if p.id != player:
                dealt[p.id].append(features(p.hand, view.noble, ed))
    acted = {p for p, _ in so_far}
    return [dict(noble=view.noble, group="passed" if p.id in view.auction.passed else
                 "bid or called" if p.id in acted else "yet to act",
                 real=features(p.hand, view.noble, ed), dealt=dealt[p.id])
            for p in state.players if p.id != player]


def report(name: str, rows: list[dict]) -> None:
    for i, figure in enumerate(FIGURES):
        real = [r["real"][i] for r in rows]
        dealt = [st.mean(d[i] for d in r["dealt"]) for r in rows]
        error = st.mean(abs(a - b) for a, b in zip(real, dealt, strict=True))
        corr = st.correlation(real, dealt) if len(set(real)) > 1 and len(set(dealt)) > 1 else float("nan")
        print(f"{name:14s} n={len(rows):5d} {figure:6s} real {st.mean(real):6.2f} dealt {st.mean(dealt):6.2f} "
              f"|error| {error:5.2f} corr {corr:5.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=30000000)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rows: list[dict] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for found in pool.map(game, [(args.seed + g, args.worlds) for g in range(args.games)]):
            rows += found
    report("all", rows)
    for group in ("bid or called", "passed", "yet to act"):
        report(group, [r for r in rows if r["group"] == group])
    for noble in sorted({r["noble"] for r in rows}):
        report(noble, [r for r in rows if r["noble"] == noble])


if __name__ == "__main__":
    main()
