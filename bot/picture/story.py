"""What the table's picture needs beyond the view, read from the game's public log: who won each noble in
the round under way, and, once the game is over, where each player's prestige came from."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from storage import LoggedMove


@dataclass(frozen=True)
class Story:
    won: dict[str, str | None] = field(default_factory=dict)  # noble -> its winner this round (None: nobody)
    prestige: dict[str, dict[str, int]] = field(default_factory=dict)  # player -> source -> points


def story(moves: Iterable[LoggedMove]) -> Story:
    """From `storage.LoggedMove`s (the whole game, or at least the round under way): public entries only."""
    won: dict[str, str | None] = {}
    prestige: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for move in moves:
        for e in move.entries:
            if e.type == "round_started":
                won = {}
            elif e.type == "auction_won":
                won[e.noble] = e.player
            elif e.type == "auction_skipped":
                won[e.noble] = None
            elif e.type == "prestige_gained":
                prestige[e.player][e.reason] += e.amount
    return Story(won, {p: dict(s) for p, s in prestige.items()})
