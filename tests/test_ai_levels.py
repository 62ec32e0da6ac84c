"""The computer levels (engine/ai/levels.py), the greedy yardstick and `augsburg simulate`.

The strength figures of the note come from the benchmark, with every deal played from every seat:
    augsburg simulate --players 4 --games 400 --level strong --opponents normal --seed 1 --workers 2
    augsburg simulate --players 4 --games 400 --level normal --opponents greedy --seed 1
"""

from __future__ import annotations

import pytest

from engine import apply, is_legal, new_game, player_view, to_act
from engine.ai import simulate
from engine.ai.easy import EasyPlayer
from engine.ai.greedy import GreedyPlayer
from engine.ai.levels import LEVELS, computer
from engine.ai.player import ComputerPlayer
from engine.ai.strong import StrongPlayer


def test_every_level_has_a_player_and_only_strong_is_heavy():
    players = {level: computer(level, seed=1) for level in LEVELS}
    assert isinstance(players["easy"], EasyPlayer) and isinstance(players["strong"], StrongPlayer)
    assert type(players["normal"]) is ComputerPlayer
    assert {level: p.level for level, p in players.items()} == {level: level for level in LEVELS}
    assert [level for level, p in players.items() if p.heavy] == ["strong"]
    with pytest.raises(ValueError):
        computer("grandmaster", seed=1)


def test_easy_and_greedy_players_make_only_legal_moves():
    for seed, kinds in ((1, ["easy", "greedy", "easy"]), (2, ["greedy", "easy", "greedy", "normal", "easy"])):
        ids = [f"p{i + 1}" for i in range(len(kinds))]
        state, _ = new_game(ids, seed=seed)
        bots = {pid: GreedyPlayer(i) if kind == "greedy" else computer(kind, i)
                for i, (pid, kind) in enumerate(zip(ids, kinds))}
        while state.phase != "game_over":
            player = to_act(state)[0]
            action = bots[player].decide(player_view(state, player))
            assert is_legal(state, player, action), f"{kinds[ids.index(player)]} played {action}"
            state = apply(state, player, action).state


def share(level: str, opponents: str, games: int) -> float:
    return float(simulate.run(4, games, level, opponents, seed=5, progress=False)["win_share"])


def test_easy_beats_random_play_but_loses_to_the_normal_level():
    """A beginner: sensible enough to beat random moves, and beaten by a careful player."""
    assert share("easy", "random", 12) >= 0.75
    assert share("normal", "easy", 12) >= 0.5


def test_normal_beats_the_greedy_yardstick_more_than_its_share():
    assert share("normal", "greedy", 24) > 0.25


def test_simulate_prints_one_summary_line_with_every_deal_from_every_seat(capsys):
    assert simulate.main(["--players", "3", "--games", "5", "--level", "easy", "--opponents", "greedy",
                          "--seed", "2", "--no-progress"]) == 0
    out, _ = capsys.readouterr()
    lines = out.strip().splitlines()
    assert len(lines) == 1
    figures = dict(item.split("=", 1) for item in lines[0].split())
    assert figures["games"] == "6", "5 games are rounded up to 2 whole deals of 3 seats"
    assert (figures["level"], figures["opponents"]) == ("easy", "greedy")
    assert len(figures["seat_win_shares"].split("/")) == 3
    low, high = map(float, figures["ci95"].split("-"))
    assert 0.0 <= low <= float(figures["win_share"]) <= high <= 1.0
    for key in ("mean_score", "opp_mean_score", "lost", "opp_lost", "ms_p50", "ms_p90", "ms_p99", "ms_max",
                "cpu_ms_p99"):
        assert float(figures[key]) >= 0
    low_load, high_load = map(float, figures["load"].split("-"))
    assert 0.0 <= low_load <= high_load
    assert figures["capped"] == "0", "only a strong player's search has a safety cap to reach"


def test_a_deal_of_equals_shares_exactly_one_win():
    """Normal against normal, a deal is the same game from every seat; its wins (a k-way tie counting
    1/k each) add up to exactly one."""
    for seed in range(6):
        rows = simulate.play_deal((3, "normal", "normal", seed, 1.0))
        assert sum(r[0] for r in rows) == pytest.approx(1.0)


def test_confidence_interval_narrows_with_more_deals():
    few, many = simulate.confidence([0.0, 0.5, 0.25, 0.25]), simulate.confidence([0.0, 0.5, 0.25, 0.25] * 25)
    assert few[0] < many[0] <= 0.25 <= many[1] < few[1]
