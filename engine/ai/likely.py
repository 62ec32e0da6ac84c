"""Likely worlds: of the ways the hidden cards could lie, prefer those in which the others would have
bid as they did.

A raise tells something about a hand (the normal player raises on a high card and passes
without valid ones). So in an auction the strong player deals several candidate worlds,
replays the running auction's bids in each from its start (nobody's hand changes while
bidding) and keeps the first world in which a normal player in each other seat makes
every bid, call and pass that was made; failing that, the one that agrees most.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .. import events as ev
from ..actions import ActionModel, Bid, Call, Pass
from ..game import apply
from ..state import Auction, GameState, clone
from ..views import View
from .belief import Belief
from .seen import Decide
from .worlds import quick_view, sample_world

TRIES = 8  # worlds dealt to find one that agrees with every bid so far


def auction_so_far(history: Sequence[ev.Event]) -> list[tuple[str, ActionModel]]:
    """The bids, calls and passes of the running auction, in order (from its last AuctionStarted)."""
    actions: list[tuple[str, ActionModel]] = []
    for e in history:
        if isinstance(e, ev.AuctionStarted):
            actions = []
        elif isinstance(e, ev.BidMade):
            actions.append((e.player, Bid(count=e.count)))
        elif isinstance(e, ev.Called):
            actions.append((e.player, Call()))
        elif isinstance(e, ev.Passed):
            actions.append((e.player, Pass()))
    return actions


def agreement(world: GameState, me: str, opener: str, so_far: Sequence[tuple[str, ActionModel]], decide: Decide,
              beat: int = -2) -> int:
    """How many of the others' actions so far a normal player would have made in `world` (-1: impossible).
    Once it can no longer come to more than `beat`, it stops early with some count no higher."""
    ids = [p.id for p in world.players]
    state = clone(world)
    n = len(ids)
    state.auction = Auction(turn=ids.index(opener), offers=[0] * n, passed=[False] * n)
    agreed = 0
    left = sum(1 for player, _ in so_far if player != me)  # the others' actions still to check
    for player, action in so_far:
        if player != me:
            if agreed + left <= beat:
                return agreed
            left -= 1
            if decide(player, quick_view(state, player)) == action:
                agreed += 1
        result = apply(state, player, action, in_place=True)  # (our own copy; dropped if refused)
        if not result.ok:
            return -1
        state = result.state
    return agreed


def likely_world(view: View, belief: Belief, rnd: random.Random, opener: str | None,
                 so_far: Sequence[tuple[str, ActionModel]], decide: Decide) -> GameState:
    """A sampled world, preferring one where the others' bids so far are what they would have bid."""
    assert view.you is not None
    others = sum(1 for player, _ in so_far if player != view.you.id)
    if view.phase != "auction" or opener is None or not others:
        return sample_world(view, belief, rnd, decide)
    best, best_agreed = None, -2
    for _ in range(TRIES):
        world = sample_world(view, belief, rnd)
        agreed = agreement(world, view.you.id, opener, so_far, decide, best_agreed)
        if agreed == others:
            return world
        if agreed > best_agreed:
            best, best_agreed = world, agreed
    assert best is not None  # (an agreement is at least -1: the first world is kept)
    return best


def opener_of(history: Sequence[ev.Event]) -> str | None:
    """Who opened the running auction."""
    return next((e.opener for e in reversed(history) if isinstance(e, ev.AuctionStarted)), None)
