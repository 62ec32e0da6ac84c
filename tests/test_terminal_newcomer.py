"""`augsburg play` and `augsburg replay` as a newcomer meets them (issue 42): a number typed as '²' is refused
politely, `help` or `?` explains the question and the privileges it concerns, the game says where it is saved,
a strong computer is seen thinking, the opening reads in order (after a rematch too), the round's end is no
longer "round 1", privilege cards carry their numbers, Ctrl-C exits 130 and says nothing of resuming a game
that is over, `--resume` after a finished game keeps its computers, a picture that cannot be written stops
nothing, and a replay says a missing file in one line and ends with the standings."""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import re
import signal
import subprocess
import sys

import pytest
from conftest import ROOT

from bot.terminal import replay as replaying
from bot.terminal.game import run, saved_where
from bot.terminal.screen import Terminal
from bot.wording import ENGLISH, People, explain, log, phases, terminal, words
from engine import apply, legal_actions, new_game, player_view, spectator_view
from engine import events as ev
from engine.actions import Bid, Buy, Pass, TakeCard, Use, parse_action
from engine.editions import default
from engine.position import build

LANGS = ("en", "de", "it")
ED = default()
PEOPLE = People(name=str)


def answers(count: int) -> str:
    return "\n1\n" * count


def won_philipp(take: str | None = None):
    """Ann has won Philipp (the display: cards 3 and 8); with `take`, she has taken that card."""
    state, _ = build({"players": ["ann", "bob"], "start": "auction", "noble": "philipp", "lead": "ann",
                      "player_state": {"ann": {"hand": ["philipp-12", "maria-3", "leo-5"], "levels": {"offices": 3},
                                               "money": 5000}},
                      "privilege_display": ["3", "8"]})
    moves = [("ann", {"do": "bid", "count": 1}), ("bob", {"do": "pass"}),
             ("ann", {"do": "reveal", "cards": ["philipp-12"]})]
    if take:
        moves.append(("ann", {"do": "take_card", "card": take}))
    for player, action in moves:
        state = apply(state, player, parse_action(action)).state
    return state


def flat(text: str) -> str:
    """`text` with its long lines whole again (a terminal's lines go on below, indented)."""
    return re.sub(r"\n +", " ", text)


def ask(state, typed: str, w=ENGLISH, **options):
    out = io.StringIO()
    term = Terminal(io.StringIO(typed), out, w)
    action = term.ask(player_view(state, "ann"), legal_actions(state, "ann"), PEOPLE, **options)
    return action, flat(out.getvalue())


def game_text(tmp_path, stdin, *, code: int = 0, **options) -> str:
    out = io.StringIO()
    got = asyncio.run(run(str(tmp_path / "t.sqlite3"), options.pop("opponents", 1), options.pop("resume", False),
                          options.pop("fresh", True), options.pop("seed", 5),
                          stdin=stdin if not isinstance(stdin, str) else io.StringIO(stdin), stdout=out, **options))
    assert got == code, out.getvalue()[-2000:]
    return out.getvalue()


# --- a superscript digit, help


@pytest.mark.parametrize("typed", ["²", "①", "٣٣", "1²"])
def test_a_digit_that_is_no_number_is_refused_and_asked_again(typed):
    state, _ = build({"players": ["ann", "bob"], "start": "auction", "noble": "philipp", "lead": "ann",
                      "player_state": {"ann": {"hand": ["philipp-12", "philipp-3"]}}})
    action, text = ask(state, f"{typed}\n1\n")
    assert action == Pass() and "Traceback" not in text
    assert text.count("Please type a number from 1 to 3.") == 1 and text.count("Your choice [1-3]: ") == 2
    action, _ = ask(state, "２\n")  # a full-width 2 is a number: Python reads it as one
    assert action == Bid(count=1)


def test_a_superscript_in_a_list_of_cards_is_refused_too():
    state, _ = new_game(["ann", "bob"], seed=1)  # the purchase of the dealt cards
    bought, text = ask(state, "1 ²\n\n")
    assert "Please type numbers from the list, separated by spaces." in text and bought == Buy(cards=[])


@pytest.mark.parametrize("lang", LANGS)
def test_help_explains_the_choice_of_a_privilege_card_and_its_privileges(lang):
    w = words(lang)
    state = won_philipp()
    heading = phases.your_move(w, player_view(state, "ann"), PEOPLE)
    assert heading == w._("you won {noble}: choose a privilege card.", noble=w._("Philipp"))
    for asked in ("?", w._("help"), "HELP"):
        action, text = ask(state, f"{asked}\n1\n", w)
        assert action == TakeCard(card="3")
        shown = text[text.index("--- " + w._("Help") + " ---"):]
        for kind in ("offices", "draw2", "guilders", "prestige6"):  # cards 3 and 8: every privilege on them
            assert explain.privilege(w, kind, ED) in shown
        assert explain.answering(w, explain.ASK_NUMBER, False) in shown
        assert text.count(terminal.pick_one(w, 2)) == 2  # asked again after the help


