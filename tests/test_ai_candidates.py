"""The moves the strong level weighs at a decision it searches (engine/ai/candidates.py)."""

from __future__ import annotations

from test_strong import positions

from engine import player_view
from engine.actions import Bid, Buy, Call, Pass
from engine.ai.candidates import EXTRA_BIDS, candidates
from engine.ai.player import ComputerPlayer


def test_an_auction_weighs_passing_calling_the_lowest_raises_and_the_highest():
    """The highest raise (every valid card) is weighed too: a bid the others may be unable to follow."""
    wide = narrow = 0
    for state, _events, player in (*positions(4, 21, phases=("auction",)), *positions(5, 22, phases=("auction",))):
        view = player_view(state, player)
        usual = ComputerPlayer(seed=1).decide(view)
        picked = candidates(view, usual)
        legal = view.you.legal_actions
        bids = [a for a in legal if isinstance(a, Bid)]
        assert len(picked) == len(set(map(repr, picked))), "no candidate is played out twice"
        assert usual in picked and all(a in picked for a in legal if isinstance(a, (Pass, Call)))
        assert all(b in picked for b in bids[:EXTRA_BIDS])
        if len(bids) > EXTRA_BIDS + 1:
            wide += 1
            assert bids[-1] in picked
            assert not [b for b in bids[EXTRA_BIDS:-1] if b in picked and b != usual], "only these raises"
        else:
            narrow += 1
            assert all(b in picked for b in bids)
    assert wide > 10 and narrow > 10


def test_the_first_purchase_is_the_normal_players_and_round_end_purchases_are_searched():
    """The game's first purchase is left to the normal player (searched to the end of round 1 only, one card
    fewer looked better than it was); a round-end purchase with something affordable weighs several."""
    first = later = 0
    for state, _events, player in positions(4, 23, phases=("initial_purchase", "round_end_purchase")):
        view = player_view(state, player)
        usual = ComputerPlayer(seed=1).decide(view)
        picked = candidates(view, usual)
        if state.phase == "initial_purchase":
            first += 1
            assert picked == [usual]
        elif usual.cards:
            later += 1
            assert usual in picked and Buy(cards=[]) in picked and len(picked) > 2
    assert first and later > 3
