"""The computer players' shortcuts (issue 31): what they remember or look up gives what the long way gives.

The strong level searches by playing the normal level on and on, so its speed is that of small things done
millions of times; these tests keep each shortcut equal to the computation it replaces.
"""

from __future__ import annotations

import random
from collections import Counter
from math import comb

from test_strong import positions

from engine import player_view
from engine.ai import plan
from engine.ai.atoms import atom
from engine.ai.belief import Belief
from engine.ai.levels import visible_to
from engine.ai.likely import agreement, auction_so_far, opener_of
from engine.ai.lots import Lots, splits
from engine.ai.player import ComputerPlayer, _jitter
from engine.ai.situation import Board, Me, board_from_view, horizon, me_from_view
from engine.ai.strong import _decide
from engine.ai.worlds import _lacking_last, sample_world
from engine.components import JOKER
from engine.editions import default
from engine.rules import valid_cards

ED = default()


def test_a_position_copies_and_keys_every_field():
    me = Me(ED, *range(1, len(Me.__slots__)))  # a different value in every field
    assert me.key() == (atom(ED), *(getattr(me, name) for name in Me.__slots__[1:]))  # (the edition by its atom)
    assert me.copy().key() == me.key()


def test_remembered_plans_and_cards_are_what_planning_afresh_gives():
    checked = 0
    for state, _, player in positions(4, 61, phases=("auction", "privilege")):
        view = player_view(state, player)
        me, board, hz = me_from_view(view), board_from_view(view), horizon(view)
        for card in view.privilege_display:
            fresh = [tuple(p) for p in plan._plans(card, [], False, me, board)]
            assert list(plan.candidate_plans(card, [], False, me, board)) == fresh
            fresh_value, fresh_steps = plan._best_plan(card, [], False, me, board, hz, plan.WEIGHTS)
            assert plan.best_plan(card, [], False, me, board, hz) == (fresh_value, list(fresh_steps))
        if view.privilege_display:
            assert plan.best_card(view.privilege_display, me, board, hz) == plan._best_card(
                view.privilege_display, me, board, hz, plan.WEIGHTS)
            checked += 1
    assert checked > 50


def test_boards_that_plan_alike_share_a_key_and_others_do_not():
    """A plan reads the supply, the levels the others hold and the tiles on top; not the scores, nor who
    holds a level."""
    supply = {"trade": (2, 3), "nobility": (2, 3, 4), "offices": (3,)}
    tops = {"church": 5, "cathedral": 9, "coat": 2, "letter": None, "minter": True, "master_builder": True}
    low, high = {"trade": 1, "nobility": 2, "offices": 1}, {"trade": 3, "nobility": 1, "offices": 2}

    def key(others, scores=None, supply=supply, tops=tops):
        return Board(ED, supply, others, scores or dict.fromkeys(others, 0), tops).key

    base = key({"p2": low, "p3": high})
    assert key({"p2": low, "p3": high}, {"p2": 30, "p3": 4}) == base
    assert key({"p4": low, "p3": high}) == base
    assert key({"p2": low, "p3": dict(high, trade=4)}) != base
    assert key({"p2": low, "p3": high}, supply=dict(supply, offices=())) != base
    assert key({"p2": low, "p3": high}, tops=dict(tops, coat=None)) != base


def test_the_remembered_jitter_is_the_players_own_draw():
    bot = ComputerPlayer(seed=3)
    for state, _, player in positions(4, 63, phases=("auction",)):
        view = player_view(state, player)
        assert _jitter(bot._draw(view)) == bot._rng(view).uniform(-0.05, 0.05)


def test_the_valid_cards_table_is_the_rule():
    for noble in ED.nobles:
        assert valid_cards(ED.all_cards, noble, ED) == [c for c in ED.all_cards if ED.is_valid_for(c, noble)]


def test_a_pass_pushes_back_the_cards_it_says_a_hand_lacks_as_the_rule_reads():
    rnd = random.Random(4)
    for _ in range(200):
        unknown = rnd.sample(ED.all_cards, 30)
        hand = rnd.sample(ED.all_cards, 5)
        short = {n: rnd.randint(0, 2) for n in rnd.sample(ED.nobles, 2)}
        seed = rnd.random()
        got, expected = list(unknown), list(unknown)
        moved = _lacking_last(got, hand, short, ED, random.Random(seed))
        # The long way: every certificate valid for a noble whose count the hand reaches, each with chance SHORT.
        full = [n for n, cap in short.items() if sum(c != JOKER and ED.is_valid_for(c, n) for c in hand) >= cap]
        draw = random.Random(seed)
        back = {i for i, c in enumerate(unknown) if full and c != JOKER and any(ED.is_valid_for(c, n) for n in full)
                and draw.random() < 0.8}
        expected = [c for i, c in enumerate(unknown) if i not in back] + [unknown[i] for i in sorted(back)]
        assert (got, moved) == (expected, bool(back))


def test_lot_prices_are_drawn_as_with_counters():
    rnd = random.Random(5)
    for _ in range(200):
        lots = Lots(ED, [(n, sum(rnd.choices(ED.prices, k=n))) for n in (rnd.randint(1, 3) for _ in range(3))])
        pool = Counter(rnd.choices(ED.prices, k=20))
        seed = rnd.random()
        # The long way: Counter arithmetic, as before the split tallies were remembered.
        left, wanted, draw = Counter(pool), [], random.Random(seed)
        for count, total in lots.lots:
            options = splits(ED.prices, count, total)
            weights = [_ways_long(split, left) for split in options]
            if options and any(weights):
                split = draw.choices(options, weights)[0]
                left -= Counter(split)
                wanted += split
        assert lots.prices(pool, random.Random(seed)) == wanted


def _ways_long(split, left):
    ways = 1
    for price, n in Counter(split).items():
        ways *= comb(left[price], n)
    return ways


def test_agreement_stops_early_only_below_what_it_must_beat():
    """Cut short, it returns no more than `beat`; otherwise it is the full count."""
    rnd = random.Random(6)
    checked = 0
    for state, events, player in positions(4, 64, phases=("auction",)):
        history = visible_to(events, player)
        so_far, opener = auction_so_far(history), opener_of(history)
        if not any(p != player for p, _ in so_far):
            continue
        view = player_view(state, player)
        world = sample_world(view, Belief.from_events(history, ED), rnd)
        full = agreement(world, player, opener, so_far, _decide)
        for beat in range(-2, len(so_far) + 1):
            cut = agreement(world, player, opener, so_far, _decide, beat)
            assert cut == full if full > beat else cut <= beat
        checked += 1
    assert checked > 10
