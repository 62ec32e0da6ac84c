"""The strong level: the normal player's judgement, checked by playing on in sampled worlds.

At the decisions that shape a game (how many cards to bid, which privilege card
to take, which cards to buy) the strong player deals the cards it cannot see at
random, consistently with its own view and the public history (worlds.py; the
others' purchases priced by what they paid, lots.py), in an auction preferring
deals in which the others would have bid as they did (likely.py). In each such
world it plays every candidate and then the rest of the round (after a purchase:
the next round; in the game's last two rounds: the rest of the game), every
player played by the normal level. Each outcome is scored as its lead over the
best other player: at a round's start, in the final points each position is
likely to lead to (leaf.py, fitted to normal-level games); in wins once the game is over;
the candidate with the best total wins, but it overrules the normal player's own
choice only when it leads it by OVERRULE standard error on the same worlds (with
a dozen or two worlds most leads are luck, and then the normal player's judgement
is the better guide). Every candidate meets the same worlds, so their differences
are not drowned in the luck of the deal; one clearly behind the leader on them
leaves the search early (_race), and the worlds that follow go to the others.

It is bounded by work, not time: worlds are added until their playouts have made `work` moves (or
`max_worlds` are played), so the same seed, view and history always give the same decision, on a busy
machine as on an idle one, and a decision costs about the same CPU whatever the load. `think_seconds` is
only a safety cap (a decision that reaches it stops early, and then depends on the machine); at the
default work it is far from reached. Other decisions are the normal level's.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Callable, Sequence

from ..actions import ActionModel
from ..events import Event
from ..game import apply, to_act
from ..levels import Level
from ..state import GameState
from ..views import View
from . import leaf
from .belief import Belief
from .candidates import candidates as _candidates
from .likely import auction_so_far, likely_world, opener_of
from .player import ComputerPlayer
from .seen import SeenView
from .worlds import Unsampled, quick_view

WORK = 3000  # moves played out per decision: the level's strength (decision p99 as measured: see the README)
MAX_WORLDS = 64  # worlds at most, when playouts are short (the round's last auctions)
THINK_SECONDS = 3.0  # a safety cap on one decision's wall time, far above what WORK takes even on a busy machine
ROUNDS_AHEAD = 0  # playouts end with the round being played (a purchase's: the next one), plus this many
ENDGAME = 2  # in the game's last this-many rounds playouts go on to its end: then wins are what count
WIN_POINTS = 100.0  # a win's worth in a playout to the game's end, besides the final lead in points
RACE_AFTER, RACE_EVERY, RACE_MARGIN = 6, 2, 2.5  # when and how clearly a candidate is dropped (see _race)
OVERRULE = 1.0  # standard errors by which a candidate must lead the normal player's choice to replace it


class StrongPlayer:
    level: Level = "strong"
    heavy = True  # a decision takes a sizeable fraction of a second: run it off the event loop

    def __init__(self, seed: int = 0, think_seconds: float = THINK_SECONDS, max_worlds: int = MAX_WORLDS,
                 clock: Callable[[], float] = time.perf_counter, rounds: int | None = None, work: int = WORK):
        self.seed, self.think_seconds, self.max_worlds, self.clock = seed, think_seconds, max_worlds, clock
        self.work = work
        self.rounds = ROUNDS_AHEAD if rounds is None else rounds
        self.normal = ComputerPlayer(seed)
        self.worlds = 0  # worlds played in the last decision (for the benchmark)
        self.moves = 0  # moves played out in the last decision
        self.cut = False  # the last decision stopped at the safety cap, before its work was done
        self.settled = False  # the last decision stopped early: one candidate was left in the race

    def decide(self, view: View, history: Sequence[Event] = ()) -> ActionModel:
        started = self.clock()
        usual = self.normal.decide(view)
        assert view.you is not None  # (the normal player refuses a view without one)
        self.worlds = self.moves = 0
        self.cut = self.settled = False
        candidates = _candidates(view, usual)
        if len(candidates) < 2:
            return usual
        belief = Belief.from_events(history, view.edition)
        rnd = random.Random(zlib.crc32(f"{self.seed}:{view.you.id}:{view.round}:{view.moves}".encode()))
        values: list[list[float]] = [[] for _ in candidates]  # per candidate, its outcome in each world
        alive = list(range(len(candidates)))
        me = view.you.id
        deadline = started + self.think_seconds
        so_far, opener = auction_so_far(history), opener_of(history)
        rounds = rounds_ahead(view, self.rounds)
        while self.worlds < self.max_worlds and self.moves < self.work and len(alive) > 1:
            if self.clock() >= deadline:
                self.cut = True
                break
            try:
                world = likely_world(view, belief, rnd, opener, so_far, _decide)
            except Unsampled:
                return usual
            for i in alive:
                value, moves = play_on(world, me, candidates[i], rounds)
                values[i].append(value)
                self.moves += moves
            self.worlds += 1
            alive = _race(values, alive, candidates.index(usual))
        self.settled = len(alive) == 1
        if not self.worlds:
            return usual
        # The normal player's choice keeps its place unless another did clearly better on the same worlds.
        first = candidates.index(usual)
        best = first if first in alive else alive[0]
        for i in alive:
            if sum(values[i]) > sum(values[best]) + 1e-9:
                best = i
        if best != first and first in alive and not _ahead(values[best], values[first], OVERRULE):
            best = first
        return candidates[best]


def _race(values: list[list[float]], alive: list[int], usual: int) -> list[int]:
    """The candidates still worth playing: after RACE_AFTER worlds, one clearly behind the leader on the
    same worlds (by RACE_MARGIN standard errors of the difference) is dropped, and its share of the work goes
    to the others."""
    n = len(values[alive[0]])
    if n < RACE_AFTER or n % RACE_EVERY:
        return alive
    leader = max(alive, key=lambda i: (sum(values[i]), i == usual))
    return [i for i in alive if i == leader or not _ahead(values[leader], values[i], RACE_MARGIN)]


def _ahead(these: list[float], those: list[float], margin: float) -> bool:
    """Whether outcomes `these` beat `those` (on the same worlds) by more than `margin` standard errors of
    their mean difference (never on fewer than two worlds)."""
    n = len(these)
    if n < 2:
        return False
    diffs = [a - b for a, b in zip(these, those)]
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    return mean > margin * spread


def rounds_ahead(view: View, rounds: int) -> int:
    """How many rounds a playout goes on after the current one: to the game's end in its last ENDGAME rounds."""
    left = view.rounds - view.round
    return rounds if left >= ENDGAME else max(rounds, left)


