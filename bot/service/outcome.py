"""What the service answers: an Outcome, and a Notice (a refusal as a code) for the person who asked.

An outcome carries what a front-end shows after it (`due`: who must decide now, whether the bot moves
someone, and each person's decision as a panel renders it), computed by the service's own rules
(showing.py) the first time a front-end asks, so no front-end re-derives the rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine import Event
from engine.actions import ActionModel
from storage import GameRecord

from .showing import Due, due_of

MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass(frozen=True)
class Notice:
    """What to tell the person who asked, as a code with parameters (bot/wording/notices.py words it)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class Outcome:
    """What one request did; `notice` (a refusal) is for the requesting person only."""

    ok: bool
    notice: Notice | None = None
    record: GameRecord | None = None
    events: list[Event] = field(default_factory=list)
    previous_to_act: list[str] = field(default_factory=list)
    player: str | None = None  # a move's: whose it was, who made it (storage.Actor) and what it was
    actor: str | None = None
    action: ActionModel | None = None
    undo: int | None = None  # a decision just made that an Undo button may offer to take back (its move)

    @cached_property
    def due(self) -> Due:
        """Who is due in the game as it stands after this request (nobody if there is no game)."""
        return due_of(self.record)


def refuse(code: str, record: GameRecord | None = None, **params: Any) -> Outcome:
    return Outcome(False, Notice(code, params), record)
