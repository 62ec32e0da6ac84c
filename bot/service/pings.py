"""Pings put off: a person watching their panel (bot/discord_app/live.py) gets their next decision there, and
their "your move" ping only if they have not decided within a few minutes. The ping owed is a deadline row
("ping", with the decision it is for), so a restart never loses it; the turn clock's plan keeps it while its
person stays due and drops it when they move (bot/turns.py)."""

from __future__ import annotations

from storage import Deadline, GameRecord

from ..turns import people_due
from .core import decision_key


class PingsMixin:
    async def put_off_ping(self, record: GameRecord, players: set[str], until: float) -> None:
        """Owe these players a ping at `until`, unless they decide before."""
        key = decision_key(record.state)
        for player in sorted(players):
            await self.store.deadlines.set_deadline(record.id, player, "ping", until, {"key": key})
        self._planned(None, until)

    async def pinged(self, record: GameRecord, players: set[str]) -> None:
        """These players were pinged now: a ping put off for them is owed no more."""
        for player in sorted(players):
            await self.store.deadlines.clear_deadlines(record.id, player, "ping")

    async def ping_due(self, deadline: Deadline) -> GameRecord | None:
        """The game to ping `deadline.player` about, if that very row stands and they must still make the
        decision it was put off for; else None (and a stale row goes)."""
        async with self.lock(deadline.channel_id):
            current = {(d.player, d.kind): d.due_at for d in await self.store.deadlines.deadlines_of(deadline.game_id)}
            if current.get((deadline.player, deadline.kind)) != deadline.due_at:
                return None
            record = await self.current(deadline.channel_id)
            if (record is not None and record.id == deadline.game_id and deadline.player in people_due(
                    record.state, record.table) and decision_key(record.state) == deadline.payload.get("key")):
                return record
            await self.store.deadlines.drop_deadline(deadline)
            return None
