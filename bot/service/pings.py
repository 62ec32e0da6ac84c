"""Pings put off: a person watching their panel (bot/discord_app/live.py) gets their next decision there, and
their "your move" ping only if they have not decided within a few minutes. The ping owed is a deadline row
("ping", with the decision it is for), so a restart never loses it; the turn clock's plan keeps it while its
person stays due and drops it when they move (turns.py). A heads-up for a person outside their hours (issue 43)
is owed the same way ("heads_up"), sent when their hours begin if they still bid next after the same decision;
any write of the game drops it (it is no due person's), as it should: someone moved."""

from __future__ import annotations

from storage import Deadline, GameRecord

from .core import Core
from .showing import decision_key
from .turns import next_up, people_due


class Pings:
    def __init__(self, core: Core):
        self.core = core

    async def put_off(self, record: GameRecord, players: set[str], until: float) -> None:
        """Owe these players a ping at `until`, unless they decide before."""
        assert record.state is not None
        key = decision_key(record.state)
        for player in sorted(players):
            await self.core.store.deadlines.set_deadline(record.id, player, "ping", until, {"key": key})
        self.core.planned(None, until)

    async def pinged(self, record: GameRecord, players: set[str]) -> None:
        """These players were pinged now: a ping put off for them is owed no more."""
        for player in sorted(players):
            await self.core.store.deadlines.clear_deadlines(record.id, player, "ping")

    async def due(self, deadline: Deadline) -> GameRecord | None:
        """The game to ping `deadline.player` about, if that very row stands and they must still make the
        decision it was put off for; else None (and a stale row goes)."""
        core = self.core
        async with core.lock(deadline.channel_id):
            stored = await core.store.deadlines.deadlines_of(deadline.game_id)
            current = {(d.player, d.kind): d.due_at for d in stored}
            if current.get((deadline.player, deadline.kind)) != deadline.due_at:
                return None
            record = await core.current(deadline.channel_id)
            if (record is not None and record.id == deadline.game_id and record.state is not None
                    and deadline.player in people_due(record.state, record.table)
                    and decision_key(record.state) == deadline.payload.get("key")):
                back = (await core.hours.of(deadline.player)).back_at(core.clock.now())
                if back is None:
                    return record
                await core.store.deadlines.postpone_deadline(deadline, back)  # their hours ended meanwhile
                core.planned(None, back)
                return None
            await core.store.deadlines.drop_deadline(deadline)
            return None

    async def heads_up_later(self, record: GameRecord, player: str, until: float) -> None:
        """Owe `player` their heads-up at `until` (when their hours begin), if the decision is still the same."""
        assert record.state is not None
        key = decision_key(record.state)
        await self.core.store.deadlines.set_deadline(record.id, player, "heads_up", until, {"key": key})
        self.core.planned(None, until)

    async def heads_up_due(self, deadline: Deadline) -> GameRecord | None:
        """The game to give `deadline.player` their heads-up about, if they still bid next after the same
        decision; the row goes either way."""
        core = self.core
        async with core.lock(deadline.channel_id):
            record = await core.current(deadline.channel_id)
            await core.store.deadlines.drop_deadline(deadline)
            if (record is not None and record.id == deadline.game_id and record.state is not None
                    and decision_key(record.state) == deadline.payload.get("key")
                    and next_up(record.state, record.table, people_due(record.state, record.table)) == deadline.player):
                return record
            return None
