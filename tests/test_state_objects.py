"""What a game state costs the garbage collector (issue 44): every move makes a new state and every panel on a
game not kept parsed parses one, and the young collections walk all of them still alive. So a state carries
no set per model (pydantic's "fields set": one shared per class, naming every field) and a move's copy shares
the lists the engine only ever replaces. That a move never changes the state it was given, which sharing
would break if any code changed those lists in place, is checked over whole games in test_properties.py."""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Callable

from engine import apply, new_game
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


def test_a_moves_copy_makes_no_set_and_shares_the_lists_only_ever_replaced():
    state = played(25)
    made = tracked_made_by(lambda: clone(state))
    assert made["set"] == 0, made
    copy = clone(state)
    assert copy == state
    assert copy.privilege_display is state.privilege_display and copy.privilege_spent is state.privilege_spent
    assert copy.step_supply is state.step_supply and copy.tile_stacks is state.tile_stacks
    assert all(c.offered is p.offered and c.tiles is p.tiles
               for c, p in zip(copy.players, state.players, strict=True))
    # What the engine changes in place is copied.
    assert copy.deck is not state.deck and copy.players[0].hand is not state.players[0].hand
    # Before: 54, of them a set per model (ten for four players in an auction); 16 lists, 2 dicts, 4 Tiles more.
    assert sum(made.values()) <= 22, made


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
