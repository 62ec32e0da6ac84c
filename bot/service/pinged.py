"""The pings' messages, kept until their job is done (issue 43: a channel that stays clean).

A message posted about people's decision now (a "your move" ping, a reminder, a heads-up line) is kept in
the game's message bookkeeping (`TableMessages.pings`) with the decision it is about, so a restart
forgets none. Once none of its people must make that decision now (they decided, the bot decided for
them, the game ended), its job is done: a front-end removes the message (`done`), then says so (`forget`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace

from storage import GameRecord, PingMessage

from .core import Core
from .showing import decision_key
from .turns import people_due


class Pinged:
    def __init__(self, core: Core):
        self.core = core

    async def posted(self, record: GameRecord, message_id: int, players: Collection[str]) -> GameRecord:
        """A message about `players`' decision now was posted: kept until none of them must make it."""
        assert record.state is not None, "pings are about a started game"
        ping = PingMessage(id=message_id, players=tuple(sorted(players)), key=decision_key(record.state))
        return await self._change(record, lambda kept: (*kept, ping))

    @staticmethod
    def done(record: GameRecord) -> list[int]:
        """The messages whose job is done: none of their people must make the decision they are about now
        (all of them, once the game has ended)."""
        state, pings = record.state, record.messages.pings
        if not record.open or state is None or state.phase == "game_over":
            return [p.id for p in pings]
        due, key = people_due(state, record.table), decision_key(state)
        return [p.id for p in pings if p.key != key or not due.intersection(p.players)]

    async def forget(self, record: GameRecord, message_ids: Collection[int]) -> GameRecord:
        """These messages are gone (deleted, or found deleted): no longer kept."""
        return await self._change(record, lambda kept: tuple(p for p in kept if p.id not in message_ids))

    async def _change(self, record: GameRecord,
                      change: Callable[[tuple[PingMessage, ...]], tuple[PingMessage, ...]]) -> GameRecord:
        """The game's newest record with its kept messages changed, stored (under the channel's lock, on top
        of the newest bookkeeping, so a move landing meanwhile neither undoes it nor is undone)."""
        core = self.core
        async with core.lock(record.channel_id):
            latest = core.cached(record.channel_id)
            if latest is not None and latest.id == record.id:
                record = latest
            messages = record.messages.model_copy(update={"pings": change(record.messages.pings)})
            await core.store.games.set_messages(record.id, messages)
            updated = replace(record, messages=messages)
            if latest is not None and latest.id == record.id:
                core.keep(updated)
            return updated
