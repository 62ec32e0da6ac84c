"""What a game state costs the garbage collector (issue 44): every move makes a new state and every panel on a
game not kept parsed parses one, and the young collections walk all of them still alive. So a state carries
no set per model (pydantic's "fields set": one shared per class, naming every field), what the engine only
ever replaces is tuples, and a move's copy shares them. That a move never changes the state it was given,
which sharing would break if any code changed what it shares in place, is checked over whole games in
test_properties.py."""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Callable

from pydantic import BaseModel

from engine import apply, new_game
from engine.edition import Edition
from engine.randomplay import random_action
from engine.state import GameState, clone


def played(moves: int, seed: int = 7) -> GameState:
    state, _ = new_game(["a", "b", "c", "d"], seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        result = apply(state, *random_action(state, rnd))
        assert result.ok
        state = result.state
    return state


def tracked_made_by(make: Callable[[], object]) -> Counter[str]:
    """The objects the collector tracks that `make` left alive, by type."""
    gc.collect()
    gc.disable()
    try:
        before = {id(o) for o in gc.get_objects()}
        kept = make()
        made = Counter(type(o).__name__ for o in gc.get_objects()
                       if id(o) not in before and o is not before and gc.is_tracked(o))
    finally:
        gc.enable()
    assert kept is not None
    return made


def test_a_parsed_state_has_no_set_per_model_and_dumps_as_before():
    state = played(25)
    text = state.model_dump_json()
    made = tracked_made_by(lambda: GameState.model_validate_json(text))
    assert made["GameState"] == 1 and made["Player"] == 4
    assert made["set"] == 0, made
    parsed = GameState.model_validate_json(text)
    assert parsed == state and parsed.model_dump_json() == text
    assert parsed.model_fields_set == set(GameState.model_fields)
    assert parsed.players[0].model_fields_set is parsed.players[3].model_fields_set


def test_a_moves_copy_makes_no_set_and_shares_what_is_only_ever_replaced():
    state = played(25)
    made = tracked_made_by(lambda: clone(state))
    assert made["set"] == 0, made
    copy = clone(state)
    assert copy == state
    assert copy.privilege_display is state.privilege_display and copy.privilege_spent is state.privilege_spent
    assert copy.step_supply is state.step_supply and copy.tile_stacks is state.tile_stacks
    assert copy.deck is state.deck and copy.discard is state.discard
    assert all(c.offered is p.offered and c.tiles is p.tiles and c.hand is p.hand
               for c, p in zip(copy.players, state.players, strict=True))
    # What the engine changes in place is copied.
    assert copy.auction is not None and state.auction is not None and copy.auction.offers is not state.auction.offers
    assert copy.players[0].levels is not state.players[0].levels
    # 54 at first, of them a set per model (ten for four players in an auction), then 22: the hands, the deck
    # and the discard pile were lists copied at every move.
    assert sum(made.values()) <= 16, made


def tracked_within(state: GameState) -> Counter[str]:
    """The objects of `state` (its models, lists, dicts, tuples) the collector still tracks, by type."""
    seen: set[int] = set()
    found: Counter[str] = Counter()
    todo: list[object] = [state]
    while todo:
        o = todo.pop()
        if id(o) in seen or not gc.is_tracked(o):
            continue
        seen.add(id(o))
        found[type(o).__name__] += 1
        todo += [r for r in gc.get_referents(o) if isinstance(r, (list, dict, tuple, BaseModel))
                 and not isinstance(r, Edition)]
    return found


def test_a_parsed_state_kept_in_memory_leaves_the_collector_nothing_the_engine_only_replaces():
    """The games kept parsed (those played now, those waiting for a computer) are walked by every full
    collection (issue 44). What the engine only ever replaces (offered cards, steps' supply, tiles' stacks,
    privilege cards, hands, deck, discard pile) is tuples: the first young collection stops tracking them,
    where they were 22 lists."""
    text = played(25).model_dump_json()
    gc.collect()
    kept = GameState.model_validate_json(text)
    gc.collect(0)
    left = tracked_within(kept)
    replaced = [kept.privilege_display, kept.privilege_waiting, kept.privilege_spent, kept.deck, kept.discard,
                *kept.step_supply.values(), *kept.tile_stacks.values(),
                *(p.offered for p in kept.players), *(p.hand for p in kept.players)]
    assert not any(gc.is_tracked(r) for r in replaced)
    assert left["tuple"] == 0, left
    # Left: 6 models with their dicts (but the 4 Tiles': they hold plain values), the players' list, the
    # auction's two lists, the two dicts of tuples (until a full collection). Before: 43.
    assert sum(left.values()) <= 21, left


def test_assigning_a_field_leaves_every_other_state_as_it_was():
    state = played(25)
    copy = clone(state)
    copy.players[0].money += 5
    copy.phase = "game_over"
    assert state.players[0].money + 5 == copy.players[0].money and state.phase != "game_over"
    assert state.model_fields_set == copy.model_fields_set == set(GameState.model_fields)


def test_a_parsed_table_and_its_messages_have_no_set_per_model_and_dump_as_before():
    """A record kept cold is parsed again with its table (a model per seat) and its messages (one per ping):
    as for the state, no set per model for the collector to walk (issue 44), and the same text again."""
    from storage.records import Ahead, PingMessage, Seat, Table, TableMessages

    seats = tuple(Seat(id=str(n), name=f"P{n}", ahead=Ahead(auction="1.2", how="call", cards=3) if n == 2 else None)
                  for n in range(5))
    table = Table(host="0", seats=seats, seed=4, turn_seconds=3600).model_dump_json()
    messages = TableMessages(table=9, drawn=3, pings=(PingMessage(id=11, players=("1", "2"), key="k"),
                                                      PingMessage(id=12, players=("3",), key="k"))).model_dump_json()
    made = tracked_made_by(lambda: (Table.model_validate_json(table), TableMessages.model_validate_json(messages)))
    assert made["Seat"] == 5 and made["PingMessage"] == 2 and made["Ahead"] == 1
    assert made["set"] == 0, made
    parsed = Table.model_validate_json(table)
    assert parsed.model_dump_json() == table and parsed.seats[2].ahead is not None
    assert TableMessages.model_validate_json(messages).model_dump_json() == messages
    changed = parsed.model_copy(update={"turn_seconds": 60})  # (a copy's set is its own: the class's stays)
    assert changed.turn_seconds == 60 and parsed.model_fields_set == set(Table.model_fields)
