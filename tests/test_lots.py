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


def test_a_bought_card_is_dealt_as_the_best_of_several_of_its_price(monkeypatch):
    """A buyer keeps the cards worth most to them: of a 400 offered as a joker or as a 15-17, the normal level
    buys the certificate. A lot of one 400 is dealt from the best of PICK such cards, not the first."""
    from engine.ai import worlds
    from engine.ai.worlds import _priced

    lots = Lots(ED)
    lots.bought(1, 400)
    pool = [c for c in ED.all_cards if CARD_PRICE[c] == 400]  # 12 jokers and the 15s, 16s and 17s
    assert Counter(c == JOKER for c in pool) == {True: 12, False: 12}

    def jokers_dealt(pick: int) -> int:
        monkeypatch.setattr(worlds, "PICK", pick)
        rnd, dealt = random.Random(9), 0
        for _ in range(400):
            unknown = list(pool)
            rnd.shuffle(unknown)
            hand: list[str] = []
            _priced(hand, unknown, lots, 1, 0, rnd)
            assert len(hand) == 1 and len(unknown) == len(pool) - 1
            dealt += hand[0] == JOKER
        return dealt

    pick = worlds.PICK
    assert 160 <= jokers_dealt(1) <= 240  # the first one of that price: a joker half the time
    assert jokers_dealt(pick) <= 80  # a joker only when all PICK were jokers (1 in 8 for 3)


def test_worlds_deal_the_others_about_as_many_jokers_and_as_high_a_best_card_as_the_real_hands(monkeypatch):
    """In the normal level's games, the others' cards valid for the running noble: the sampled worlds come
    closer to the real hands on average with PICK than with each bought card the first of its price."""
    from engine.ai import worlds

    def gaps(pick: int) -> tuple[float, float]:
        monkeypatch.setattr(worlds, "PICK", pick)
        rnd = random.Random(4)
        jokers = best = 0.0
        for state, events, player in positions(4, 90, phases=("auction",)):
            belief = Belief.from_events(visible_to(events, player), ED)
            world = sample_world(player_view(state, player), belief, rnd, normal_choice)
            noble = ED.nobles[state.noble]
            for real, dealt in zip(state.players, world.players, strict=True):
                if real.id != player:
                    jokers += dealt.hand.count(JOKER) - real.hand.count(JOKER)
                    best += _best(dealt.hand, noble) - _best(real.hand, noble)
        return jokers, best

    pick = worlds.PICK
    first_jokers, first_best = gaps(1)
    picked_jokers, picked_best = gaps(pick)
    assert first_jokers > 0 and first_best < 0, "dealt blindly, bought cards are too often jokers, too low"
    assert abs(picked_jokers) < abs(first_jokers) and abs(picked_best) < abs(first_best)


def _best(hand: list[str], noble: str) -> int:
    return max((ED.card_value[c] for c in hand if c != JOKER and ED.is_valid_for(c, noble)), default=0)
