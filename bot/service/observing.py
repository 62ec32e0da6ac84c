"""What the service tells whoever watches it from above (the operator's metrics, bot/app/metrics.py).

An object handed down (`GameService.observe`), never one reached for: by default nobody watches and each
call does nothing. The values it gets are few and bounded (no user, channel or game), ready to be labels.
"""

from __future__ import annotations

from storage import Actor, Table

# Who made a decision, as the metrics name it: a person, the bot for a person (settled ahead, their only
# option, the clock ran out), a computer playing a person's seat (stand-in, time away), or a computer's own.
BY: dict[str, str] = {"player": "person", "ahead": "ahead", "only": "only_option", "clock": "clock",
                      "stand_in": "stand_in", "away": "away"}


def decided_by(actor: Actor, table: Table, player: str) -> tuple[str, str]:
    """(who, computer level) of a move: the level is the computer's that played it ("" for a person's)."""
    seat = table.seat(player)
    if actor == "player" and seat is not None and seat.kind == "computer":
        return "computer", seat.playing_level
    if actor in ("stand_in", "away") and seat is not None:
        return BY[actor], seat.playing_level
    return BY.get(actor, actor), ""


class Observer:
    """Nobody watching: each call does nothing. bot/app/metrics.py's subclass counts."""

    def committed(self, by: str, level: str, backend: str, seconds: float) -> None:
        """A move was committed (`seconds`: the storage write), made `by` whom (decided_by)."""

    def thought(self, level: str, seconds: float) -> None:
        """A computer player of `level` chose its move in `seconds`."""
