"""`augsburg play` as a player sees it (issues 13, 27): one Ctrl-C stops the game and says how to go on as it
was started, cards read in order, options numbered once from 1, a single option is not asked for, names fit
their column."""

from __future__ import annotations

import asyncio
import io
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import time

from conftest import ROOT

from bot.app.cli import as_typed
from bot.terminal.game import run
from bot.terminal.screen import Terminal
from bot.wording import ENGLISH, People, terminal
from engine import apply, legal_actions, player_view
from engine.actions import Done, Use, parse_action
from engine.position import build

NOBLES = ["Philipp", "Louise", "Leo", "Maria"]
LONG = "Maximiliana von Hohenzollern-Sigmaringen"


def answers(count: int) -> str:
    """Enter, then 1, again and again: every prompt is answered sooner or later (Enter buys nothing, lays down
    the suggested cards; a refused answer is asked again)."""
    return "\n1\n" * count


def game_text(tmp_path, stdin: str, **options) -> str:
    out = io.StringIO()
    code = asyncio.run(run(str(tmp_path / "t.sqlite3"), options.pop("opponents", 2), False, True,
                           options.pop("seed", 5), stdin=io.StringIO(stdin), stdout=out, **options))
    assert code == 0
    return out.getvalue()


# --- 1. Ctrl-C


def _default_sigint() -> None:  # a shell may start background jobs with Ctrl-C ignored; a terminal does not
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(tmp_path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "bot.app.cli", "play", "--database", str(tmp_path / "t.sqlite3"),
                             *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            preexec_fn=_default_sigint)


def until_prompt(proc: subprocess.Popen, timeout: float = 60) -> str:
    """Everything written until the game waits at a prompt (its output then ends in ': ')."""
    text, deadline = b"", time.monotonic() + timeout
    while not text.endswith(b": "):
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
        chunk = os.read(proc.stdout.fileno(), 65536) if ready else b""
        assert chunk, f"no prompt came: {text[-1000:]!r}"
        text += chunk
    return text.decode()


def test_one_ctrl_c_at_a_prompt_stops_the_game_and_resume_continues_it(tmp_path):
    proc = start(tmp_path, "--opponents", "1", "--seed", "3")
    try:
        until_prompt(proc)
        proc.stdin.write(b"\n")  # buy nothing: one move made and saved
        proc.stdin.flush()
        waiting = until_prompt(proc)
        asked = re.findall(r"Your move — (.*)", waiting)[-1]
        proc.send_signal(signal.SIGINT)  # once, with the input still open: nothing else would end the prompt
        proc.wait(timeout=60)  # without another line of input: at once, whatever the machine's load
        rest = re.sub(r"\n +", " ", proc.stdout.read().decode())  # a long line goes on, indented, below
    finally:
        proc.kill()
        proc.communicate()
    assert proc.returncode == 130  # as a shell reports a program stopped by Ctrl-C (128 + SIGINT)
    [(where, typed)] = re.findall(r"Stopped; your game is saved in (.+)\. Continue with `(.+)`\.", rest)
    assert where == str(tmp_path / "t.sqlite3")  # the file's full path
    assert "Input ended" not in rest
    assert typed.endswith(f"-m bot.app.cli play --database {tmp_path / 't.sqlite3'} --resume")  # as it was started
    resumed = subprocess.run(shlex.split(typed), input=answers(20_000), capture_output=True, text=True, timeout=120,
                             cwd=ROOT)  # the line works as typed
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert "Resuming your game (round 1)." in resumed.stdout
    assert re.findall(r"Your move — (.*)", resumed.stdout)[0] == asked  # the same question, the purchase kept
    assert "=== Final standings ===" in resumed.stdout and "Traceback" not in resumed.stderr


# --- 2. the order of cards


def card_key(name: str) -> tuple:
    """How a reader expects a hand: by noble in the game's order, then by value, jokers last."""
    if name == "Joker":
        return (1, 0, 0)
    noble, value = name.rsplit(" ", 1)
    return (0, NOBLES.index(noble), int(value))