def test_help_while_using_a_card_explains_its_privileges_and_the_undo():
    state = won_philipp(take="3")
    action, text = ask(state, "help\n1\n", undo=True)
    assert isinstance(action, Use)
    assert "You are using your privilege card" in text and "each of those two uses you leave out brings 2 " \
        "prestige" in text.lower()
    minter = ED.tile_min_level["minter"]
    assert "Offices: climb a step in Offices" in text and f"Minter (from Offices level {minter}:" in text
    assert "draw 2, discard 1: draw 2 cards from the deck" in text and "u takes back your last decision." in text
    assert "Nobility: climb" not in text  # only the privileges the card holds


def test_help_at_the_purchase_and_in_an_auction(tmp_path):
    text = game_text(tmp_path, "?\n1 2 3\nhelp\n" + answers(2), opponents=1, seed=5)
    first = text.index("--- Help ---")
    assert "Buying: you were dealt debt cards" in text[first:first + 600]
    assert "Type the numbers of the cards to buy" in text[first:first + 900]
    assert "Bids count cards, not values." in text  # the auction's help: the rules' words for it
    assert "What their privileges do:" in text and "Please type" not in text[:text.index("Bids count")]


# --- the opening, where the game is saved, the offered cards once


def test_the_opening_reads_in_order_and_says_where_the_game_is_saved(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "10000")  # each line whole
    out = io.StringIO()
    assert asyncio.run(run("t.sqlite3", 2, False, True, 5, stdin=io.StringIO(""), stdout=out)) == 0
    lines = out.getvalue().splitlines()
    where = str(tmp_path / "t.sqlite3")  # a relative --database, said as a full path
    assert lines[:5] == [f"Your game is saved in {where} after every move.",
                         "Type help or ? at any question to have it explained.",
                         "Your opponents: Computer 1 (Normal), Computer 2 (Normal).",
                         "Edition: Rulebook + estimates (v1)", "  · The game begins: 5 rounds; Computer 2 starts."]
    assert "offered to you" not in out.getvalue().lower()  # listed once: by the question to buy them
    assert out.getvalue().count("  1. Philipp 6 (250 guilders)") == 1
    assert lines[-1] == (
        f"Input ended; your game is saved in {where}. Continue with `augsburg play --resume`.")


def test_a_database_url_is_named_without_its_password():
    class Service:
        kind, where = "postgresql", "postgresql://ada:***@db.example/augsburg"

    assert saved_where(Service()) == "postgresql://ada:***@db.example/augsburg"  # (storage hides the password)


class Rematch(io.StringIO):
    """Answers every question with Enter or 1, 'y' at the first question after a game and 'n' at the next."""

    def __init__(self, out: io.StringIO):
        super().__init__()
        self.out, self.games, self.turn = out, 0, 0

    def readline(self, *args) -> str:
        if self.out.getvalue().endswith("(y/n) "):
            self.games += 1
            return "y\n" if self.games == 1 else "n\n"
        self.turn += 1
        return "\n" if self.turn % 2 else "1\n"


def test_a_rematch_opens_with_its_heading_and_its_opening_lines(tmp_path):
    out = io.StringIO()
    code = asyncio.run(run(str(tmp_path / "t.sqlite3"), 1, False, True, 3, stdin=Rematch(out), stdout=out,
                           levels=["easy"]))
    text = out.getvalue()
    assert code == 0 and text.count("=== Final standings ===") == 2
    second = text[text.index("A new game with the same players, dealt anew."):]
    heading, opening = second.index("Your opponents: Computer 1 (Easy)."), second.index("  · The game begins")
    assert heading < second.index("Edition: ") < opening < second.index("=== Augsburg 1520 — round 1 of 4 ===")


# --- the round's end, numbered privilege cards, the unused privileges' prestige


def test_the_purchase_after_a_round_is_headed_by_the_end_of_that_round(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "10000")
    text = game_text(tmp_path, answers(20_000), opponents=2)
    boards = re.findall(r"=== Augsburg 1520 — (.*) ===\n(?:.*\n)*?Your move — (.*)", text)
    after = [title for title, move in boards if move == "buy from the cards offered to you."]
    assert after == [f"end of round {n} of 5" for n in range(1, 5)]
    assert all(title.startswith("round ") for title, move in boards if move.startswith("auction"))
    display = re.findall(r"^    - (.*)$", text, re.M)
    assert display and all(re.match(r"Card \d+: \S", card) for card in display)  # numbered, as on the picture
    assert re.search(r"leaves \d privileges? unused: \+\d+ prestige\.", text)


def test_the_privilege_cards_to_choose_from_are_named_by_their_numbers():
    _, text = ask(won_philipp(), "1\n")
    assert "  1. Card 3: Offices · Offices · draw 2, discard 1 2. Card 8: +500 guilders · +6 prestige · draw 2, " \
           "discard 1\nYour choice [1-2]: " in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_log_says_what_unused_privileges_bring(lang):
    w = words(lang)
    line = log.public_line(w, ev.PrivilegesDeclined(player="Ada", count=2), People(name=str), ED)
    assert line is not None and w.prestige(4) in line and "Ada" in line


