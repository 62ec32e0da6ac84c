"""The computer player (engine/ai): legal, deterministic, blind to hidden information, fast, and strong.

The full strength measurement (1,000 games) is a benchmark, not a test:
    python -m engine.ai.simulate --players 4 --games 1000 --opponents random --seed 1
"""

from __future__ import annotations

import ast
import json
import random
from collections import Counter

import pytest
from conftest import ROOT
from test_views import scramble_hidden

from engine import View, apply, is_legal, legal_actions, new_game, parse_action, player_view, to_act
from engine.actions import BuyChoice, RevealChoice
from engine.ai import ComputerPlayer
from engine.ai.bidding import reveal_cards
from engine.editions import default
from engine.events import CompensationChosen, StepClimbed, TileTaken
from engine.position import build
from engine.randomplay import concrete

ED = default()  # the shipped edition

AI_PACKAGE = ROOT / "engine" / "ai"
SCENARIOS = sorted((ROOT / "tests" / "scenarios").rglob("*.json"))


def decision_kind(view: View) -> str:
    """A name for the kind of decision a view asks for (to check every kind gets exercised)."""
    first = view.you.legal_actions[0]
    if isinstance(first, (BuyChoice, RevealChoice)):
        return first.kind
    if view.phase == "privilege":
        return f"privilege:{view.privilege.awaiting}"
    return view.phase


def play(players: int, seed: int, ai_seats, on_decision=None):
    """One complete game, computer players in `ai_seats`; every AI action is checked to be legal."""
    ids = [f"p{i + 1}" for i in range(players)]
    state, _ = new_game(ids, seed=seed)
    bots = {ids[s]: ComputerPlayer(seed=seed * 10 + s) for s in ai_seats}
    rnd = random.Random(seed)
    while state.phase != "game_over":
        player = rnd.choice(to_act(state))  # simultaneous choices in any order
        bot = bots.get(player)
        if bot is not None:
            view = player_view(state, player)
            action = bot.decide(view)
            assert is_legal(state, player, action), f"illegal {action} in {state.phase} (seed {seed})"
            if on_decision is not None:
                on_decision(state, player, view, action)
        else:
            action = concrete(rnd.choice(legal_actions(state, player)), rnd)
        result = apply(state, player, action)
        assert result.ok, result
        state = result.state
    return state


# --- legality


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("opponents", ["random", "ai"])
def test_only_legal_actions_in_complete_games(players, opponents):
    kinds = Counter()
    for g in range(8):
        seats = {g % players} if opponents == "random" else set(range(players))
        play(players, 1000 * players + g, seats, lambda s, p, view, a: kinds.update([decision_kind(view)]))
    assert {"buy_choice", "auction", "reveal_choice", "privilege:take_card", "privilege:privileges"} <= set(kinds)


def scenario_states(data: dict):
    """The positions a scenario walks through (refused and check steps skipped)."""
    state, _ = build(data["setup"])
    yield state
    for step in data.get("steps", []):
        if "check" in step or step.get("expect") == "error":
            continue
        result = apply(state, step.get("player"), parse_action({k: v for k, v in step.items()
                                                                 if k not in ("player", "expect")}))
        if not result.ok:
            return
        state = result.state
        yield state


def test_legal_in_every_scenario_position_and_playing_on_from_it():
    """The scenarios reach the rare decisions: stolen steps, compensation, Master Builder, draw 2, shortage."""
    kinds = Counter()
    for path in SCENARIOS:
        data = json.loads(path.read_text())
        state = None
        for state in scenario_states(data):
            for player in to_act(state):
                view = player_view(state, player)
                action = ComputerPlayer(seed=3).decide(view)
                assert is_legal(state, player, action), f"{path.stem}: illegal {action}"
                kinds[decision_kind(view)] += 1
        bots = {p.id: ComputerPlayer(seed=i) for i, p in enumerate(state.players)}
        for _ in range(3000):  # play the position on to the end
            if state.phase == "game_over":
                break
            player = to_act(state)[0]
            view = player_view(state, player)
            action = bots[player].decide(view)
            kinds[decision_kind(view)] += 1
            result = apply(state, player, action)
            assert result.ok, f"{path.stem}: {action} refused: {result}"
            state = result.state
        assert state.phase == "game_over", f"{path.stem}: the game did not finish"
    expected = {"buy_choice", "auction", "reveal_choice", "privilege:take_card", "privilege:privileges",
                "privilege:discard", "privilege:compensation", "shortage"}
    assert expected <= set(kinds), f"never decided: {expected - set(kinds)}"


# --- determinism and hidden information


def test_same_seed_and_view_give_the_same_action_even_after_a_restart():
    checked = 0

    def check(state, player, view, action):
        nonlocal checked
        again = ComputerPlayer(seed=int(player[1:]) + 40).decide(view)  # a fresh player, same seed
        restored = View.model_validate_json(view.model_dump_json())  # as if reloaded after a restart
        assert ComputerPlayer(seed=int(player[1:]) + 40).decide(restored) == again
        checked += 1

    for seed in range(4):
        play(4, seed, {0, 1, 2, 3}, check)
    assert checked > 500


