"""Computer players take their turns on their own, a moment after their turn comes.

A channel with a computer due waits on a timer of the event loop, not on a task of its own: at 5,000 live
games some 400 wait at any moment, and a sleeping task is a dozen objects (coroutine, context, future) that
every garbage collection walks. When the moment comes, a task makes that one move; after it the channel
waits again for the next computer, until none is due. All is cancelled with the cog, so nothing is left
running when the extension unloads. A move owed already (found at start-up, or its marker came due) is
made at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..service import GameService, Outcome
from ..service.where import working_in
from .people_first import after_people
from .tasks import ChannelTasks

log = logging.getLogger(__name__)


class ComputerRunner:
    def __init__(self, service: GameService, on_move: Callable[[Outcome], Awaitable[None]], delay: float = 2.0):
        self.service = service
        self.on_move = on_move
        self.delay = delay
        self.tasks = ChannelTasks()  # the turns being made
        self._waiting: dict[int, asyncio.TimerHandle] = {}  # channels waiting for their computer's moment
        self._asked: set[int] = set()  # channels asked for while their turn was being made: look again after
        self._closed = False

    def schedule(self, channel_id: int, at_once: bool = False) -> None:
        """Move the channel's computers, each a moment after the one before; `at_once`: the first without
        that moment (a move owed already). A channel waiting or moving already covers it."""
        if channel_id in self._waiting:
            return
        if self._moving(channel_id):
            self._asked.add(channel_id)  # its turn may have looked before this move: it looks again after
            return
        self.service.games.hold(channel_id)  # parsed until the computers are done, not parsed again for each turn
        self._wait(channel_id, 0.0 if at_once else self.delay)

    def busy(self, channel_id: int) -> bool:
        """Whether the channel waits for a computer's moment or a computer is moving there."""
        return channel_id in self._waiting or self._moving(channel_id)

    def _moving(self, channel_id: int) -> bool:
        turn = self.tasks.get(channel_id)  # (a turn that has ended stays there until its done-callback runs)
        return turn is not None and not turn.done()

    async def close(self) -> None:
        self._closed = True
        for channel_id, timer in self._waiting.items():
            timer.cancel()
            self.service.games.release(channel_id)
        self._waiting.clear()
        await self.tasks.close()

    def _wait(self, channel_id: int, delay: float) -> None:
        if self._closed:  # (a turn that ended as the cog unloaded)
            self.service.games.release(channel_id)
            return
        self._waiting[channel_id] = asyncio.get_running_loop().call_later(delay, self._due, channel_id)

    def _due(self, channel_id: int) -> None:
        del self._waiting[channel_id]
        self.tasks.start(channel_id, lambda: self._turn(channel_id))

    async def _turn(self, channel_id: int) -> None:
        """One computer move; then the channel waits for the next, or is let go when no computer is due."""
        working_in(channel=channel_id)  # for this task's log lines
        try:
            await after_people()  # a click waiting to be answered goes first
            again = await self._move(channel_id)
        except asyncio.CancelledError:  # the cog is unloading
            self._asked.discard(channel_id)
            self.service.games.release(channel_id)
            raise
        except Exception:
            log.exception("computer players stopped in channel %s", channel_id)
            again = False
        if again or channel_id in self._asked:
            self._asked.discard(channel_id)
            self._wait(channel_id, self.delay)
        else:
            self.service.games.release(channel_id)

    async def _move(self, channel_id: int) -> bool:
        """Whether a computer moved (or was beaten to it by another move): then another may be due."""
        outcome = await self.service.decisions.play_computer(channel_id)
        if outcome is None:
            return False
        if outcome.ok:
            await self.on_move(outcome)
        elif outcome.notice is None or outcome.notice.code not in ("stale_decision", "raced"):
            log.error("a computer in channel %s was refused: %s", channel_id, outcome.notice)
            return False
        return True
