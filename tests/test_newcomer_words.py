"""What a newcomer reads (issue 27, points 3-5, 8-10, 12-13), in English, German and Italian: the compensation
is asked as what it is, buildings show their price (and say when they cannot be paid for), the supply and
the jokers are explained, no unexplained marks, the rules count unused privileges right, the default name
speaks the player's language, ties below the win share a place, and the command line names the export
command. (Help naming leave, replace, back and notify: tests/test_wording.py.)"""

from __future__ import annotations

import dataclasses
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from bot.terminal.game import run
from bot.terminal.screen import Terminal
from bot.wording import People, end, log, moves, names, phases, rules, terminal, words
from bot.wording import table as table_words
from engine import apply, new_game, player_view, spectator_view, to_act
from engine import events as ev
from engine.actions import Use
from engine.ai.player import ComputerPlayer
from engine.components import JOKER
from engine.editions import default
from engine.state import PrivilegeTurn

LANGS = ("en", "de", "it")
ED = default()  # the shipped edition
PEOPLE = People(name=lambda p: {"p0": "Ada", "p1": "Ben", "p2": "Cleo", "p3": "Dan", "p4": "Eve"}.get(p, p))


def robbed_position():
    """A seeded 5-player game at the moment a climb has taken a step tile from a player."""
    ids = [f"p{i}" for i in range(5)]
    state, _ = new_game(ids, seed=1)
    bots = {p: ComputerPlayer(seed=1 + i) for i, p in enumerate(ids)}
    while not (state.phase == "privilege" and state.privilege.robbed is not None):
        p = to_act(state)[0]
        state = apply(state, p, bots[p].decide(player_view(state, p))).state
    return state


@pytest.mark.parametrize("lang", LANGS)
def test_the_compensation_is_asked_of_the_player_robbed_as_what_it_is(lang):
    w, state = words(lang), robbed_position()
    robbed, climber = to_act(state)[0], state.players[state.privilege.seat].id
    view = player_view(state, robbed)
    heading = phases.your_move(w, view, PEOPLE)
    won = {"en": "you won", "de": "gewonnen", "it": "vinto"}[lang]
    assert won not in heading and PEOPLE.name(climber) in heading, heading  # not "you won Louise"
    assert heading == w._("{player} climbed and took your step tile: choose your compensation, {money} or 1 "
                          "prestige.", player=PEOPLE.name(climber), money=w.money(100))
    prompt = moves.prompt(w, [o for o in view.you.legal_actions], view, PEOPLE)
    assert PEOPLE.name(climber) in prompt


def offices_turn(money: int):
    """Ada uses card 3 (Offices · Offices · draw 2) with `money` guilders: the Church costs 700."""
    state, _ = new_game(["p0", "p1"], seed=2)
    state.phase, state.noble, state.purchase = "privilege", 0, None
    state.privilege = PrivilegeTurn(seat=0, card="3")
    state.players[0].money = money
    return state


@pytest.mark.parametrize("lang", LANGS)
def test_a_building_shows_its_price_and_one_out_of_reach_is_said(lang):
    w = words(lang)
    rich = player_view(offices_turn(5000), "p0")
    church = next(o for o in rich.you.legal_actions if isinstance(o, Use) and o.as_ == "church")
    label = moves.action(w, church, rich, PEOPLE)
    assert w.money(700) in label, label
    poor = offices_turn(500)
    view = player_view(poor, "p0")
    assert not any(getattr(o, "as_", None) in ("church", "cathedral") for o in view.you.legal_actions)
    prompt = moves.prompt(w, view.you.legal_actions, view, PEOPLE)
    for tile, cost in (("church", 700), ("cathedral", 1100)):
        assert w._("You cannot build the {tile} now: it costs {cost}, and you have {money}.",
                   tile=names.tile(w, tile), cost=w.money(cost), money=w.money(500)) in prompt


@pytest.mark.parametrize("lang", LANGS)
def test_the_text_table_lists_every_tile_of_the_supply_and_the_steps_left(lang):
    w = words(lang)
    state, _ = new_game(["p0", "p1", "p2"], seed=2)
    board = terminal.board(w, player_view(state, "p0"), PEOPLE, width=10_000)
    for tile in ("church", "cathedral", "coat", "letter", "minter", "master_builder"):
        assert names.tile(w, tile) in board
    assert w.money(700) in board and w.money(1100) in board  # the next prices
    assert table_words.steps_left(w, spectator_view(state)) in board


