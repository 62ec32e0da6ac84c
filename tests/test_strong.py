"""The strong level (engine/ai/strong.py) and what it searches in: beliefs and sampled worlds.

Its strength is a benchmark, not a test (see the README):
    augsburg simulate --players 4 --games 400 --level strong --opponents normal --seed 1 --workers 2
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from test_views import scramble_hidden

from engine import apply, is_legal, new_game, player_view, to_act
from engine.ai.belief import Belief
from engine.ai.levels import visible_to
from engine.ai.player import ComputerPlayer
from engine.ai.strong import StrongPlayer
from engine.ai.worlds import Unsampled, quick_view, sample_world
from engine.editions import default
from engine.integrity import problems

ED = default()  # the shipped edition

INF = math.inf


def positions(players: int, seed: int, phases=("auction", "privilege", "showdown", "round_end_purchase")):
    """(state, every event so far, player to act) along a game the normal level plays."""
    ids = [f"p{i + 1}" for i in range(players)]
    state, events = new_game(ids, seed=seed)
    bots = {pid: ComputerPlayer(seed + i) for i, pid in enumerate(ids)}
    while state.phase != "game_over":
        player = to_act(state)[0]
        if state.phase in phases:
            yield state, events, player
        result = apply(state, player, bots[player].decide(player_view(state, player)))
        state, events = result.state, events + result.events


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_belief_counts_what_the_public_history_tells(players):
    """Money, hand sizes, offered cards, the discard pile and the deck follow from the public events
    alone (R28 keeps them secret, but every change to them is public); cards seen going back into a
    hand are there."""
    checked = 0
    for state, events, player in positions(players, 40 + players, phases=("auction", "privilege", "showdown",
                                                                          "round_end_purchase", "shortage")):
        belief = Belief.from_events(visible_to(events, player), ED)
        for p in state.players:
            assert belief.money[p.id] == p.money
            assert belief.hand[p.id] == len(p.hand)
            assert belief.offered[p.id] == len(p.offered)
            if p.id != player:
                assert not belief.known[p.id] - Counter(p.hand), "a card believed in a hand is not there"
        assert (belief.discard, belief.deck) == (len(state.discard), len(state.deck))
        assert not belief.discard_known - Counter(state.discard)
        checked += 1
    assert checked > 100


def test_the_belief_reads_no_private_event_of_others():
    """Handed every event of the game, the belief is what the public ones and the player's own make."""
    for _state, events, player in positions(4, 7):
        everything, visible = Belief.from_events(events, ED), Belief.from_events(visible_to(events, player), ED)
        assert vars(everything) == vars(visible)


def normal_choice(player: str, view):
    return ComputerPlayer(seed=1).decide(view)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_sampled_world_is_a_legal_game_that_looks_the_same_to_the_player(players):
    """Every sampled world is a consistent game (all 80 cards once, tiles conserved…) in which the
    player sees exactly its own view: same hand, money, offers, options and public table."""
    rnd = random.Random(players)
    sampled = Counter()
    for state, events, player in positions(players, 60 + players):
        view = player_view(state, player)
        try:
            world = sample_world(view, Belief.from_events(visible_to(events, player), ED), rnd, normal_choice)
        except Unsampled:
            assert state.phase not in ("auction", "round_end_purchase"), "auctions and purchases can be sampled"
            continue
        assert problems(world) == []
        assert player_view(world, player) == view
        sampled[state.phase] += 1
    assert sampled["auction"] > 30 and sampled["round_end_purchase"] >= players


def test_sampled_hands_back_the_offers_already_made():
    """R10: whoever has offered k cards in the running auction holds k valid cards in every world."""
    rnd = random.Random(3)
    offers = 0
    for state, events, player in positions(4, 11, phases=("auction",)):
        view = player_view(state, player)
        belief = Belief.from_events(visible_to(events, player), ED)
        for _ in range(5):
            world = sample_world(view, belief, rnd)
            for seat, count in enumerate(world.auction.offers):
                if count and not world.auction.passed[seat]:
                    hand = world.players[seat].hand
                    valid = [c for c in hand if c == "joker" or view.noble == "maximilian" or c.startswith(
                        view.noble[:2])]
                    assert len(valid) >= count
                    offers += 1
    assert offers > 20


