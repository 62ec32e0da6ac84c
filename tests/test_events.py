"""Events are data, split into public ones and private ones for one player (issue 2, item 6; R28)."""

from __future__ import annotations

import random

from engine import apply, legal_actions, new_game, to_act
from engine.components import ALL_CARDS
from engine.randomplay import concrete

DEBT_CARDS = set(ALL_CARDS)
# Public events that may name debt cards: revealed offers and cards discarded face up.
CARDS_SHOWN_OPENLY = {"reveal", "card_discarded"}


def walk(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)
    else:
        yield value


def test_public_events_never_name_a_hidden_card_and_private_ones_reach_only_their_owner():
    seen_types = set()
    for seed in range(30):
        rnd = random.Random(seed)
        ids = ["ada", "ben", "cleo", "dan", "eve"][: 2 + seed % 4]
        state, events = new_game(ids, seed=seed)
        while True:
            for event in events:
                seen_types.add((event.type, event.to is None))
                assert isinstance(event.data, dict) and isinstance(event.type, str)
                if event.to is None and event.type not in CARDS_SHOWN_OPENLY:
                    named = DEBT_CARDS.intersection(x for x in walk(event.data) if isinstance(x, str))
                    assert not named, f"public {event.type} names {named}"
            if state.phase == "game_over":
                break
            player = rnd.choice(to_act(state))
            result = apply(state, player, concrete(rnd.choice(legal_actions(state, player)), rnd))
            for event in result.events:
                if event.to is not None and event.type in ("choice_recorded", "card_returned_private"):
                    assert event.to == player, "a secret choice is confirmed to the chooser only"
            state, events = result.state, result.events
    for kind in ("bid", "reveal", "auction_won", "privilege_used", "round_income", "purchase_made", "game_over"):
        assert (kind, True) in seen_types, f"no public {kind} event was ever emitted"
    for kind in ("offered_cards", "choice_recorded", "hand_cards"):
        assert (kind, False) in seen_types, f"no private {kind} event was ever emitted"


def test_a_draw_two_shows_the_cards_to_the_drawer_only():
    from engine.position import build

    state, _ = build({"players": ["ada", "ben"], "start": "auction", "lead": "ada",
                      "player_state": {"ada": {"hand": ["philipp-3"]}}, "deck": ["leo-9", "joker"],
                      "privilege_display": ["8"]})
    state = apply(state, "ada", {"do": "bid", "count": 1}).state
    state = apply(state, "ben", {"do": "pass"}).state
    state = apply(state, "ada", {"do": "reveal", "cards": ["philipp-3"]}).state
    state = apply(state, "ada", {"do": "take_card", "card": "8"}).state
    result = apply(state, "ada", {"do": "use", "slot": 2})
    private = [e for e in result.events if e.to == "ada" and e.type == "hand_cards"]
    public = [e for e in result.events if e.to is None and e.type == "cards_drawn"]
    assert private[0].data["cards"] == ["leo-9", "joker"]
    assert public[0].data == {"player": "ada", "count": 2, "reason": "privilege"}