@pytest.mark.parametrize("lang", LANGS)
def test_a_joker_says_what_it_is_good_for(lang):
    w = words(lang)
    label = names.card_with_price(w, JOKER, ED)
    assert w.money(400) in label and len(label) > len(w._("{card} ({price})", card=names.card(w, JOKER),
                                                               price=w.money(400)))
    assert len(re.findall(r"(?i)joker|jolly", rules.topic(w, "auction", ED))) >= 2  # valid for all; no value
    you = dataclasses.make_dataclass("You", ["money", "hand", "offered", "offered_prices", "chosen"])(
        100, [JOKER, "maria-3"], [], [], None)
    assert names.joker_note(w) in table_words.hand(w, dataclasses.make_dataclass("V", ["you", "edition"])(you, ED))


@pytest.mark.parametrize("lang", LANGS)
def test_no_unexplained_marks_and_a_capped_gain_reads_as_a_sentence(lang):
    w = words(lang)
    state, _ = new_game(["p0", "p1"], seed=2)
    board = terminal.board(w, player_view(state, "p0"), PEOPLE)
    assert "(lead)" not in board and "Deck top price" not in board
    assert table_words.lead_mark(w).strip(" ·") in board  # the lead is said as what it means
    lines = board.splitlines()
    display = lines.index("  " + table_words.display_heading(w) + ":")
    assert [line.startswith("    - ") for line in lines[display + 1:display + 6]] == [True] * 5  # one card a line
    capped = log.public_line(w, ev.PrestigeGained(player="p0", amount=0, requested=3, reason="round_end"), PEOPLE,
                             ED)
    assert "0" not in capped and "3" in capped


def test_a_hint_on_its_own_line_starts_with_a_capital_and_your_choice_is_not_told_twice():
    assert terminal.sentence(moves.reveal_prompt(words("en"), 1)).startswith("Lay down exactly 1 valid card")
    chosen = [ev.ChoiceMade(player="p0", decision="reveal"),
              ev.ChoiceRecorded(to="p0", decision="reveal", cards=["louise-17"])]
    assert log.lines(words("en"), chosen, PEOPLE, "p0", ed=ED) == ["Your choice is in: you lay down Louise 17."]
    assert log.lines(words("en"), chosen, PEOPLE, "p1", ed=ED) == ["Ada has chosen."]


def test_long_lines_are_broken_between_words():
    line = "  · " + " ".join(["Trade · Nobility · Offices"] * 8)
    out = terminal.wrapped(line, 60)
    assert all(terminal.cells(part) <= 60 for part in out.splitlines()) and len(out.splitlines()) > 1
    assert " ".join(part.strip() for part in out.splitlines()) == line.strip()  # no word cut in two
    text = io.StringIO()
    term = Terminal(io.StringIO(), text, words("en"))
    term.width = 40
    term.say("  " + "word " * 30)
    assert all(len(part) <= 40 for part in text.getvalue().splitlines())


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_count_the_unused_privileges_of_the_two_uses(lang):
    text = rules.topic(words(lang), "privileges", ED)
    assert {"en": "each one left unused", "de": "jedes ungenutzte", "it": "ogni privilegio non usato"}[lang] not in text
    assert "0, 2" in text and "4" in text


def test_the_default_name_is_in_the_players_language(tmp_path):
    out = io.StringIO()
    code = __import__("asyncio").run(run(str(tmp_path / "t.sqlite3"), 1, False, True, 5, stdin=io.StringIO(""),
                                         stdout=out, w=words("de")))
    assert code == 0 and "Spieler (du)" in out.getvalue() and "Player" not in out.getvalue()


def test_ties_below_the_win_share_their_place_and_say_why():
    over = ev.GameOver(winners=["p0"], scores={"p0": 40, "p1": 25, "p2": 25, "p3": 10}, tiebreak=None)
    assert end.places(over.scores, over.winners) == [(1, "p0", 40), (2, "p1", 25), (2, "p2", 25), (4, "p3", 10)]
    for lang in LANGS:
        w = words(lang)
        text = end.standings(w, over, PEOPLE)
        assert "2. Ben" in text and "2. Cleo" in text and "4. Dan" in text and end.tied_below(w) in text
    decided = ev.GameOver(winners=["p1"], scores={"p0": 30, "p1": 30}, tiebreak="cathedral")
    assert "Cathedral" in end.standings(words("en"), decided, PEOPLE)  # which tie-break decided (R27)


def test_the_command_line_names_the_export_command_and_the_licence_is_spdx():
    shown = subprocess.run([sys.executable, "-m", "bot.app.cli", "--help"], capture_output=True, text=True, cwd=ROOT)
    assert "/augsburg records export" in re.sub(r"\s+", " ", shown.stdout)
    pyproject = (Path(ROOT) / "pyproject.toml").read_text()
    assert 'license = "MIT"' in pyproject and "license = {" not in pyproject
    assert re.search(r'"setuptools>=(\d+)"', pyproject).group(1) >= "77"  # SPDX licences need setuptools 77
