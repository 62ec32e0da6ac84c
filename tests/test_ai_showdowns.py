"""What a showdown tells the strong level about the hands that took part (engine/ai/belief.py, worlds.py).

R13: only the best card of an offer counts, so a player in a showdown lays down their best valid
certificate (the normal level always does): none of them holds a better one, more only by the cards
they get afterwards.
"""

from __future__ import annotations

import random

from test_strong import ED, bounds_kept

from engine.ai import worlds
from engine.ai.belief import Belief
from engine.ai.worlds import _better, _lacking_last
from engine.components import JOKER
from engine.events import AuctionStarted, AuctionWon, BidMade, Called, CardsDrawn, CardsRevealed, GameStarted

START = [GameStarted(players=["ada", "ben", "cy"], start_player="ada", rounds=4)]


def test_a_showdown_caps_the_certificates_better_than_the_best_card_laid_down():
    rank = ED.card_rank
    showdown = [AuctionStarted(noble="leo", opener="ada"), BidMade(player="ada", count=2),
                Called(player="ben", count=2),
                CardsRevealed(noble="leo", offers={"ada": ["leo-12", JOKER], "ben": ["leo-3", "leo-9"]}, winner="ada"),
                AuctionWon(noble="leo", player="ada", count=2, alone=False)]
    belief = Belief.from_events(START + showdown, ED)
    assert belief.above == {"ada": {"leo": (rank("leo-12"), 0)}, "ben": {"leo": (rank("leo-9"), 0)}, "cy": {}}
    belief = Belief.from_events(START + showdown + [CardsDrawn(player="ben", count=2, reason="privilege")], ED)
    assert belief.above["ben"] == {"leo": (rank("leo-9"), 2)}, "each card got since may be a better one"
    alone = [AuctionStarted(noble="leo", opener="ada"), BidMade(player="ada", count=1),
             CardsRevealed(noble="leo", offers={"ada": ["leo-2"]}, winner="ada")]
    assert Belief.from_events(START + alone, ED).above["ada"] == {}, "a lone winner lays down its cheapest cards"


def test_the_better_certificates_of_a_full_hand_are_dealt_last(monkeypatch):
    monkeypatch.setattr(worlds, "SHOWN", 1.0)
    better = _better(ED, "leo", ED.card_rank("leo-9"))
    assert better == {f"leo-{v}" for v in range(10, 18)}
    above_maria_16 = _better(ED, "maximilian", ED.card_rank("maria-16"))  # any certificate counts for Maximilian
    assert {"maria-17", "leo-17", "philipp-17"} <= above_maria_16 and not {"maria-16", "leo-16"} & above_maria_16
    unknown = ["leo-12", "maria-3", JOKER, "leo-4", "leo-17"]
    got = list(unknown)
    assert _lacking_last(got, ["leo-2"], {}, ED, random.Random(1), {"leo": (ED.card_rank("leo-9"), 0)})
    assert got == ["maria-3", JOKER, "leo-4", "leo-12", "leo-17"]
    got = list(unknown)
    assert not _lacking_last(got, ["leo-2"], {}, ED, random.Random(1), {"leo": (ED.card_rank("leo-9"), 1)})
    assert got == unknown, "room for one better card (one got since): nothing is pushed back"


def test_worlds_deal_showdown_players_no_better_card_far_more_often_than_a_blind_deal(monkeypatch):
    """In the normal level's games the bound always holds of the real hands; the worlds keep to it."""

    def met(shown: float) -> tuple[int, int, int]:
        return bounds_kept(monkeypatch, "SHOWN", shown,
                           lambda belief, p: [(n, _better(ED, n, rank))
                                              for n, (rank, cap) in belief.above[p].items() if cap == 0],
                           lambda hand, noble, better: not any(c in better for c in hand))

    bounds, real, dealt = met(worlds.SHOWN)
    _, _, blind = met(0.0)
    assert bounds > 100 and real == bounds
    assert dealt >= 0.97 * bounds and bounds - blind >= 3 * (bounds - dealt)
