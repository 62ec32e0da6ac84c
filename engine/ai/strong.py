"""The strong level: the normal player's judgement, checked by playing on in sampled worlds.

At the decisions that shape a game (how many cards to bid, which privilege card
to take, which cards to buy) the strong player deals the cards it cannot see at
random, consistently with its own view and the public history (worlds.py; the
others' purchases priced by what they paid, lots.py), in an auction preferring
deals in which the others would have bid as they did (likely.py). In each such
world it plays every candidate and then the rest of the round (after a purchase:
the next round; in the game's last two rounds: the rest of the game), every
player played by the normal level. Each outcome is scored as its lead over the
best other player, in points at a round's end or in wins once the game is over;
the candidate with the best total wins, the normal player's own choice unless
another does better. Every candidate meets the same worlds, so their differences
are not drowned in the luck of the deal.

It is time-bounded: worlds are added until `think_seconds` have passed (or
`max_worlds` are done), so a decision never takes much longer than that budget.
Given the same seed, view and history, and `max_worlds` reached within the time,
the decision is always the same. Other decisions are the normal level's.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections import Counter
from collections.abc import Sequence

from ..actions import ActionModel, Bid, Buy, BuyChoice, Call, Pass, TakeCard
from ..events import Event
from ..game import apply, to_act
from ..state import GameState
from ..views import View
from .belief import Belief
from .bidding import spend_order
from .likely import auction_so_far, likely_world, opener_of
from .player import ComputerPlayer
from .situation import horizon, me_from_view
from .valuation import card_time_factor, card_worth, position_value
from .worlds import Unsampled, quick_view

THINK_SECONDS = 0.25  # seconds per decision by default (as measured: see the README); p99 far under 2 s
MAX_WORLDS = 24  # enough to separate the candidates; more rarely changes the choice
ROUNDS_AHEAD = 0  # playouts end with the round being played (a purchase's: the next one), plus this many
ENDGAME = 2  # in the game's last this-many rounds playouts go on to its end: then wins are what count
EXTRA_BIDS = 2  # raises tried above the current high bid (besides the normal player's own choice)


class StrongPlayer:
    level = "strong"
    heavy = True  # a decision takes up to think_seconds: run it off the event loop

    def __init__(self, seed: int = 0, think_seconds: float = THINK_SECONDS, max_worlds: int = MAX_WORLDS,
                 clock=time.perf_counter, rounds: int | None = None):
        self.seed, self.think_seconds, self.max_worlds, self.clock = seed, think_seconds, max_worlds, clock
        self.rounds = ROUNDS_AHEAD if rounds is None else rounds
        self.normal = ComputerPlayer(seed)
        self.worlds = 0  # worlds played in the last decision (for the benchmark)

    def decide(self, view: View, history: Sequence[Event] = ()) -> ActionModel:
        started = self.clock()
        usual = self.normal.decide(view)
        self.worlds = 0
        candidates = _candidates(view, usual)
        if len(candidates) < 2:
            return usual
        belief = Belief.from_events(history, view.edition)
        rnd = random.Random(zlib.crc32(f"{self.seed}:{view.you.id}:{view.round}:{view.moves}".encode()))
        totals = [0.0] * len(candidates)
        me = view.you.id
        deadline = started + self.think_seconds
        so_far, opener = auction_so_far(history), opener_of(history)
        rounds = rounds_ahead(view, self.rounds)
        while self.worlds < self.max_worlds and self.clock() < deadline:
            try:
                world = likely_world(view, belief, rnd, opener, so_far, _decide)
            except Unsampled:
                return usual
            for i, action in enumerate(candidates):
                totals[i] += playout(world, me, action, rounds)
            self.worlds += 1
        if not self.worlds:
            return usual
        # The normal player's choice keeps its place unless another did better on the same worlds.
        best = candidates.index(usual)
        for i in range(len(candidates)):
            if totals[i] > totals[best] + 1e-9:
                best = i
        return candidates[best]


def rounds_ahead(view: View, rounds: int) -> int:
    """How many rounds a playout goes on after the current one: to the game's end in its last ENDGAME rounds."""
    left = view.rounds - view.round
    return rounds if left >= ENDGAME else max(rounds, left)


