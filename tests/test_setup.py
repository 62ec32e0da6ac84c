"""Setting up a game (R1-R8) and the shape of the engine's answers."""

from __future__ import annotations

import ast
from collections import Counter

import pytest
from conftest import ROOT

from engine import GameSetupError, Refused, apply, legal_actions, new_game, to_act
from engine.components import JOKER
from engine.editions import default
from engine.refusals import PARAMS, Illegal

ALL_CARDS, CARD_PRICE = default().all_cards, default().card_price  # the shipped edition's


@pytest.mark.parametrize("n, rounds", [(2, 4), (3, 5), (4, 6), (5, 7)])
def test_r1_rounds_are_players_plus_two(n, rounds):
    state, _ = new_game([f"p{i}" for i in range(n)], seed=n)
    assert state.rounds == rounds and state.round == 1


@pytest.mark.parametrize("ids", [["solo"], ["a", "b", "c", "d", "e", "f"], ["a", "a"]])
def test_r1_two_to_five_different_players(ids):
    with pytest.raises(GameSetupError):
        new_game(ids, seed=0)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_r2_r3_r4_starting_position(n):
    state, events = new_game([f"p{i}" for i in range(n)], seed=11)
    for p in state.players:
        assert p.money == 1500 and p.score == 0 and p.hand == (JOKER, JOKER)
        assert p.levels == {"trade": 1, "nobility": 1, "offices": 1}
        assert len(p.offered) == 7
    # R3: 68 certificates plus the jokers nobody holds, minus the 7 dealt to each.
    assert len(state.deck) == 68 + 12 - 2 * n - 7 * n
    assert Counter([*state.deck, *(c for p in state.players for c in p.offered)])[JOKER] == 12 - 2 * n
    assert state.phase == "initial_purchase" and to_act(state) == [p.id for p in state.players]


def test_r4_cards_are_dealt_one_at_a_time_from_the_start_player():
    # Same seed and a chosen start player: the same shuffle, so only the dealing order differs.
    a, _ = new_game(["a", "b", "c"], seed=5, start_player="b")
    b, _ = new_game(["a", "b", "c"], seed=5, start_player="a")
    # Same seed, same shuffle: the start player receives the first card, the next player the second.
    first_cards = [b.players[0].offered[0], b.players[1].offered[0], b.players[2].offered[0]]
    assert [a.players[1].offered[0], a.players[2].offered[0], a.players[0].offered[0]] == first_cards


def test_r5_step_tiles_per_player_count():
    expected = {2: (2, 2, 3, 4), 3: (2, 2, 2, 3, 4), 4: (2, 2, 2, 2, 3, 3, 4), 5: (2, 2, 2, 2, 2, 3, 3, 3, 4)}
    for n, tiles in expected.items():
        state, _ = new_game([f"p{i}" for i in range(n)], seed=0)
        assert state.step_supply == {"trade": tiles, "nobility": tiles, "offices": tiles}


def test_r6_all_thirty_tiles_sorted_at_every_count():
    state, _ = new_game(["a", "b"], seed=0)
    assert sum(len(v) for v in state.tile_stacks.values()) == 30
    assert state.tile_stacks["church"][0] == 700 and state.tile_stacks["coat"][0] == 4


def test_r7_five_privilege_cards_face_up_five_waiting():
    state, _ = new_game(["a", "b"], seed=0)
    assert len(state.privilege_display) == 5 and len(state.privilege_waiting) == 5
    assert sorted(state.privilege_display + state.privilege_waiting, key=int) == [str(i) for i in range(1, 11)]


