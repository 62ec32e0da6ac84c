"""`augsburg replay FILE [--all] [--reveal]`: an exported game (bot/service/export.py), step by step.

A finished game's file holds its seed and actions: the engine plays it again
move by move, with the edition and rules version the file carries (a file of
version 1, from before games recorded theirs: the legacy edition), and the
replay checks that it ends with the state the file stored. Only public
information is shown, unless `--reveal` asks for every hand (a finished game
only). Any other file holds the public log alone, which is told move by move,
then the table as everyone saw it last.
"""

from __future__ import annotations

import argparse
import errno
import json
import locale
import os
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from engine import Event, View, parse_action, spectator_view
from engine.edition import Edition, EditionError, parse_edition
from engine.editions import legacy
from engine.state import RULES_PLAYED, GameState
from engine.undo import History
from storage import ENTRY, LoggedMove, Seat

from ..service.export import FORMAT, VERSION
from ..wording import ENGLISH, People, Words, history, log, names, rules
from ..wording import replay as words
from ..wording import words as language
from ..wording.terminal import final as standings
from .screen import STOPPED, Terminal

READS = (1, VERSION)  # the file versions this program replays


class BadFile(ValueError):
    pass


class Unreadable(OSError):
    """The file cannot be read at all (it is not there, or is a folder, or not ours to read)."""


def read_file(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise Unreadable(exc.errno, exc.strerror) from exc
    except ValueError as exc:
        raise BadFile(str(exc)) from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadFile(f"no \"format\": \"{FORMAT}\"")
    if data.get("version") not in READS:
        raise BadFile(f"version {data.get('version')!r}, this program reads {', '.join(map(str, READS))}")
    return data


def edition_of(data: dict[str, Any]) -> tuple[Edition, int]:
    """The edition and rules version the file's game was played with: the file's own, checked against the
    sha256 it names (version 1 files: the legacy edition, rules 1). BadFile if it cannot be trusted."""
    if data["version"] == 1:
        return legacy(), 1
    given = data.get("edition")
    if not isinstance(given, dict) or not isinstance(given.get("toml"), str):
        raise BadFile("the file does not say which edition its game was played with")
    try:
        edition = parse_edition(given["toml"], "the file's edition")
    except EditionError as exc:
        raise BadFile(str(exc)) from None
    if (edition.id, edition.sha256) != (given.get("id"), given.get("sha256")):
        raise BadFile(f"the file's edition is not the one it names ({given.get('id')!r}, "
                      f"sha256 {str(given.get('sha256'))[:12]}…)")
    rules = given.get("rules")
    if rules not in RULES_PLAYED:
        raise BadFile(f"the game follows rules version {rules!r}; this program plays {sorted(RULES_PLAYED)}")
    return edition, rules


def people_of(w: Words, data: dict[str, Any]) -> People:
    seats = {p["id"]: Seat(id=p["id"], name=p.get("name") or "", kind=p.get("kind", "human"),
                           number=p.get("number")) for p in data["players"]}
    return People(name=lambda player: names.seat(w, seats[player]) if player in seats else player)


class Replay:
    def __init__(self, data: dict[str, Any], term: Terminal, *, step: bool, reveal: bool):
        self.data, self.term, self.w = data, term, term.w
        self.edition, self.rules = edition_of(data) if data.get("table") is not None else (legacy(), 1)
        self.step, self.reveal = step, reveal
        self.people = people_of(self.w, data)

    def pause(self) -> bool:
        """Wait for Enter when stepping; False when the reader stops (q, or the end of input)."""
        if not self.step:
            return True
        answer = self.term.read("> ")
        return answer is not None and answer.lower() not in ("q", "quit")

    def run(self) -> GameState | None:
        w, data = self.w, self.data
        self.term.say(words.title(w, data["game"], [self.people.name(p["id"]) for p in data["players"]]))
        if data.get("table") is not None:
            self.term.say(rules.edition_line(w, self.edition))
        if self.reveal and not data.get("complete"):
            self.term.say(words.no_reveal(w))
        if self.step:
            self.term.say(words.how_to_step(w))
        if data.get("complete"):
            return self._whole()
        self._public()
        return None

    def _whole(self) -> GameState | None:
        """Play the finished game again from its seed; the final state as the engine reaches it."""
        w, data = self.w, self.data
        ids = [p["id"] for p in data["players"]]
        history = History(ids, data["seed"], data.get("start_player"), self.edition, self.rules)  # undos too
        state, events = history.state, history.deal
        self.term.say(words.deal_heading(w))
        self._tell(events, state)
        for entry in data["actions"]:
            if not self.pause():
                self.term.say(words.stopped(w))
                return None
            result = history.play(entry["player"], parse_action(entry["action"]),
                                  by_player=entry.get("actor", "player") == "player")
            if not result.ok:
                raise BadFile(f"move {entry['move']} is refused by the rules: {result.code}")
            state = result.state
            self.term.say(words.move_heading(w, entry["move"], self.people.name(entry["player"])))
            self._tell(result.events, state)
        self.term.say(words.public_board(w, spectator_view(state), self.people))
        stored = data.get("state")
        if stored is not None:
            self.term.say(words.same_end(w, GameState.model_validate(stored) == state))
        if state.winners is not None:  # the game's end: its standings, as the game itself showed them
            self.term.say(standings(w, {p.id: p.score for p in state.players}, state.winners, self.people))
        return state

    def _tell(self, events: Iterable[Event], state: GameState) -> None:
        for line in log.lines(self.w, events, self.people, None, ed=self.edition):
            self.term.say(f"  · {line}")
        if self.reveal:
            self.term.say(words.hands(self.w, state, self.people))

    def _public(self) -> None:
        w, data = self.w, self.data
        self.term.say(words.public_only(w))
        for i, entry in enumerate(data["log"]):
            if i and not self.pause():
                self.term.say(words.stopped(w))
                return None
            move = LoggedMove(entry["move"], entry.get("player"), entry.get("actor", "player"),
                              [ENTRY.validate_python(e) for e in entry["entries"]], 0.0)
            if move.player is not None:
                self.term.say(words.move_heading(w, move.move, self.people.name(move.player)))
            else:
                self.term.say(words.deal_heading(w))
            for line in history.move_lines(w, move, self.people, None, ed=self.edition):
                self.term.say(f"  · {line}")
        if data.get("table") is not None:
            self.term.say(words.public_board(w, View.model_validate(data["table"]), self.people))
        return None


def replay(path: str, *, step: bool = True, reveal: bool = False, stdin: TextIO | None = None,
           stdout: TextIO | None = None, w: Words = ENGLISH) -> int:
    term = Terminal(stdin or sys.stdin, stdout or sys.stdout, w)
    try:
        data = read_file(path)
        Replay(data, term, step=step, reveal=reveal).run()
    except Unreadable as exc:
        if exc.errno == errno.ENOENT:
            term.say(words.no_such_file(w, path))
        else:
            term.say(words.cannot_read(w, path, exc.strerror or ""))
        return 2
    except (BadFile, KeyError, TypeError, ValueError) as exc:
        term.say(words.unreadable(w, str(exc)))
        return 2
    return 0


def main(args: argparse.Namespace) -> int:
    w = language(args.lang or locale.getlocale(locale.LC_MESSAGES)[0] or os.environ.get("LANG"))
    try:
        return replay(args.file, step=not args.all, reveal=args.reveal, w=w)
    except KeyboardInterrupt:
        print("\n" + words.stopped(w))
        return STOPPED