def test_the_hand_reads_by_noble_and_value_with_jokers_last():
    state, _ = build({"players": ["ann", "bob"], "start": "auction", "noble": "philipp", "lead": "ann",
                      "player_state": {"ann": {"hand": ["philipp-15", "joker", "philipp-2", "maria-3", "leo-9",
                                                        "philipp-9"]}}})
    board = terminal.board(ENGLISH, player_view(state, "ann"), People(name=str))
    assert "Your hand (6 cards): Philipp 2, Philipp 9, Philipp 15, Leo 9, Maria 3, Joker" in board


def test_every_list_of_your_cards_in_a_game_is_in_that_order(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "10000")  # each list on one line
    text = game_text(tmp_path, answers(20_000))
    lists = [m.split(", ") for m in re.findall(r"Your hand \(\d+ cards?\): (.+)", text)]
    lists += [re.sub(r" \([\d,]+ guilders[^)]*\)", "", m).split(", ")
              for m in re.findall(r"(?:Offered to you|Cards offered to you): (.+?)\.?$", text, re.M)]
    numbered = re.findall(r"Which cards do you buy\?.*\n((?:  \d+\. .*\n)+)", text)
    lists += [re.findall(r"\d+\. (.+?) \(", block) for block in numbered]
    assert len(lists) > 12 and numbered  # (the cards offered to you are listed once: by the question to buy them)
    for cards in lists:
        assert cards == sorted(cards, key=card_key), cards


# --- 3. option numbers while a privilege card is used; 4. a single option


def privilege_turn():
    """Ann (Offices 3, money for any tile) has won Philipp and taken card 3: Offices · Offices · draw 2."""
    state, _ = build({"players": ["ann", "bob"], "start": "auction", "noble": "philipp", "lead": "ann",
                      "player_state": {"ann": {"hand": ["philipp-12", "maria-3", "leo-5"], "levels": {"offices": 3},
                                               "money": 5000}},
                      "privilege_display": ["3"]})
    moves = [("ann", {"do": "bid", "count": 1}), ("bob", {"do": "pass"}),
             ("ann", {"do": "reveal", "cards": ["philipp-12"]}), ("ann", {"do": "take_card", "card": "3"})]
    for player, action in moves:
        state = apply(state, player, parse_action(action)).state
    return state


def shown(text: str) -> dict[int, str]:
    return {int(n): label for n, label in re.findall(r"^  (\d+)\. (.+)$", text, re.M)}


def ask(term: Terminal, out: io.StringIO, state, typed: str, **options):
    term.stdin = io.StringIO(typed)
    out.seek(0), out.truncate()
    action = term.ask(player_view(state, "ann"), legal_actions(state, "ann"), People(name=str), **options)
    return action, out.getvalue()


def test_options_are_numbered_once_from_1_without_gaps_while_you_use_a_privilege_card():
    state, out = privilege_turn(), io.StringIO()
    term = Terminal(io.StringIO(), out, ENGLISH)
    _, first = ask(term, out, state, "")
    before = shown(first)
    assert list(before) == list(range(1, len(before) + 1)) and f"Your choice [1-{len(before)}]: " in first
    assert not any(re.match(r"\d+\. ", label) for label in before.values()), "one number per line, not two"
    assert list(before.values()).count("Offices: climb a step") == 1  # the card's two Offices do the same
    climb = next(n for n, label in before.items() if label == "Offices: climb a step")
    action, _ = ask(term, out, state, f"{climb}\n")
    state = apply(state, "ann", action).state  # now Offices 4: no second climb, but a Master Builder
    _, second = ask(term, out, state, "")
    after = shown(second)
    assert list(after) == list(range(1, len(after) + 1)) and f"Your choice [1-{len(after)}]: " in second
    assert "Offices: climb a step" not in after.values() and any("Master Builder" in v for v in after.values())
    draw = next(n for n, label in after.items() if label.endswith("draw 2, discard 1"))
    action, _ = ask(term, out, state, f"{draw}\n")
    assert action == Use(slot=2)
    state = apply(state, "ann", action).state
    _, discard = ask(term, out, state, "")  # another decision: numbered from 1, your cards in order
    cards = [re.sub(r"^Discard | \(.*$", "", label) for label in shown(discard).values()]
    assert list(shown(discard)) == list(range(1, len(cards) + 1)) and cards == sorted(cards, key=card_key)


