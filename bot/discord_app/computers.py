"""Computer players take their turns on their own, a moment after their turn comes.

One task per channel with a computer due, started after any move and at start-up,
and cancelled with the cog, so nothing is left running when the extension unloads.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..service import GameService, Outcome
from .tasks import ChannelTasks

log = logging.getLogger(__name__)


class ComputerRunner:
    def __init__(self, service: GameService, on_move: Callable[[Outcome], Awaitable[None]], delay: float = 2.0):
        self.service = service
        self.on_move = on_move
        self.delay = delay
        self.tasks = ChannelTasks()

    def schedule(self, channel_id: int) -> None:
        self.tasks.start(channel_id, lambda: self._play(channel_id))

    async def close(self) -> None:
        await self.tasks.close()

    async def _play(self, channel_id: int) -> None:
        try:
            while await self._turn(channel_id):
                pass
        except Exception:
            log.exception("computer players stopped in channel %s", channel_id)

    async def _turn(self, channel_id: int) -> bool:
        """One computer move, a moment from now; False when no computer is due. Its own function so that no
        move's records are held while the next one waits."""
        await asyncio.sleep(self.delay)
        outcome = await self.service.decisions.play_computer(channel_id)
        if outcome is None:
            return False
        if outcome.ok:
            await self.on_move(outcome)
        elif outcome.notice.code not in ("stale_decision", "raced"):
            log.error("a computer in channel %s was refused: %s", channel_id, outcome.notice)
            return False
        return True
