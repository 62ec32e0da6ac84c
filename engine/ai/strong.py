"""The strong level (work in progress: plays as the normal level for now)."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import ActionModel
from ..events import Event
from ..views import View
from .player import ComputerPlayer


class StrongPlayer:
    level = "strong"
    heavy = True

    def __init__(self, seed: int = 0, think_seconds: float = 1.0):
        self.seed, self.think_seconds = seed, think_seconds
        self.normal = ComputerPlayer(seed)

    def decide(self, view: View, history: Sequence[Event] = ()) -> ActionModel:
        return self.normal.decide(view)