def test_the_lines_on_how_to_go_on_name_the_command_as_it_was_started(tmp_path, monkeypatch):
    assert as_typed(".venv/bin/augsburg") == ".venv/bin/augsburg play"  # the README's install: not on PATH
    assert as_typed(".venv/bin/augsburg", "games.sqlite3") == ".venv/bin/augsburg play --database games.sqlite3"
    found = tmp_path / "bin" / "augsburg"
    found.parent.mkdir()
    found.write_text("#!/bin/sh\n")
    found.chmod(0o755)
    monkeypatch.setenv("PATH", str(found.parent))
    assert as_typed(str(found)) == "augsburg play"  # the shell finds it by its name
    assert terminal.stopped(ENGLISH, ".venv/bin/augsburg play --resume", "/home/ada/augsburg.sqlite3") == (
        "Stopped; your game is saved in /home/ada/augsburg.sqlite3. Continue with `.venv/bin/augsburg play "
        "--resume`.")


def test_a_single_option_is_taken_without_asking():
    state = privilege_turn()
    for slot in (0, 1):
        state = apply(state, "ann", Use(slot=slot, as_="minter" if slot else "step")).state
    assert legal_actions(state, "ann") == [Done()]
    out = io.StringIO()
    term = Terminal(io.StringIO(), out, ENGLISH)  # nothing to read: asking would end the game
    action, text = ask(term, out, state, "")
    assert action == Done() and text == "Your only choice: Finish card.\n"
    action, text = ask(term, out, state, "1\n", auto=False)  # after a refusal it asks, so as not to repeat it
    assert action == Done() and "Your choice [1]: " in text


def test_a_whole_game_never_waits_for_a_single_option(tmp_path):
    text = game_text(tmp_path, answers(20_000))
    assert "Your only choice: " in text and "Your choice [1]: " not in text


# --- 5. names in the board's columns


def rows(text: str) -> list[list[str]]:
    """The player rows of each board shown."""
    blocks = re.findall(r"=== Augsburg 1520 — .*\n((?:  (?!Privilege).*\n)+)", text)
    return [[row for row in block.splitlines() if not row.startswith("   ")] for block in blocks]  # not wrapped rest


def starts(row: str, name: str) -> list[int]:
    """Where the score and the levels begin, in terminal columns."""
    rest = row[2 + len(name):]
    score = 2 + len(name) + len(rest) - len(rest.lstrip())
    return [terminal.cells(row[:score]), terminal.cells(row[:row.index("Trade")])]


def test_a_long_name_is_cut_and_the_board_stays_aligned(tmp_path):
    text = game_text(tmp_path, answers(20_000), name=LONG, opponents=3)
    boards = rows(text)
    assert boards and all(len(board) == 4 for board in boards)
    names = ["Maximiliana von Hohenzo… (you)", "Computer 1", "Computer 2", "Computer 3"]
    for board in boards:
        assert [starts(row, name) for row, name in zip(board, names)] == [starts(board[0], names[0])] * 4
    assert all(row.startswith("  " + names[0] + "  ") for row in next(zip(*boards)))
    assert LONG in text  # the log still names you in full
    final = text[text.index("=== Final standings ==="):].splitlines()[1:5]
    assert len({re.search(r"\d+ prestige", row).start() for row in final}) == 1 and names[0] in "".join(final)


def test_names_fit_their_column_by_terminal_width():
    assert terminal.short_name("A" * 24) == "A" * 24 and terminal.short_name("A" * 25) == "A" * 23 + "…"
    assert terminal.cells(terminal.short_name("山田" * 20)) <= 24
    lines = terminal.columns([("山田太郎", "0 prestige", "x"), ("Bob", "12 prestige", "y")])
    assert [terminal.cells(line[:re.search(r"\d", line).start()]) for line in lines] == [12, 12]
    assert [terminal.cells(line[:-1]) for line in lines] == [25, 25]


def test_a_lay_down_with_one_choice_is_made_for_you_and_never_asked(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "10000")
    text = game_text(tmp_path, "1 2 3\n2\n\n" * 20_000)  # buys cards and bids, so it comes to lay-downs
    assert "Your only choice: Lay down: " in text, "some lay-downs had one choice"
    asked = re.findall(r"Lay down exactly (\d+) valid cards?.*\n((?:  \d+\. .*\n)+)", text)
    assert asked, "and others a real one"
    for count, listed in asked:
        assert len(listed.splitlines()) > int(count)  # listed no more than it asks for: it would be the only set