def test_r8_start_player_is_seeded_or_chosen():
    starts = {new_game(["a", "b", "c", "d"], seed=s)[0].lead for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert new_game(["a", "b", "c"], seed=1, start_player="c")[0].lead == 2
    with pytest.raises(GameSetupError):
        new_game(["a", "b"], seed=1, start_player="zed")


def test_same_seed_same_game_other_seed_other_deck():
    assert new_game(["a", "b"], seed=9)[0] == new_game(["a", "b"], seed=9)[0]
    assert new_game(["a", "b"], seed=9)[0].deck != new_game(["a", "b"], seed=10)[0].deck


def test_r4_purchase_is_secret_until_everyone_chose_then_unbought_cards_are_discarded():
    state, _ = new_game(["a", "b"], seed=2, start_player="a")
    offered_a, offered_b = state.players[0].offered, state.players[1].offered
    r = apply(state, "a", {"do": "buy", "cards": offered_a[:2]})
    assert r.ok and r.state.players[0].hand == (JOKER, JOKER) and r.state.players[0].money == 1500
    assert [e.type for e in r.events if e.to is None] == ["choice_made"]
    again = apply(r.state, "a", {"do": "buy", "cards": []})
    assert not again.ok and again.code == "not_your_turn"
    r = apply(r.state, "b", {"do": "buy", "cards": []})
    a = r.state.players[0]
    assert a.hand == (JOKER, JOKER, *offered_a[:2])
    assert a.money == 1500 - CARD_PRICE[offered_a[0]] - CARD_PRICE[offered_a[1]]
    assert r.state.discard == offered_a[2:] + offered_b  # start player's first, each in dealing order
    public = [e for e in r.events if e.to is None and e.type == "purchase_made"]
    assert [(e.player, e.count) for e in public] == [("a", 2), ("b", 0)]
    assert r.state.phase == "auction" and to_act(r.state) == ["a"]


def test_r4_cannot_buy_more_than_money_allows():
    state, _ = new_game(["a", "b"], seed=4)
    p = state.players[0]
    p.money = 300
    cards = sorted(p.offered, key=lambda c: CARD_PRICE[c])[:2]
    r = apply(state, "a", {"do": "buy", "cards": cards})
    assert not r.ok and r.code == "cannot_afford"
    assert r.params == {"cost": sum(CARD_PRICE[c] for c in cards), "money": 300, "tile": None}


def test_refusals_are_codes_with_parameters():
    state, _ = new_game(["a", "b"], seed=4)
    for player, action, code, params in [
        ("zed", {"do": "buy", "cards": []}, "not_seated", {}),
        ("a", {"do": "bid", "count": 2}, "wrong_moment", {"action": "bid", "phase": "initial_purchase"}),
        ("a", {"do": "fly"}, "unreadable", {"field": "do", "problem": "union_tag_invalid"}),
        ("a", {"count": 2}, "unreadable", {"field": "do", "problem": "union_tag_not_found"}),
        ("a", {"do": "bid"}, "unreadable", {"field": "count", "problem": "missing"}),
        ("a", {"do": "buy", "cards": [3]}, "unreadable", {"field": "cards.0", "problem": "string_type"}),
        ("a", {"do": "buy", "cards": ["maria-99"]}, "not_offered", {"card": "maria-99"}),
    ]:
        r = apply(state, player, action)
        assert not r.ok and (r.code, r.params) == (code, params)
        assert not hasattr(r, "reason")


def test_refusal_codes_and_parameters_are_checked_when_made():
    with pytest.raises(ValueError):
        Illegal("bid_too_low")  # its parameter `high` is missing
    with pytest.raises(ValueError):
        Illegal("bid_too_low", high=2, low=1)
    with pytest.raises(ValueError):
        Illegal("no_such_code")
    with pytest.raises(ValueError):
        Refused("not_your_turn", {})
    assert Illegal("bid_too_low", high=2).params == {"high": 2}
    assert Refused("game_over").params == {} and Refused("game_over").ok is False


def _refusals_in_source() -> list[tuple[str, str, set[str]]]:
    """(file, code, parameter names) of every Illegal(...) and Refused(...) written in engine/."""
    found = []
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("Illegal", "Refused") and node.args
                    and isinstance(node.args[0], ast.Constant)):
                continue
            if node.func.id == "Illegal":
                names = {k.arg for k in node.keywords if k.arg}
                names |= {key.value for k in node.keywords if k.arg is None for key in k.value.keys}
            else:
                names = {key.value for key in node.args[1].keys} if len(node.args) > 1 else set()
            found.append((path.name, node.args[0].value, names))
    return found


def test_every_refusal_written_in_the_engine_is_registered_with_its_parameters():
    found = _refusals_in_source()
    for name, code, params in found:
        assert code in PARAMS, f"{name}: unregistered refusal {code}"
        assert params == set(PARAMS[code]), f"{name}: {code} is given {sorted(params)}, registered {PARAMS[code]}"
    assert {code for _, code, _ in found} == set(PARAMS), "a registered code the engine never produces"


def test_legal_actions_are_empty_for_players_not_due():
    state, _ = new_game(["a", "b"], seed=4)
    state = apply(state, "a", {"do": "buy", "cards": []}).state
    assert legal_actions(state, "a") == [] and legal_actions(state, "zed") == []
    assert legal_actions(state, "b")[0].kind == "buy_choice"


def test_all_cards_constant():
    assert len(ALL_CARDS) == 80 and Counter(ALL_CARDS)[JOKER] == 12