def test_decisions_do_not_depend_on_hidden_information():
    """Scrambling the others' hands, money, offers and secret choices and the deck never changes a decision."""
    rnd = random.Random(5)
    checked = 0

    def check(state, player, view, action):
        nonlocal checked
        other = scramble_hidden(state, player, rnd)
        bot = ComputerPlayer(seed=11)
        assert bot.decide(player_view(other, player)) == bot.decide(view), f"{player} in {state.phase}"
        checked += 1

    for seed in range(3):
        play(3 + seed, 200 + seed, set(range(3 + seed)), check)
    assert checked > 300


# The strong level plays in possible worlds: worlds.py builds GameStates from a view and the public
# history, strong.py plays in them. Neither is ever handed the real game (its decide takes a View),
# and the blindness tests in test_strong.py check that hidden information cannot change its choice.
WORLD_MAKERS = {"worlds.py": {"state", "game"}, "likely.py": {"state", "game"}, "strong.py": {"state", "game"}}


def test_the_ai_package_never_touches_the_game_state():
    """Only the simulator (a harness) may import the state or the engine's entry points."""
    hidden = {"state", "game", "randomplay", "auction", "privileges", "purchase", "round_end", "shortage", "flow",
              "common", "setup", "position", "integrity"}
    for path in AI_PACKAGE.glob("*.py"):
        if path.name == "simulate.py":
            continue
        allowed = WORLD_MAKERS.get(path.name, set())
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 2:
                module = node.module or ""
                assert module not in hidden - allowed, f"{path.name} imports engine.{module}"
            if isinstance(node, ast.Name) and not allowed:
                assert node.id != "GameState", f"{path.name} mentions GameState"


# --- speed and strength


def test_beats_random_players():
    """Smoke test of strength: 60 four-player games against three random players."""
    wins = 0
    for g in range(60):
        seat = g % 4
        state = play(4, 7000 + g, {seat})
        wins += state.players[seat].id in state.winners
    assert wins / 60 >= 0.8, f"won only {wins} of 60 games against random players"


# --- particular decisions


def privilege_turn(score: int, tiles: dict, display: list[str], money: int = 1500):
    """A two-player position in which the computer player 'ada' alone bids for Philipp and wins it."""
    state, _ = build({
        "players": ["ada", "ben"], "start": "auction", "round": 3, "noble": "philipp", "lead": "ada",
        "player_state": {"ada": {"hand": ["philipp-9", "louise-4"], "score": score, "money": money,
                                 "tiles": tiles, "levels": {"nobility": 3}},
                         "ben": {"hand": []}},
        "privilege_display": display,
    })
    bot = ComputerPlayer(seed=0)
    events = []
    while state.phase in ("auction", "showdown", "privilege"):
        player = to_act(state)[0]
        action = bot.decide(player_view(state, player))
        result = apply(state, player, action)
        assert result.ok, result
        events.extend(result.events)
        state = result.state
        if state.noble != 0:
            break
    return state, events


def test_builds_the_church_before_prestige_would_pass_25():
    # Card 5: Trade, Offices, +7. At 20 points the +7 would stop at 25 without a Church.
    state, events = privilege_turn(20, {}, ["5"])
    ada = state.players[0]
    assert ada.tiles.church is not None and ada.score == 27
    taken = [e.tile for e in events if isinstance(e, TileTaken)]
    assert taken == ["church"]


def test_builds_the_cathedral_before_prestige_would_pass_45():
    state, events = privilege_turn(41, {"church": 700}, ["5"])
    ada = state.players[0]
    assert ada.tiles.cathedral is not None and ada.score == 48


def test_steals_a_step_from_the_leader_who_takes_money_when_prestige_would_be_lost():
    # Five players: the three step-3 Nobility tiles are all held, so ada's climb must rob someone.
    # ben leads at 25 without a Church: +1 prestige would be lost, so 100 guilders is the better pick.
    state, _ = build({
        "players": ["ada", "ben", "cleo", "dan", "eve"], "start": "auction", "round": 3, "noble": "philipp",
        "lead": "ada",
        "player_state": {"ada": {"hand": ["philipp-9"], "levels": {"nobility": 2}},
                         "ben": {"score": 25, "levels": {"nobility": 3}},
                         "cleo": {"score": 10, "levels": {"nobility": 3}},
                         "dan": {"score": 12, "levels": {"nobility": 3}}},
        "privilege_display": ["2"],
    })
    bot, events = ComputerPlayer(seed=0), []
    while state.noble == 0:
        player = to_act(state)[0]
        result = apply(state, player, bot.decide(player_view(state, player)))
        assert result.ok, result
        events.extend(result.events)
        state = result.state
    robbed = [e.robbed for e in events if isinstance(e, StepClimbed) and e.robbed]
    assert robbed and robbed[0] == "ben"
    assert [e.take for e in events if isinstance(e, CompensationChosen)][0] == "money"


def test_a_lone_winner_lays_down_the_cheapest_cards_and_a_showdown_the_best():
    valid = ["joker", "maria-17", "maria-2", "maria-9", "joker"]
    alone = reveal_cards(valid, 2, True, ED)
    assert "maria-17" not in alone and "maria-2" in alone
    showdown = reveal_cards(valid, 2, False, ED)
    assert showdown[0] == "maria-17" and "maria-2" in showdown


def test_purchases_stay_within_budget():
    state, _ = new_game(["ada", "ben", "cleo"], seed=4)
    for p in state.players:
        p.money = 500
    view = player_view(state, "ada")
    action = ComputerPlayer(seed=0).decide(view)
    assert is_legal(state, "ada", action)
    assert sum(view.you.offered_prices[view.you.offered.index(c)] for c in action.cards) <= 500

