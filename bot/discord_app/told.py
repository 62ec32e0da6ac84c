"""Whom a ping told of which decision (in memory): a lost live panel and the round of the move that lost it
may both ask for the same ping, in an order Discord's timing decides; only one goes out."""

from __future__ import annotations

from storage import GameRecord

from ..service import GameService

KEPT = 10_000  # the newest (game, player) remembered; the oldest are forgotten first


class Told:
    def __init__(self, service: GameService):
        self.service = service
        self._key: dict[tuple[int, str], str] = {}  # (game, player): the decision their last ping was for

    def not_yet(self, record: GameRecord, players: set[str]) -> set[str]:
        """Those of `players` not pinged yet for the decision they face in `record`."""
        return {p for p in players if self._key.get((record.id, p)) != self.service.games.decision(record, p).key}

    def pinged(self, record: GameRecord, players: set[str]) -> None:
        for player in players:
            self._key.pop((record.id, player), None)  # (newest last)
            self._key[(record.id, player)] = self.service.games.decision(record, player).key
        while len(self._key) > KEPT:
            del self._key[next(iter(self._key))]