def _candidates(view: View, usual: ActionModel) -> list[ActionModel]:
    legal = view.you.legal_actions
    if view.phase == "auction":
        picked = [a for a in legal if isinstance(a, (Pass, Call))]
        picked += [a for a in legal if isinstance(a, Bid)][:EXTRA_BIDS]
    elif view.phase == "privilege" and view.privilege.awaiting == "take_card":
        picked = [a for a in legal if isinstance(a, TakeCard)]
    elif isinstance(usual, Buy):
        picked = _purchases(legal[0], usual, view.edition)
    else:
        return [usual]
    if usual not in picked:
        picked.append(usual)
    return picked


def _purchases(option: BuyChoice, usual: Buy, ed) -> list[Buy]:
    """The normal player's purchase, one card fewer, one card more, and nothing at all."""
    price = dict(zip(option.offered, option.prices, strict=True))
    chosen = spend_order(usual.cards, ed)  # least worth keeping first
    picked = [usual, Buy(cards=[])]
    if chosen:
        picked.append(Buy(cards=chosen[1:]))
    left = Counter(option.offered) - Counter(usual.cards)
    spent = sum(price[c] for c in usual.cards)
    more = [c for c in spend_order(list(left.elements()), ed) if spent + price[c] <= option.budget]
    if more:
        picked.append(Buy(cards=[*usual.cards, more[-1]]))
    return [b for i, b in enumerate(picked) if b not in picked[:i]]


_PLAYERS: dict[str, ComputerPlayer] = {}


def _player(pid: str) -> ComputerPlayer:
    """The normal player who plays `pid` in every world (one per id: they keep no state)."""
    bot = _PLAYERS.get(pid)
    if bot is None:
        bot = _PLAYERS[pid] = ComputerPlayer(seed=zlib.crc32(pid.encode()))
    return bot


def _decide(pid: str, view) -> ActionModel:
    return _player(pid).decide(view)


def playout(world: GameState, me: str, action: ActionModel, rounds: int = ROUNDS_AHEAD) -> float:
    """`action` in `world`, then everybody plays normal until the round is over (and `rounds` more);
    `me`'s lead at that point."""
    result = apply(world, me, action)
    if not result.ok:
        return -math.inf  # cannot happen for a legal candidate; never choose it if it does
    state = result.state
    last = world.round + rounds + (1 if world.phase == "round_end_purchase" else 0)  # the last round played
    while state.phase != "game_over" and not (state.round > last and state.phase == "auction"):
        player = to_act(state)[0]
        state = apply(state, player, _player(player).decide(quick_view(state, player))).state
    return lead(state, me)


def lead(state: GameState, me: str) -> float:
    """How far `me` is ahead of the best other player: in wins once the game is over, else in points."""
    if state.phase == "game_over":
        won = me in state.winners
        mine = next(p.score for p in state.players if p.id == me)
        best = max(p.score for p in state.players if p.id != me)
        return 100.0 * (1.0 / len(state.winners) if won else 0.0) + (mine - best)
    tops = {k: (v[0] if v else None) for k, v in state.tile_stacks.items()}
    worth = {p.id: worth_of(state, p.id, tops) for p in state.players}
    return worth[me] - max(v for pid, v in worth.items() if pid != me)


def worth_of(state: GameState, pid: str, tops: dict) -> float:
    """A player's position in expected final points, as the normal player values its own (hand included)."""
    view = quick_view(state, pid)
    hz = horizon(view)
    ed = state.edition
    hand = sum(card_worth(c, ed) for c in view.you.hand)
    return position_value(me_from_view(view), hz, tops) + hand * card_time_factor(hz)
