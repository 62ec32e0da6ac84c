"""`augsburg play`: the whole game in a terminal with piped input, saved and resumed (issue 5)."""

from __future__ import annotations

import asyncio
import io
import random
import subprocess
import sys

from conftest import ROOT

from storage import Store


def answers(seed: int, count: int) -> str:
    """A player who types a mix of sensible and silly things."""
    rnd = random.Random(seed)
    pool = ["1", "2", "3", "", "1 2", "2 1", "4", "abc", "99", "1 1", "5"]
    return "\n".join(rnd.choice(pool) for _ in range(count)) + "\n"


def play(tmp_path, *args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot.app.cli", "play", "--database", str(tmp_path / "t.sqlite3"), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


async def stored_games(path):
    store = await Store.open(path)
    try:
        return await store.log.export_game(1), await store.games.load_channel(0)
    finally:
        await store.close()


def test_a_whole_game_with_piped_input(tmp_path):
    out = play(tmp_path, "--opponents", "2", "--seed", "7", stdin=answers(1, 40_000))
    assert out.returncode == 0, out.stderr[-2000:]
    text = out.stdout
    assert "=== Final standings ===" in text and ("You win!" in text or "computer player wins" in text)
    assert "Your money:" in text and "Your hand" in text and "Trade" in text
    assert "Please type" in text or "Please choose" in text  # silly input was refused politely
    assert "Traceback" not in text + out.stderr
    history, open_game = asyncio.run(stored_games(tmp_path / "t.sqlite3"))
    assert history["status"] == "finished" and open_game is None
    # Only the human's own cards are ever shown: no other hand appears in the output.
    assert "Computer 1's hand" not in text


def test_stop_and_resume(tmp_path):
    first = play(tmp_path, "--opponents", "1", "--seed", "3", stdin=answers(2, 10))
    assert first.returncode == 0 and "your game is saved" in first.stdout
    again = play(tmp_path, "--opponents", "1", stdin="")
    assert again.returncode == 1 and "--resume" in again.stdout
    resumed = play(tmp_path, "--resume", stdin=answers(3, 40_000))
    assert resumed.returncode == 0 and "Resuming your game" in resumed.stdout
    assert "=== Final standings ===" in resumed.stdout


class _Player(io.StringIO):
    """Typed answers: at the question after a game, 'y' the first time and 'n' then; elsewhere a mix of
    sensible and silly things."""

    def __init__(self, out: io.StringIO, seed: int):
        super().__init__()
        self.out, self.rnd, self.rematches = out, random.Random(seed), 0

    def readline(self, *args) -> str:
        if self.out.getvalue().endswith("(y/n) "):
            self.rematches += 1
            return "y\n" if self.rematches == 1 else "n\n"
        return self.rnd.choice(["1", "2", "3", "", "1 2", "4", "abc", "y"]) + "\n"


def test_a_rematch_in_the_terminal_deals_a_new_game_with_the_same_computers(tmp_path):
    from bot.terminal.game import run
    from bot.wording import words

    out = io.StringIO()
    player = _Player(out, 4)
    code = asyncio.run(run(str(tmp_path / "t.sqlite3"), 2, False, True, 9, stdin=player, stdout=out, w=words("en"),
                           levels=["easy", "strong"]))
    text = out.getvalue()
    assert code == 0 and player.rematches == 2 and text.count("=== Final standings ===") == 2
    assert "A new game with the same players, dealt anew." in text and "Traceback" not in text

    async def games():
        store = await Store.open(tmp_path / "t.sqlite3")
        try:
            return [await store.games.load_game(n) for n in (1, 2)]
        finally:
            await store.close()

    first, second = asyncio.run(games())
    assert first.status == second.status == "finished" and second.table.rematch_of == first.id
    assert [(s.id, s.level) for s in second.table.seats[1:]] == [("ai1", "easy"), ("ai2", "strong")]
    assert second.table.seed != first.table.seed  # dealt anew


def test_the_terminal_offers_to_take_back_your_last_decision_as_discord_does(tmp_path):
    """Issue 29, point 1 in the terminal: "u" is offered only while engine/undo.py allows it, and goes through
    the service's take_back (a TakeBack row in the log; the decision stays there, marked taken back)."""
    rnd = random.Random(3)
    pool = ["1", "2", "3", "", "1 2", "u", "u", "u"]
    out = play(tmp_path, "--opponents", "1", "--seed", "5", stdin="\n".join(rnd.choice(pool) for _ in range(40_000)))
    assert out.returncode == 0, out.stderr[-2000:]
    text = out.stdout
    assert "Traceback" not in text + out.stderr and "=== Final standings ===" in text
    offered = text.count("u. Take back my last decision")
    history, _ = asyncio.run(stored_games(tmp_path / "t.sqlite3"))
    taken = [a for a in history["actions"] if a["action"].get("do") == "take_back"]
    assert offered and taken and len(taken) <= offered
    assert all(a["player"] == "you" for a in taken)
    assert "took back" in text
