"""Random legal play of complete games, checking the invariants after every action (R1-R27)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.invariants import check_invariants

from engine import Refused, apply, is_legal, legal_actions, new_game, to_act
from engine.actions import (
    Bid,
    Build,
    Buy,
    Call,
    Compensate,
    Discard,
    Done,
    Pass,
    ReturnCard,
    Reveal,
    TakeCard,
    Use,
)
from engine.editions import default, read_file
from engine.randomplay import concrete
from engine.refusals import PARAMS
from engine.round_end import winners
from engine.state import GameState

ED = default()  # the shipped edition
ALL_CARDS, PRIVILEGE_CARDS = ED.all_cards, ED.privilege_cards
# A second edition (all ten privilege cards different, other tiles and prices): the rules hold with its values too.
TEST_BOX = read_file(Path(__file__).resolve().parent / "editions" / "test-box.toml")

GAMES_PER_PLAYER_COUNT = 125  # 4 counts x 125 = 500 complete games per run (and 160 more of the second edition)
GAMES = {ED.id: GAMES_PER_PLAYER_COUNT, TEST_BOX.id: 40}


UNREADABLE = [{"do": "fly"}, {}, {"do": "bid"}, {"do": "bid", "count": "many"}, {"do": "buy", "cards": [7]},
              {"do": "pass", "loudly": True}, {"do": "use", "slot": 0, "as": 3}]


def random_junk_action(rnd: random.Random, players: list[str]):
    """Any action at all, mostly nonsense: used to probe refusals."""
    cards = rnd.sample(ALL_CARDS, rnd.randint(0, 4))
    verb = rnd.randrange(13)
    return [
        lambda: Buy(cards=cards),
        lambda: Bid(count=rnd.randint(-1, 12)),
        lambda: Call(),
        lambda: Pass(),
        lambda: Reveal(cards=cards),
        lambda: TakeCard(card=str(rnd.randint(0, 11))),
        lambda: Use(
            slot=rnd.randint(-1, 3),
            as_=rnd.choice([None, "step", "trade300", "coat", "letter", "minter", "master_builder", "church",
                            "cathedral", "castle"]),
            from_=rnd.choice([None, None, "nobody", *players]),
        ),
        lambda: Discard(card=rnd.choice(ALL_CARDS)),
        lambda: Build(what=rnd.choice(["church", "cathedral", "tower"])),
        lambda: Done(),
        lambda: Compensate(take=rnd.choice(["money", "prestige", "gold"])),
        lambda: ReturnCard(card=rnd.choice(ALL_CARDS)),
        lambda: rnd.choice(UNREADABLE),
    ][verb]()


def check_refusal(result) -> None:
    """A refusal is a registered code with exactly its parameters, all plain values and no sentence."""
    assert type(result) is Refused and not hasattr(result, "reason")
    assert result.code in PARAMS and set(result.params) == set(PARAMS[result.code]), (result.code, result.params)
    for value in result.params.values():
        assert value is None or type(value) in (int, str), (result.code, result.params)
        assert not (isinstance(value, str) and " " in value), f"{result.code}: {value!r} reads like a sentence"


def play_checked(players: int, seed: int, edition=ED) -> None:
    rnd = random.Random(seed)
    ids = [f"p{i + 1}" for i in range(players)]
    state, _ = new_game(ids, seed=seed, edition=edition)
    assert state.edition is edition
    log = []
    rounds_seen = {state.round}
    while state.phase != "game_over":
        check_invariants(state)
        dump = state.model_dump_json()
        assert GameState.model_validate_json(dump) == state, "the JSON round trip is the identity"

        # Random actions, legal or not: the engine accepts exactly what legal_actions lists.
        for _ in range(2):
            who = rnd.choice([*ids, "stranger"])
            junk = random_junk_action(rnd, ids)
            legal = who in ids and not isinstance(junk, dict) and is_legal(state, who, junk)
            result = apply(state, who, junk)
            assert result.ok == legal, (who, junk, getattr(result, "code", None))
            if not result.ok:
                check_refusal(result)
                assert state.model_dump_json() == dump, "a refused action changed nothing"

        player = rnd.choice(to_act(state))
        action = concrete(rnd.choice(legal_actions(state, player)), rnd)
        result = apply(state, player, action)
        assert result.ok, (player, action, getattr(result, "code", None), getattr(result, "params", None))
        assert state.model_dump_json() == dump, "apply never mutates the state it was given"
        for event in result.events:
            assert event.to is None or event.to in ids
        log.append((player, action))
        state = result.state
        rounds_seen.add(state.round)

    check_invariants(state)
    rounds = edition.rounds_for(players)
    assert state.round == rounds and rounds_seen == set(range(1, rounds + 1))
    top = max(p.score for p in state.players)
    assert all(p.score == top for p in state.players if p.id in state.winners)
    assert state.winners == [state.players[s].id for s in winners(state)[0]]

    replay, _ = new_game(ids, seed=seed, edition=edition)
    for player, action in log:
        replay = apply(replay, player, action).state
    assert replay == state, "seed plus action log rebuilds the identical game"


@pytest.mark.parametrize("edition", [ED, TEST_BOX], ids=lambda e: e.id)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_complete_games_keep_every_invariant(players, edition):
    @settings(max_examples=GAMES[edition.id], deadline=None, derandomize=False,
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(min_value=0, max_value=2**63))
    def run(seed):
        play_checked(players, seed, edition)

    run()


def test_privilege_cards_reshuffle_every_second_round():
    """R7/R26: round 2 shows round 1's waiting cards; odd rounds deal all ten afresh."""
    rnd = random.Random(3)
    state, _ = new_game(["a", "b", "c", "d", "e"], seed=3)
    displays = {1: set(state.privilege_display)}
    waiting = {1: set(state.privilege_waiting)}
    while state.phase != "game_over":
        player = rnd.choice(to_act(state))
        state = apply(state, player, concrete(rnd.choice(legal_actions(state, player)), rnd)).state
        if state.phase == "auction" and state.noble == 0 and state.round not in displays:
            displays[state.round] = set(state.privilege_display)
            waiting[state.round] = set(state.privilege_waiting)
    assert sorted(displays) == list(range(1, 8))
    for r in (2, 4, 6):
        assert displays[r] == waiting[r - 1]
        assert waiting[r] == set()
    for r in (3, 5, 7):
        assert len(displays[r]) == 5 and displays[r] | waiting[r] == set(PRIVILEGE_CARDS)
