"""Every scenario file runs and passes: the project's own and the shared examples (SCENARIOS.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SHARED

from engine.scenario import run_file

OWN = sorted((ROOT / "tests" / "scenarios").rglob("*.json"))
SHARED_EXAMPLES = sorted((SHARED / "scenario-examples").rglob("*.json"))


@pytest.mark.parametrize("path", OWN + SHARED_EXAMPLES, ids=lambda p: p.stem)
def test_scenario_passes(path: Path):
    name, why = run_file(path)
    assert why is None, f"{name}: {why}"


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"the project's shared/ folder is not beside the checkout ({SHARED})")
def test_shared_examples_are_present():
    assert SHARED_EXAMPLES, f"no scenarios found in {SHARED / 'scenario-examples'}"


def test_every_ruling_from_r4_to_r27_has_a_scenario():
    cited = set()
    for path in OWN:
        cited.update(json.loads(path.read_text())["rulings"])
    # R8 (how the start player is picked) happens before any scenario can begin; tests/test_setup.py covers it.
    missing = [f"R{i}" for i in range(4, 28) if f"R{i}" not in cited and i != 8]
    assert not missing, f"rulings without a scenario: {missing}"


def _write(tmp_path: Path, name: str, data: dict) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return path


BASE = {"players": ["anna", "ben"], "start": "auction", "lead": "anna",
        "player_state": {"anna": {"hand": ["philipp-5"]}}}


def test_runner_reports_a_wrong_expectation_as_fail(tmp_path):
    bad = _write(tmp_path, "bad", {"name": "wrong money", "rulings": [], "setup": BASE,
                                   "steps": [{"check": {"players.anna.money": 1499}}]})
    name, why = run_file(bad)
    assert why == "step 1: players.anna.money is 1500, expected 1499"


def test_runner_names_the_refusal_of_a_step_expected_to_pass(tmp_path):
    bad = _write(tmp_path, "bad", {"name": "low bid", "rulings": [], "setup": BASE,
                                   "steps": [{"player": "anna", "do": "bid", "count": 2}]})
    assert run_file(bad)[1] == 'step 1: anna bid {"count": 2} was refused: too_many_cards {"max": 1}'


def test_runner_fails_an_accepted_action_marked_error(tmp_path):
    bad = _write(tmp_path, "bad", {"name": "legal pass", "rulings": [], "setup": BASE,
                                   "steps": [{"player": "anna", "do": "pass", "expect": "error"}]})
    assert "must be refused" in run_file(bad)[1]


@pytest.mark.parametrize("setup_change, words", [
    ({"player_state": {"anna": {"hand": ["philipp-5"]}, "ben": {"hand": ["philipp-5"]}}}, "more often"),
    ({"player_state": {"anna": {"levels": {"trade": 4}}, "ben": {"levels": {"trade": 4}}}}, "more step tiles"),
    ({"player_state": {"anna": {"score": 30}}}, "limit"),
    ({"tile_stacks": {"church": [500, 700]}}, "sorted"),
    ({"player_state": {"anna": {"tiles": {"church": 700}}}, "tile_stacks": {"church": [700]}}, "church"),
    ({"privilege_display": ["1", "1"]}, "privilege_display"),
    ({"colour": "red"}, "unknown setup keys"),
    ({"player_state": {"anna": {"gold": 1}}}, "unknown keys"),
])
def test_impossible_setups_fail(tmp_path, setup_change, words):
    path = _write(tmp_path, "impossible", {"name": "x", "rulings": [], "setup": {**BASE, **setup_change}, "steps": []})
    why = run_file(path)[1]
    assert why is not None and why.startswith("setup:") and words in why


def test_command_line_prints_one_line_per_scenario_and_exit_code(tmp_path):
    good = _write(tmp_path, "good", {"name": "fine", "rulings": [], "setup": BASE,
                                     "steps": [{"check": {"to_act": ["anna"]}}]})
    out = subprocess.run([sys.executable, "-m", "engine.scenario", str(good)], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0 and "PASS fine" in out.stdout
    _write(tmp_path, "bad", {"name": "wrong", "rulings": [], "setup": BASE, "steps": [{"check": {"round": 2}}]})
    out = subprocess.run([sys.executable, "-m", "engine.scenario", str(tmp_path)], capture_output=True, text=True,
                         cwd=ROOT)
    assert out.returncode == 1 and "FAIL wrong: step 1: round is 1, expected 2" in out.stdout
