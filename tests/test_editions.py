"""Editions (issue 30): every number of the game is an edition's data, cited and checked, and a game is played,
repaired and replayed only with its own edition."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

from bot.wording import rules, words
from engine import apply, legal_actions, new_game, player_view, to_act
from engine.ai.levels import computer, visible_to
from engine.components import JOKER
from engine.edition import EditionError, parse_edition
from engine.editions import LEGACY, Library, default, legacy, read_file, shipped
from engine.game import GameSetupError
from engine.integrity import problems
from engine.state import GameState
from engine.views import View

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "engine" / "editions" / "estimates-1.toml"
TEST_BOX = ROOT / "tests" / "editions" / "test-box.toml"
# Every shipped edition's values, pinned: games were played with them. Add a new edition's here when shipping
# it; an old one's must never change (a correction is a new file: see the README, "Editions").
SHIPPED_SHA256 = {"estimates-1": "d83ebc9eafdf64f9fab45a89829fafbfbf1a79e0842f61d2b12c502dfcdd2586"}


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


def test_the_shipped_edition_holds_the_values_games_were_played_with_and_never_changes():
    assert {e.id: e.sha256 for e in shipped().values()} == SHIPPED_SHA256
    ed = default()
    assert ed is shipped()["estimates-1"] is legacy() and ed.ref == LEGACY
    assert len(ed.all_cards) == 80 and ed.all_cards.count(JOKER) == 12 and len(set(ed.certificates)) == 68
    prices = [ed.card_price[f"leo-{v}"] for v in range(1, 18)]
    assert prices == [200] * 3 + [250] * 4 + [300] * 3 + [350] * 4 + [400] * 3 and ed.card_price[JOKER] == 400
    assert ed.nobles == ("philipp", "louise", "leo", "maria", "maximilian")
    assert ed.card_rank("maria-5") > ed.card_rank("leo-5") > ed.card_rank("louise-5") > ed.card_rank("philipp-5")
    assert {n: ed.step_tiles(n) for n in (2, 3, 4, 5)} == {n: [2] * n + [3] * max(1, n - 2) + [4] for n in (2, 3, 4, 5)}
    assert {n: ed.rounds_for(n) for n in (2, 3, 4, 5)} == {2: 4, 3: 5, 4: 6, 5: 7}
    assert ed.tile_stacks == {"church": (700, 600, 500, 400, 300), "cathedral": (1100, 1000, 900, 800, 700),
                              "coat": (4, 3, 2, 2, 1), "letter": (5, 4, 3, 3, 2), "minter": (True,) * 5,
                              "master_builder": (True,) * 5}
    assert ed.privilege_cards["4"] == ("trade", "nobility", "offices")
    assert ed.privilege_cards["9"] == ed.privilege_cards["10"] == ("guilders", "prestige7", "draw2")
    assert (ed.trade_income, ed.nobility_prestige, ed.offices_cards) == (
        {1: 600, 2: 900, 3: 1200, 4: 1600}, {1: 3, 2: 5, 3: 8, 4: 12}, {1: 4, 2: 5, 3: 6, 4: 6})
    assert (ed.church_limit, ed.cathedral_limit, ed.consolation) == (25, 45, (100, 50))
    assert (ed.start_money, ed.start_jokers, ed.initial_deal) == (1500, 2, 7)


def test_every_value_of_the_shipped_edition_says_where_it_comes_from():
    estimates = set()
    section = ""
    for line in SHIPPED.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            section = line.split("]")[0].strip("[")
            continue
        key = re.match(r'\s*("?[\w-]+"?)\s*=', line)
        if not key or section == "name" or key.group(1) in ("format", "id"):
            continue
        source = line.partition("#")[2]
        assert re.search(r"rulebook L\d+|estimate", source), f"no source for {section}.{key.group(1)}: {line}"
        if "estimate" in source:
            estimates.add(f"{section}.{key.group(1).strip(chr(34))}")
    # What no public source gives (shared/rules/COMPONENTS.md) is marked an estimate in the file itself.
    assert {"cards.prices.1-3", "cards.prices.15-17", "tiles.church", "tiles.cathedral", "tiles.coat",
            "tiles.letter", "tiles.minter", "tiles.master_builder", "privilege_cards.1",
            "privilege_cards.10"} <= estimates


@pytest.mark.parametrize("old, new, where", [
    ("church = [700, 600, 500, 400, 300]", "church = [700, 800, 500, 400, 300]", "church = "),
    ("start_money = 1500", 'start_money = "1500"', "start_money = "),
    ("4 = [\"trade\", \"nobility\", \"offices\"]", "4 = [\"trade\", \"castle\", \"offices\"]", "4 = [\"trade\""),
    ('"4-7" = 250', '"5-7" = 250', "[cards.prices]"),
    ("minter = 5 ", "minter = 5\ntower = 2 ", "tower = "),
    ("church = 25", "church = 55", "[limits]"),
    ("display = 5", "display = oops", "display = "),
])
def test_a_wrong_value_is_refused_naming_the_line_it_is_on(old, new, where):
    text = SHIPPED.read_text(encoding="utf-8")
    assert text.count(old) == 1
    wrong = text.replace(old, new)
    with pytest.raises(EditionError) as err:
        parse_edition(wrong, "mine.toml")
    message = str(err.value)
    assert message.startswith("mine.toml: ") and f"line {line_of(wrong, where)}" in message, message


def test_a_missing_table_is_named():
    text = SHIPPED.read_text(encoding="utf-8")
    cut = text[:text.index("[robbery]")]
    with pytest.raises(EditionError, match="robbery: Field required"):
        parse_edition(cut)


def test_the_sha256_is_taken_of_the_values_alone():
    text = SHIPPED.read_text(encoding="utf-8")
    ed = parse_edition(text)
    renamed = text.replace('en = "Rulebook + estimates (v1)"', 'en = "Our box"').replace("# estimate", "# ours")
    banded = text.replace('"1-3" = 200', '"1" = 200\n"2-3" = 200')  # the same prices, written otherwise
    assert parse_edition(renamed).sha256 == parse_edition(banded).sha256 == ed.sha256
    changed = parse_edition(text.replace("church = [700, 600,", "church = [750, 600,"))
    assert changed.sha256 != ed.sha256 and changed is not ed


def test_an_edition_goes_to_a_worker_process_and_back_as_itself():
    box = read_file(TEST_BOX)
    view = player_view(new_game(["a", "b"], seed=4, edition=box)[0], "a")
    assert pickle.loads(pickle.dumps(box)) is box and pickle.loads(pickle.dumps(view)).edition is box


def test_a_game_is_played_with_its_own_editions_components():
    box = read_file(TEST_BOX)
    assert len(set(box.privilege_cards.values())) == 10 and box.sha256 != default().sha256
    state, _ = new_game(["a", "b", "c"], seed=8, edition=box)
    assert state.edition is box and state.tile_stacks["church"] == (800, 650, 500, 350, 200)
    assert len(state.tile_stacks["minter"]) == 4 and len(state.tile_stacks["master_builder"]) == 3
    you = player_view(state, "a").you
    assert you.offered_prices == [box.card_price[c] for c in you.offered]
    assert legal_actions(state, "a")[0].prices == you.offered_prices
    text = state.model_dump_json()
    assert '"edition":{"id":"test-box","sha256":"' + box.sha256 + '"}' in text and '"rules":1' in text
    assert GameState.model_validate_json(text) == state
    assert problems(state) == []
    with pytest.raises(ValueError):  # the shipped edition's state is no test-box state
        GameState.model_validate_json(text.replace(box.sha256, "0" * 64))


@pytest.mark.parametrize("levels", [("easy", "normal", "strong")])
def test_computer_players_of_every_level_play_a_whole_game_of_the_second_edition(levels):
    box = read_file(TEST_BOX)
    ids = ["p1", "p2", "p3"]
    state, events = new_game(ids, seed=21, edition=box)
    bots = {pid: computer(level, seed=i, think_seconds=0.05) for i, (pid, level) in enumerate(zip(ids, levels))}
    seen = {pid: visible_to(events, pid) for pid in ids}
    taken = set()
    while state.phase != "game_over":
        player = to_act(state)[0]
        action = bots[player].decide(player_view(state, player), seen[player])
        result = apply(state, player, action)
        assert result.ok, (player, action, getattr(result, "code", None))
        state = result.state
        assert problems(state) == []
        taken |= {e.card for e in result.events if e.type == "privilege_card_taken"}
        for pid in ids:
            seen[pid] += visible_to(result.events, pid)
    assert state.round == box.rounds_for(3) and state.winners and state.edition is box
    assert len(taken) >= 5  # cards of this edition's own list were won and used


def test_states_and_views_stored_before_editions_read_as_the_legacy_edition():
    state, _ = new_game(["a", "b"], seed=2)
    old = state.model_dump(mode="json")
    del old["edition"], old["rules"]
    again = GameState.model_validate(old)
    assert again.edition is legacy() and again.rules == 1 and again == state
    view = player_view(state, "a").model_dump(mode="json")
    del view["edition"]
    assert View.model_validate(view).edition is legacy()


def test_a_rules_version_this_code_does_not_play_is_refused():
    with pytest.raises(GameSetupError, match="rules version 2"):
        new_game(["a", "b"], seed=1, rules=2)


def test_a_library_offers_the_shipped_editions_and_an_operators(tmp_path):
    (tmp_path / "box.toml").write_text(TEST_BOX.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "broken.toml").write_text("format = 1\nid = 'x'\n", encoding="utf-8")
    (tmp_path / "twin.toml").write_text(SHIPPED.read_text(encoding="utf-8").replace("1100, 1000", "1150, 1000"))
    library = Library.load(tmp_path, default_id="test-box")
    assert [e.id for e in library.editions()] == ["test-box", "estimates-1"] and library.default.id == "test-box"
    assert any("broken.toml" in p and "Field required" in p for p in library.problems)
    assert any("two editions are called 'estimates-1'" in p for p in library.problems)
    assert library.get("estimates-1") is default()  # an operator's file cannot take a shipped id
    assert Library.load(tmp_path / "nowhere", "nope").default is default()
    assert len(Library.load(tmp_path / "nowhere", "nope").problems) == 2


@pytest.mark.parametrize("lang, players", [("en", "players"), ("de", "Spieler"), ("it", "giocatori")])
def test_the_rules_overview_gives_the_editions_number_of_rounds(tmp_path, lang, players):
    shorter = tmp_path / "shorter.toml"
    shorter.write_text(TEST_BOX.read_text().replace("rounds = { 2 = 4, 3 = 5, 4 = 6, 5 = 7 }",
                                                    "rounds = { 2 = 3, 3 = 4, 4 = 5, 5 = 6 }"))
    overview = rules.topic(words(lang), "overview", read_file(shorter))
    assert f"2 {players}: 3" in overview and f"5 {players}: 6" in overview
    assert "+ 2" not in overview and "+2" not in overview
