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
from engine.ai import strong
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


def test_earlier_bids_say_which_cards_a_hand_still_holds():
    """R10: a bid of k was backed by k valid cards, one a certificate, and cards leave a hand only openly
    (or by a shortage's return), so the belief's lower bounds always hold of the real hands, and the
    sampled worlds deal hands that meet them (a hand too full for all of them aside)."""
    rnd = random.Random(1)
    bounds = met = sampled = other_nobles = 0
    for players in (3, 4, 5):
        for state, events, player in positions(players, 50 + players):
            belief = Belief.from_events(visible_to(events, player), ED)
            view = player_view(state, player)
            try:
                world = sample_world(view, belief, rnd, normal_choice)
            except Unsampled:
                world = None
            for seat, p in enumerate(state.players):
                for noble, (valid, certs) in belief.backing[p.id].items() if p.id != player else ():
                    assert holds(p.hand, noble, valid, certs), f"{p.id} holds fewer than its bids showed"
                    bounds += 1
                    other_nobles += view.noble != noble
                    if world is not None:
                        sampled += 1
                        met += holds(world.players[seat].hand, noble, valid, certs)
    assert other_nobles > 1000, "earlier auctions' bids are remembered, not only the running one's"
    assert sampled > bounds / 2 and met >= 0.97 * sampled


def holds(hand: list[str], noble: str, valid: int, certs: int) -> bool:
    backing = [c for c in hand if ED.is_valid_for(c, noble)]
    return len(backing) >= valid and sum(1 for c in backing if c != "joker") >= certs


def test_a_pass_says_which_certificates_a_hand_likely_lacks():
    """R10/R11: whoever passes while the high bid is h could have called or raised with more valid cards, so
    they likely hold no more than h certificates of that noble (none, when nobody had bid: a bid needs one);
    every card they get afterwards may be one more."""
    from engine.events import AuctionStarted, BidMade, CardsDrawn, GameStarted, Passed

    start = [GameStarted(players=["ada", "ben", "cy"], start_player="ada", rounds=4)]
    philipp = [AuctionStarted(noble="philipp", opener="ada"), Passed(player="ada"), BidMade(player="ben", count=2),
               Passed(player="cy")]
    belief = Belief.from_events(start + philipp, ED)
    assert belief.short == {"ada": {"philipp": 0}, "ben": {}, "cy": {"philipp": 2}}
    later = philipp + [AuctionStarted(noble="louise", opener="ben"), Passed(player="ben"),
                       CardsDrawn(player="ada", count=2, reason="privilege", price=200)]
    belief = Belief.from_events(start + later, ED)
    assert belief.short == {"ada": {"philipp": 2}, "ben": {"louise": 0}, "cy": {"philipp": 2}}


def bounds_kept(monkeypatch, chance: str, value: float, bounds, holds) -> tuple[int, int, int]:
    """Over the normal level's auctions, with `worlds.<chance>` set to `value`: how many bounds the belief
    sets on the others' hands (`bounds(belief, player)`: (noble, bound) pairs), how many of them the real
    hands keep and how many a sampled world's do (`holds(hand, noble, bound)`)."""
    from engine.ai import worlds

    monkeypatch.setattr(worlds, chance, value)
    rnd = random.Random(3)
    counted = real = dealt = 0
    for state, events, player in positions(4, 64, phases=("auction",)):
        belief = Belief.from_events(visible_to(events, player), ED)
        world = sample_world(player_view(state, player), belief, rnd, normal_choice)
        for seat, p in enumerate(state.players):
            for noble, bound in bounds(belief, p.id) if p.id != player else ():
                counted += 1
                real += holds(p.hand, noble, bound)
                dealt += holds(world.players[seat].hand, noble, bound)
    return counted, real, dealt


def test_worlds_deal_few_certificates_a_pass_says_a_hand_lacks(monkeypatch):
    """The normal player passes at a high bid of 0 only without a certificate of the noble, so in its games
    such a bound holds of the real hands; the sampled worlds keep to it far more often than a blind deal."""
    from engine.ai import worlds

    def lacking(hand, noble):
        return sum(1 for c in hand if c != "joker" and ED.is_valid_for(c, noble))

    def met(short: float) -> tuple[int, int, int]:
        return bounds_kept(monkeypatch, "SHORT", short,
                           lambda belief, p: [(n, None) for n, cap in belief.short[p].items() if cap == 0],
                           lambda hand, noble, _: lacking(hand, noble) == 0)

    bounds, real, dealt = met(worlds.SHORT)
    _, _, blind = met(0.0)
    assert bounds > 30 and real >= 0.9 * bounds
    assert dealt >= 0.9 * bounds and blind <= 0.8 * bounds