def test_hidden_information_changes_neither_the_worlds_nor_the_decision():
    """Scrambling the others' hands, money and the deck leaves the strong player's worlds and choices
    as they were: it builds them from its view and the events it may see, never from the game."""
    rnd = random.Random(8)
    checked = 0
    for state, events, player in positions(4, 21, phases=("auction", "privilege")):
        history = visible_to(events, player)
        view, other = player_view(state, player), player_view(scramble_hidden(state, player, rnd), player)
        belief = Belief.from_events(history, ED)
        try:
            worlds = [sample_world(view, belief, random.Random(1)) for _ in range(2)]
        except Unsampled:
            continue
        assert [sample_world(other, belief, random.Random(1)) for _ in range(2)] == worlds
        if checked % 6 == 0:
            bot = StrongPlayer(seed=2, think_seconds=INF, max_worlds=2)
            assert bot.decide(other, history) == bot.decide(view, history)
        checked += 1
    assert checked > 60


def test_the_same_seed_view_and_history_give_the_same_decision():
    decided = 0
    for state, events, player in positions(4, 5, phases=("auction",)):
        history, view = visible_to(events, player), player_view(state, player)
        first = StrongPlayer(seed=9, think_seconds=INF, max_worlds=3).decide(view, history)
        assert StrongPlayer(seed=9, think_seconds=INF, max_worlds=3).decide(view, history) == first
        decided += 1
        if decided == 12:
            break
    assert decided == 12


def test_a_decision_stops_when_its_time_is_up():
    """Time-bounded: on a clock that says a world took 0.4 s, a 1 s budget plays at most 3 worlds."""
    now = [0.0]

    def clock():
        now[0] += 0.1  # every look at the clock: 0.1 s later (4 candidates and a sample per world)
        return now[0]

    for state, events, player in positions(4, 13, phases=("auction",)):
        view = player_view(state, player)
        if len(view.you.legal_actions) >= 3:
            bot = StrongPlayer(seed=1, think_seconds=1.0, max_worlds=100, clock=clock)
            action = bot.decide(view, visible_to(events, player))
            assert is_legal(state, player, action)
            assert 1 <= bot.worlds <= 10
            return
    pytest.fail("no auction decision with three options")


def test_without_a_history_it_plays_as_the_normal_level():
    """A position with no past (a scenario, say) cannot be sampled: the normal player's choice stands."""
    for state, _, player in positions(3, 2, phases=("auction",)):
        view = player_view(state, player)
        assert StrongPlayer(seed=4, think_seconds=INF).decide(view, []) == ComputerPlayer(seed=4).decide(view)


@pytest.mark.parametrize("players", [2, 5])
def test_strong_players_finish_whole_games_with_legal_moves(players):
    ids = [f"p{i + 1}" for i in range(players)]
    state, events = new_game(ids, seed=players)
    bots = {pid: StrongPlayer(seed=i, think_seconds=INF, max_worlds=1) for i, pid in enumerate(ids)}
    while state.phase != "game_over":
        player = to_act(state)[0]
        action = bots[player].decide(player_view(state, player), visible_to(events, player))
        assert is_legal(state, player, action)
        result = apply(state, player, action)
        state, events = result.state, events + result.events
    assert state.winners


def test_the_normal_players_in_a_world_decide_from_a_quick_view_as_from_the_real_one():
    decided = Counter()
    for state, _, player in positions(4, 31, phases=("auction", "showdown", "privilege", "round_end_purchase",
                                                      "initial_purchase", "shortage")):
        bot = ComputerPlayer(seed=5)
        assert bot.decide(quick_view(state, player)) == bot.decide(player_view(state, player))
        decided[state.phase] += 1
    assert {"auction", "showdown", "privilege", "round_end_purchase"} <= set(decided)


def test_in_the_last_two_rounds_playouts_go_on_to_the_games_end():
    """Early on a playout stops with the round (its points lead is what is scored); near the end only
    the winner counts, so it is played out to the game's end."""
    from types import SimpleNamespace

    from engine.ai.strong import rounds_ahead

    def ahead(round_):
        return rounds_ahead(SimpleNamespace(rounds=6, round=round_), 0)

    assert [ahead(r) for r in range(1, 7)] == [0, 0, 0, 0, 1, 0]  # round 5 plays round 6 too; 6 is the last
