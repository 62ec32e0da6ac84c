"""What purchases tell about the others' hands (engine/ai/lots.py), and the strong level's worlds using it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_strong import normal_choice, positions

from engine import player_view
from engine.ai.belief import Belief
from engine.ai.levels import visible_to
from engine.ai.lots import Lots, splits
from engine.ai.worlds import Unsampled, sample_world
from engine.components import JOKER
from engine.editions import default

ED = default()  # the shipped edition

CARD_PRICE = ED.card_price


def test_a_purchase_total_leaves_only_the_price_sets_that_make_it():
    assert splits(ED.prices, 3, 1150) == ((350, 400, 400),)
    assert set(splits(ED.prices, 2, 600)) == {(200, 400), (250, 350), (300, 300)}
    assert splits(ED.prices, 2, 350) == ()  # no two cards cost 350 together
    assert splits(ED.prices, 0, 0) == ((),)


def test_a_card_seen_leaving_the_unknown_part_comes_out_of_a_lot_that_still_adds_up():
    lots = Lots(ED)
    lots.bought(2, 800)  # two 400s
    lots.bought(2, 450)  # 200 + 250
    lots.free = 1
    lots.seen("philipp-2")  # 200: only the second lot can have held it
    assert lots.lots == [(2, 800), (1, 250)]
    lots.seen("joker")  # 400: the first lot
    assert lots.lots == [(1, 400), (1, 250)]
    lots.seen("maria-9")  # 300: no lot holds one, so it was the unpriced card
    assert (lots.lots, lots.free) == ([(1, 400), (1, 250)], 0)
    assert lots.size == 2


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_priced_and_unpriced_cards_are_the_hand_less_its_known_cards(players):
    """Every card of every hand is accounted for once: known, in a purchase still held, or unpriced."""
    checked = 0
    for state, events, player in positions(players, 70 + players, phases=("auction", "privilege", "showdown",
                                                                          "round_end_purchase", "shortage")):
        belief = Belief.from_events(visible_to(events, player), ED)
        for p in state.players:
            assert belief.lots[p.id].size + sum(belief.known[p.id].values()) == len(p.hand)
        checked += 1
    assert checked > 100


def test_after_the_first_purchase_every_world_gives_each_other_player_cards_worth_what_they_paid():
    """Two starting jokers plus cards whose prices add up to the public total, in every sampled world."""
    rnd = random.Random(5)
    for state, events, player in positions(4, 9, phases=("auction",)):
        if any(state.auction.offers):
            continue  # the first move of the game's first auction: nothing but the purchases is known
        view = player_view(state, player)
        paid = {e.player: e.paid for e in events if type(e).__name__ == "PurchaseMade"}
        for _ in range(20):
            world = sample_world(view, Belief.from_events(visible_to(events, player), ED), rnd)
            for p in world.players:
                if p.id != player:
                    bought = Counter(p.hand) - Counter({JOKER: 2})
                    assert sum(CARD_PRICE[c] for c in bought.elements()) == paid[p.id]
        return
    pytest.fail("no first auction")


def test_worlds_dealt_with_the_purchase_totals_come_closer_to_the_real_hands():
    """Counted in price bands, a hand dealt by the purchase totals is further from the real one by at
    least a fifth less than a hand dealt blindly from the unseen cards."""
    mismatch = {True: 0, False: 0}
    for use in (True, False):
        rnd = random.Random(11)
        for seed in (1, 2, 3):
            for state, events, player in positions(4, 100 + seed, phases=("auction", "round_end_purchase")):
                belief = Belief.from_events(visible_to(events, player), ED)
                if not use:
                    for lots in belief.lots.values():
                        lots.forget(lots.size)
                try:
                    world = sample_world(player_view(state, player), belief, rnd, normal_choice)
                except Unsampled:
                    continue
                for dealt, real in zip(world.players, state.players, strict=True):
                    a, b = Counter(CARD_PRICE[c] for c in dealt.hand), Counter(CARD_PRICE[c] for c in real.hand)
                    mismatch[use] += sum(((a - b) + (b - a)).values())
    assert mismatch[True] < 0.8 * mismatch[False]