def test_a_drawn_card_keeps_the_price_its_back_showed_on_the_deck():
    """R28: the top card's price is public, so the first of the cards a draw privilege takes has a known
    price until a card of that price is seen to leave the hand."""
    from engine.events import CardDiscarded, CardsDrawn, GameStarted

    start = [GameStarted(players=["ada", "ben"], start_player="ada", rounds=4)]
    drawn = start + [CardsDrawn(player="ben", count=2, reason="privilege", price=400)]
    belief = Belief.from_events(drawn, ED)
    assert (belief.lots["ben"].lots, belief.lots["ben"].free) == ([(1, 400)], 1)
    assert belief.lots["ben"].prices(Counter({200: 5, 400: 5}), random.Random(1)) == [400]
    other = Belief.from_events(drawn + [CardDiscarded(player="ben", card="maria-2")], ED)  # the other card went
    assert (other.lots["ben"].lots, other.lots["ben"].free) == ([(1, 400)], 0)
    gone = Belief.from_events(drawn + [CardDiscarded(player="ben", card="maria-16")], ED)  # a 400: perhaps that one
    assert (gone.lots["ben"].lots, gone.lots["ben"].free) == ([], 1)
    older = Belief.from_events(start + [CardsDrawn(player="ben", count=2, reason="privilege")], ED)
    assert (older.lots["ben"].lots, older.lots["ben"].free) == ([], 2), "a draw recorded without the price"


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


class SlowMachine:
    """A clock, and the normal players of the playouts made `per_move` seconds slower per move on it: a
    machine busy with other work, without waiting for anything."""

    def __init__(self, monkeypatch, per_move: float):
        self.now, self.per_move = 0.0, per_move
        real = strong._player

        class Slow:
            def __init__(slow, pid):
                slow.bot = real(pid)

            def decide(slow, view):
                self.now += self.per_move
                return slow.bot.decide(view)

        monkeypatch.setattr(strong, "_player", Slow)

    def clock(self) -> float:
        return self.now


def searched_positions(count: int):
    """Auction decisions with at least three options, with the history their player knows."""
    found = []
    for state, events, player in positions(4, 13, phases=("auction",)):
        view = player_view(state, player)
        if len(view.you.legal_actions) >= 3:
            found.append((state, view, visible_to(events, player)))
            if len(found) == count:
                return found
    pytest.fail("too few auction decisions with three options")


def test_the_work_not_the_clock_bounds_a_decision(monkeypatch):
    """The same seed, view and history give the same decision, worlds and moves on an idle machine and on
    one where every playout move takes 2 ms (a decision of 800 moves: 1.6 s, under the 3 s cap)."""
    for state, view, history in searched_positions(4):
        idle = StrongPlayer(seed=5, work=800, think_seconds=INF)
        chosen = idle.decide(view, history)
        assert is_legal(state, view.you.id, chosen)
        assert not idle.cut and idle.worlds >= 2
        assert idle.moves >= 800 or idle.worlds == idle.max_worlds or idle.settled
        with monkeypatch.context() as patch:
            slow = SlowMachine(patch, per_move=0.002)
            busy = StrongPlayer(seed=5, work=800, think_seconds=3.0, clock=slow.clock)
            assert busy.decide(view, history) == chosen
        assert (busy.worlds, busy.moves, busy.cut) == (idle.worlds, idle.moves, False)


def test_a_lead_within_the_noise_does_not_overrule_the_normal_choice():
    """The normal player's choice is replaced only by a candidate ahead of it on the same worlds by OVERRULE
    standard errors: a best total that luck could give keeps the normal choice, and one world never decides."""
    from engine.ai.strong import OVERRULE, _ahead

    usual = [0.0, 0.0, 0.0, 0.0]
    assert not _ahead([3.0, -2.0, 2.0, 1.0], usual, OVERRULE)  # ahead by 1.0, give or take 1.1
    assert _ahead([3.0, 1.0, 2.0, 2.0], usual, OVERRULE)  # ahead on every world
    assert not _ahead([50.0], [0.0], OVERRULE)


def test_a_candidate_clearly_behind_on_the_same_worlds_leaves_the_race():
    """The work goes to the candidates still in question: one behind on every world is dropped once
    there are enough worlds to tell; one whose gap is within the noise stays."""
    from engine.ai.strong import RACE_AFTER, _race

    close = [1.0, -1.0] * RACE_AFTER
    values = [[10.0 + i % 3 for i in range(RACE_AFTER)], [0.0 + i % 3 for i in range(RACE_AFTER)],
              [10.0 + c for c in close[:RACE_AFTER]]]
    assert _race(values, [0, 1, 2], usual=1) == [0, 2]
    assert _race([v[:RACE_AFTER - 1] for v in values], [0, 1, 2], usual=1) == [0, 1, 2]  # too few worlds yet


def test_the_time_cap_stops_a_decision_on_a_machine_far_too_slow(monkeypatch):
    """A safety cap only: at 50 ms a move a 3 s cap stops the search after a few worlds, with a legal move."""
    state, view, history = searched_positions(1)[0]
    slow = SlowMachine(monkeypatch, per_move=0.05)
    bot = StrongPlayer(seed=5, work=800, think_seconds=3.0, clock=slow.clock)
    assert is_legal(state, view.you.id, bot.decide(view, history))
    assert bot.cut and 1 <= bot.worlds and bot.moves < 800


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
