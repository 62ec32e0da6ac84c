"""Whom a ping told of which decision (in memory): a lost live panel and the round of the move that lost it
may both ask for the same ping, in an order Discord's timing decides; only one goes out."""

from __future__ import annotations

from storage import GameRecord

from ..service import decision_key

KEPT = 10_000  # the newest (game, player) remembered; the oldest are forgotten first


class Told:
    def __init__(self) -> None:
        self._key: dict[tuple[int, str], str] = {}  # (game, player): the decision their last ping was for

    def not_yet(self, record: GameRecord, players: set[str]) -> set[str]:
        """Those of `players` not pinged yet for the decision they face in `record`."""
        key = _key(record)
        return {p for p in players if self._key.get((record.id, p)) != key}

    def pinged(self, record: GameRecord, players: set[str]) -> None:
        key = _key(record)
        for player in players:
            self._key.pop((record.id, player), None)  # (newest last)
            self._key[(record.id, player)] = key
        while len(self._key) > KEPT:
            del self._key[next(iter(self._key))]


def _key(record: GameRecord) -> str:
    """The decision everyone due faces in `record` (a player's decision's key: the same for each, and
    without working out their whole view)."""
    assert record.state is not None, "a ping is about a started game"
    return decision_key(record.state)
