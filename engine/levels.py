"""The names of the computer levels: what a stored seat may hold (storage reads these, never the players
themselves, which live in engine/ai)."""

from __future__ import annotations

from typing import Literal

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")
DEFAULT_LEVEL: Level = "normal"
