"""Taking a decision back (engine/undo.py decides what may be): from a panel's Undo button, which names the
move it was offered for, or typed (`/augsburg undo`, the terminal's `u`), which takes back the last one.

The game is rebuilt from its stored log (a History), checked against the stored game, and the take-back
is committed as a move of its own (a TakeBack row with its TakenBack event): the log keeps the decision
taken back, nothing is deleted. Deadlines, pings and computers then follow as after any move."""

from __future__ import annotations

import logging

from engine import ReplayError
from engine.actions import BadAction
from engine.game import Applied
from engine.undo import History, Undoable
from storage import GameRecord

from .core import Core, back_to_seat, cannot_decide
from .outcome import Outcome, refuse

log = logging.getLogger(__name__)
BY_PLAYER = ("player", "only", "ahead")  # actors whose moves are the player's own (not the clock's)


class Undo:
    def __init__(self, core: Core):
        self.core = core

    async def take_back(self, channel_id: int, game_id: int, user: int | str, move: int | None) -> Outcome:
        """Take back `user`'s last decision; `move`: the one their Undo button was made for (None: typed)."""

        async def work(record: GameRecord, player: str) -> Outcome:
            history = await self._history(record)
            if history is None:
                return refuse("undo_unavailable", record)
            result = history.take_back(player, move)
            if not isinstance(result, Applied):
                return refuse(result.code, record, **result.params)
            table, entries = back_to_seat(record.table, player)  # a click of theirs, as any decision
            action = history.rows[-1].action
            return await self.core.commit(record, player, action, result, "player", table, entries)

        return await self.core.deciding(channel_id, game_id, user, work)

    async def can_take_back(self, channel_id: int, user: int | str) -> bool:
        """Whether `user` may take back their last decision now (engine/undo.py): what the terminal offers."""
        async with self.core.lock(channel_id):
            record = await self.core.current(channel_id)
            if record is None or cannot_decide(record, record.id, str(user)) is not None:
                return False
            history = await self._history(record)
            return history is not None and isinstance(history.undoable(str(user)), Undoable)

    async def _history(self, record: GameRecord) -> History | None:
        """The game rebuilt from its log with who decided each move; None (logged) if it cannot be, or does
        not rebuild the stored game (a damaged log: the game goes on, but nothing is taken back)."""
        table = record.table
        assert record.state is not None and table.seed is not None, "a started game"
        try:
            played = await self.core.store.log.played(record.id)
            history = History(table.players, table.seed, table.start_player, record.state.edition, table.game_rules)
            for index, (player, action, actor) in enumerate(played):
                result = history.play(player, action, by_player=actor in BY_PLAYER)
                if not isinstance(result, Applied):
                    raise ReplayError(index, result)
        except (BadAction, ValueError, KeyError, TypeError) as exc:
            log.error("game %s: its log does not rebuild it (%s): no undo", record.id, exc)
            return None
        if history.state != record.state:
            log.error("game %s: its log rebuilds another game than the stored one: no undo", record.id)
            return None
        return history
