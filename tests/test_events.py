"""Events are typed data, split into public ones and private ones for one player (issue 2, item 6; R28)."""

from __future__ import annotations

import json
import random
import typing

from conftest import ROOT

from engine import apply, legal_actions, new_game, player_view, to_act
from engine.actions import Buy
from engine.editions import default
from engine.events import EVENTS, CardsDrawn, Event, HandCards, PrivilegeUsed
from engine.position import build
from engine.randomplay import concrete
from engine.undo import History

ALL_CARDS = default().all_cards  # the shipped edition's

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
                assert isinstance(event.type, str) and event.public == (event.to is None)
                if event.to is None and event.type not in CARDS_SHOWN_OPENLY:
                    named = DEBT_CARDS.intersection(x for x in walk(event.model_dump()) if isinstance(x, str))
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
    state, _ = build({"players": ["ada", "ben"], "start": "auction", "lead": "ada",
                      "player_state": {"ada": {"hand": ["philipp-3"]}}, "deck": ["leo-9", "joker"],
                      "privilege_display": ["8"]})
    state = apply(state, "ada", {"do": "bid", "count": 1}).state
    state = apply(state, "ben", {"do": "pass"}).state
    state = apply(state, "ada", {"do": "reveal", "cards": ["philipp-3"]}).state
    state = apply(state, "ada", {"do": "take_card", "card": "8"}).state
    result = apply(state, "ada", {"do": "use", "slot": 2})
    private = [e for e in result.events if isinstance(e, HandCards)]
    public = [e for e in result.events if isinstance(e, CardsDrawn)]
    assert private[0].to == "ada" and private[0].cards == ["leo-9", "joker"]
    assert public[0] == CardsDrawn(player="ada", count=2, reason="privilege", price=300) and public[0].public
    assert player_view(state, "ben").deck_top_price == 300, "the first card's back: everybody saw it on the deck"


EVENT_CLASSES = typing.get_args(typing.get_args(Event)[0])


def scenario_events() -> list:
    """Every event of the project's scenarios (they reach the rare ones: stolen steps, the deck shortage)."""
    found = []
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.json")):
        data = json.loads(path.read_text())
        state, events = build(data["setup"])
        found.extend(events)
        for step in data.get("steps", []):
            if "check" in step:
                continue
            result = apply(state, step.get("player"), {k: v for k, v in step.items() if k not in ("player", "expect")})
            if result.ok:
                state = result.state
                found.extend(result.events)
    history = History(["ada", "ben"], seed=1)  # a decision taken back (engine/undo.py)
    found.extend(history.deal)
    found.extend(history.play("ada", Buy(cards=[])).events)
    found.extend(history.take_back("ada").events)
    return found


def test_event_lists_round_trip_through_json_losslessly():
    rare = scenario_events()
    assert EVENTS.validate_json(EVENTS.dump_json(rare)) == rare
    seen = {type(e) for e in rare}
    for seed in range(24):
        rnd = random.Random(seed)
        state, events = new_game(["ada", "ben", "cleo", "dan", "eve"][: 2 + seed % 4], seed=seed)
        log = list(events)
        while state.phase != "game_over":
            player = rnd.choice(to_act(state))
            result = apply(state, player, concrete(rnd.choice(legal_actions(state, player)), rnd))
            state = result.state
            log.extend(result.events)
        data = EVENTS.dump_json(log)
        again = EVENTS.validate_json(data)
        assert again == log and [type(e) for e in again] == [type(e) for e in log]
        assert EVENTS.dump_json(again) == data
        # Every event the engine builds passes its own model's validation.
        assert EVENTS.validate_python(EVENTS.dump_python(log, mode="json")) == log
        seen.update(type(e) for e in log)
    assert seen == set(EVENT_CLASSES), sorted(c.__name__ for c in set(EVENT_CLASSES) - seen)


def test_event_types_are_unique_and_as_is_stored_under_its_json_name():
    types = [c.model_fields["type"].default for c in EVENT_CLASSES]
    assert len(types) == len(set(types)) == 36
    used = PrivilegeUsed(player="ada", card="4", slot=0, kind="trade", as_="step")
    assert b'"as":"step"' in EVENTS.dump_json([used])
    assert EVENTS.validate_json(EVENTS.dump_json([used])) == [used]