def test_the_last_board_names_nobody_to_open_the_next_auction():
    view = spectator_view(won_philipp(take="3"))
    over = view.model_copy(update={"phase": "game_over"})
    assert "opens the next auction" in terminal.public_board(ENGLISH, view, PEOPLE)
    assert "opens the next auction" not in terminal.public_board(ENGLISH, over, PEOPLE)


# --- a strong computer thinking


class Screen(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_strong_computer_is_seen_thinking(tmp_path):
    text = game_text(tmp_path, "\n", levels=["strong"], seed=4)  # buy nothing, then the input ends
    assert "Computer 1 is thinking…\n" in text  # not a terminal: a line of its own
    out = Screen()
    assert asyncio.run(run(str(tmp_path / "s.sqlite3"), 1, False, True, 4, stdin=io.StringIO("\n"), stdout=out,
                           levels=["strong"])) == 0
    shown = out.getvalue()  # a terminal: the line stays until what comes next replaces it
    assert "Computer 1 is thinking…\r\x1b[K" in shown and "Computer 1 is thinking…\n" not in shown
    assert "is thinking" not in game_text(tmp_path, "\n", levels=["normal"], seed=4)  # a normal one: at once


# --- Ctrl-C, --resume after the end


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_while_a_computer_thinks_exits_130_and_says_where_the_game_is(tmp_path):
    database = tmp_path / "t.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "bot.app.cli", "play", "--database", str(database), "--level",
                             "strong", "--opponents", "2", "--seed", "4"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, preexec_fn=_default_sigint,
                            env={**os.environ, "COLUMNS": "10000"})
    text = b""
    while b"is thinking" not in text:
        chunk = os.read(proc.stdout.fileno(), 65536)
        assert chunk, text
        text += chunk
        if text.endswith(b": "):
            proc.stdin.write(b"\n")
            proc.stdin.flush()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"Traceback" not in err, err[-2000:]
    assert f"Stopped; your game is saved in {database}. Continue with `".encode() in out


class StopAtTheEnd(io.StringIO):
    """Answers every question with Enter or 1; Ctrl-C at the question after the game."""

    def __init__(self, out: io.StringIO):
        super().__init__()
        self.out, self.turn = out, 0

    def readline(self, *args) -> str:
        if self.out.getvalue().endswith("(y/n) "):
            raise KeyboardInterrupt
        self.turn += 1
        return "\n" if self.turn % 2 else "1\n"


def test_ctrl_c_after_the_game_says_nothing_of_resuming_it_and_resume_keeps_its_computers(tmp_path):
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        asyncio.run(run(str(tmp_path / "t.sqlite3"), 1, False, True, 3, stdin=StopAtTheEnd(out), stdout=out,
                        levels=["easy"]))
    after = out.getvalue()[out.getvalue().index("(y/n) "):]
    assert after.strip() == "(y/n)" and "resume" not in after.lower()
    text = game_text(tmp_path, "", opponents=3, resume=True, fresh=False, seed=None)
    assert "Your last game is over; a new one starts with the same computer players." in text
    assert "Your opponents: Computer 1 (Easy)." in text  # not 3 computers at normal, as the command's defaults
    assert "There is no saved game" not in text


def test_ctrl_c_in_a_replay_exits_130(monkeypatch, capsys):
    def interrupted(*args, **options) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(replaying, "replay", interrupted)
    args = argparse.Namespace(file="game.json", all=False, reveal=False, lang="en")
    assert replaying.main(args) == 130 and "Replay stopped." in capsys.readouterr().out


# --- a picture that cannot be written


@pytest.mark.parametrize("where", ["folder", "missing/table.png"])
def test_a_picture_that_cannot_be_written_is_said_once_and_the_game_goes_on(tmp_path, monkeypatch, where):
    monkeypatch.setenv("COLUMNS", "10000")
    (tmp_path / "folder").mkdir()
    target = tmp_path / where
    text = game_text(tmp_path, answers(20_000), picture=str(target))
    [line] = [line for line in text.splitlines() if line.startswith("The picture")]
    assert line.startswith(f"The picture cannot be written to {target} (") and line.endswith("goes on without it.")
    assert "=== Final standings ===" in text
    left = sorted(p.name for p in tmp_path.rglob("*") if not p.name.startswith("t.sqlite3"))
    assert left == ["folder"]  # no part-written file, here or anywhere else


# --- replay


def test_a_replay_of_a_missing_file_says_so_in_one_line(tmp_path):
    out = io.StringIO()
    assert replaying.replay(str(tmp_path / "nope.json"), stdout=out) == 2
    assert out.getvalue() == f"No such file: {tmp_path / 'nope.json'}\n"
    out = io.StringIO()
    assert replaying.replay(str(tmp_path), stdout=out, w=words("de")) == 2
    assert out.getvalue().startswith(f"{tmp_path} kann nicht gelesen werden: ") and out.getvalue().count("\n") == 1
