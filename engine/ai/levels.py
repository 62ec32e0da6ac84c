"""The three computer levels, and the one way to make a computer player of any of them.

    from engine.ai.levels import computer
    bot = computer("strong", seed=7)
    action = bot.decide(player_view(state, "ada"), history)   # always a legal action

`history` is what this player may know of the past: the game's events that are
public or addressed to it (`visible_to`), oldest first. Only the strong player
reads it (to count the cards and money the others hold); the others ignore it.
`bot.heavy` says whether a decision may take long (the strong player plays out a
fixed amount of work, a sizeable fraction of a second; `think_seconds` is only its
safety cap): such players must be run off the event loop (a worker thread or process).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..actions import ActionModel
from ..events import Event
from ..levels import DEFAULT_LEVEL, LEVELS, Level  # (their names live in engine/levels.py)
from ..views import View
from .strong import THINK_SECONDS

# Re-exported here: DEFAULT_LEVEL, LEVELS, Level and THINK_SECONDS, beside what this module defines.
__all__ = ["DEFAULT_LEVEL", "LEVELS", "THINK_SECONDS", "Computer", "Level", "computer", "visible_to"]


class Computer(Protocol):
    level: Level
    heavy: bool

    def decide(self, view: View, history: Sequence[Event] = ()) -> ActionModel: ...


def visible_to(events: Sequence[Event], player: str) -> list[Event]:
    """The events `player` may know: the public ones and those addressed to them."""
    return [e for e in events if e.to is None or e.to == player]


def computer(level: str, seed: int, think_seconds: float = THINK_SECONDS) -> Computer:
    """A computer player of `level` (ValueError for an unknown one)."""
    if level == "normal":
        from .player import ComputerPlayer

        return ComputerPlayer(seed)
    if level == "easy":
        from .easy import EasyPlayer

        return EasyPlayer(seed)
    if level == "strong":
        from .strong import StrongPlayer

        return StrongPlayer(seed, think_seconds=think_seconds)
    raise ValueError(f"unknown computer level {level!r}")
