"""The easy level (work in progress: plays as the normal level for now)."""

from __future__ import annotations

from .player import ComputerPlayer


class EasyPlayer(ComputerPlayer):
    level = "easy"
