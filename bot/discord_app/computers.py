"""Computer players take their turns on their own, a moment after their turn comes.

One task per channel with a computer due, started after any move and at start-up,
and cancelled with the cog, so nothing is left running when the extension unloads.
A move owed already (found at start-up, or its marker came due) is made at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..service import GameService, Outcome
from ..service.where import working_in
from .tasks import ChannelTasks

log = logging.getLogger(__name__)


class ComputerRunner:
    def __init__(self, service: GameService, on_move: Callable[[Outcome], Awaitable[None]], delay: float = 2.0):
        self.service = service
        self.on_move = on_move
        self.delay = delay
        self.tasks = ChannelTasks()

    def schedule(self, channel_id: int, at_once: bool = False) -> None:
        """Move the channel's computers, each a moment after the one before; `at_once`: the first without
        that moment (a move owed already). A task already running for the channel covers it."""
        self.tasks.start(channel_id, lambda: self._play(channel_id, 0.0 if at_once else self.delay))

    async def close(self) -> None:
        await self.tasks.close()

    async def _play(self, channel_id: int, first: float) -> None:
        working_in(channel=channel_id)  # for this task's log lines
        self.service.games.hold(channel_id)  # parsed until the computers are done, not parsed again for each turn
        try:
            delay = first
            while await self._turn(channel_id, delay):
                delay = self.delay
        except Exception:
            log.exception("computer players stopped in channel %s", channel_id)
        finally:
            self.service.games.release(channel_id)

    async def _turn(self, channel_id: int, delay: float) -> bool:
        """One computer move, `delay` seconds from now; False when no computer is due. Its own function so
        that no move's records are held while the next one waits."""
        await asyncio.sleep(delay)
        outcome = await self.service.decisions.play_computer(channel_id)
        if outcome is None:
            return False
        if outcome.ok:
            await self.on_move(outcome)
        elif outcome.notice is None or outcome.notice.code not in ("stale_decision", "raced"):
            log.error("a computer in channel %s was refused: %s", channel_id, outcome.notice)
            return False
        return True