_PLAYERS: dict[str, ComputerPlayer] = {}


def _player(pid: str) -> ComputerPlayer:
    """The normal player who plays `pid` in every world (one per id: they keep no state)."""
    bot = _PLAYERS.get(pid)
    if bot is None:
        bot = _PLAYERS[pid] = ComputerPlayer(seed=zlib.crc32(pid.encode()))
    return bot


def _decide(pid: str, view: SeenView) -> ActionModel:
    return _player(pid).decide(view)


def playout(world: GameState, me: str, action: ActionModel, rounds: int = ROUNDS_AHEAD) -> float:
    """`action` in `world`, then everybody plays normal until the round is over (and `rounds` more);
    `me`'s lead at that point."""
    return play_on(world, me, action, rounds)[0]


def play_on(world: GameState, me: str, action: ActionModel, rounds: int = ROUNDS_AHEAD) -> tuple[float, int]:
    """`playout`, and the number of moves it made (the work it took)."""
    result = apply(world, me, action)
    if not result.ok:
        return -math.inf, 1  # cannot happen for a legal candidate; never choose it if it does
    state = result.state
    last = world.round + rounds + (1 if world.phase == "round_end_purchase" else 0)  # the last round played
    moves = 1
    while state.phase != "game_over" and not (state.round > last and state.phase == "auction"):
        player = to_act(state)[0]
        result = apply(state, player, _player(player).decide(quick_view(state, player)), in_place=True)
        assert result.ok  # (the normal player's decisions are legal ones)
        state = result.state
        moves += 1
    return lead(state, me), moves


def lead(state: GameState, me: str) -> float:
    """How far `me` is ahead of the best other player: in wins once the game is over, else in the final points
    each position is likely to lead to (leaf.py)."""
    if state.phase == "game_over":
        assert state.winners is not None  # (a finished game names them)
        won = me in state.winners
        mine = next(p.score for p in state.players if p.id == me)
        best = max(p.score for p in state.players if p.id != me)
        return WIN_POINTS * (1.0 / len(state.winners) if won else 0.0) + (mine - best)
    worth = {p.id: leaf.worth(quick_view(state, p.id)) for p in state.players}
    return worth[me] - max(v for pid, v in worth.items() if pid != me)
