"""The bot's own traffic kept under Discord's limits before Discord has to say so.

Discord allows about 5 message operations per 5 seconds in one channel, and 50
requests per second per bot for everything but interaction responses and
follow-ups. Every channel operation of the bot (table edits, posts without an
interaction) waits for its turn here; interaction answers never do.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable


class Pacing:
    def __init__(self, rate: float = 35.0, per_channel: int = 4, window: float = 5.0,
                 clock: Callable[[], float] = time.monotonic, waited: Callable[[float], None] | None = None):
        self.waited = waited  # told how long each operation waited for its turn (the operator's metrics)
        self.rate = rate  # calls in any one second for all channels together, below Discord's 50
        self.per_channel = per_channel
        self.window = window
        self.clock = clock
        self._sent: deque[float] = deque()  # when the calls of the last second went out
        self._global = asyncio.Lock()
        self._recent: dict[int, deque[float]] = {}  # per channel: when its last operations went out
        self._channel_locks: dict[int, asyncio.Lock] = {}

    async def turn(self, channel_id: int, counted: bool = True) -> None:
        """Wait until one more operation in this channel keeps within its window (and, if it counts
        against Discord's global limit, within the shared rate), and count it."""
        lock = self._channel_locks.setdefault(channel_id, asyncio.Lock())
        asked = self.clock()
        async with lock:
            recent = self._recent.setdefault(channel_id, deque())
            while len(recent) >= self.per_channel:
                wait = recent[0] + self.window - self.clock()
                if wait <= 0:
                    recent.popleft()
                else:
                    await asyncio.sleep(wait)
            if counted:
                await self.global_turn()
            recent.append(self.clock())
        if self.waited is not None:
            self.waited(self.clock() - asked)
        self._forget_quiet()

    async def global_turn(self) -> None:
        """A sliding window, as Discord counts: never more than `rate` calls within any one second."""
        async with self._global:
            while True:
                now = self.clock()
                while self._sent and self._sent[0] <= now - 1.0:
                    self._sent.popleft()
                if len(self._sent) < self.rate:
                    self._sent.append(now)
                    return
                await asyncio.sleep(self._sent[0] + 1.0 - now)

    def _forget_quiet(self) -> None:
        """Channels quiet for a whole window need no record (memory stays flat however many channels)."""
        if len(self._recent) < 256:
            return
        cutoff = self.clock() - self.window
        for channel_id in [c for c, r in self._recent.items() if not r or r[-1] < cutoff]:
            lock = self._channel_locks.get(channel_id)
            if lock is None or not lock.locked():
                self._recent.pop(channel_id, None)
                self._channel_locks.pop(channel_id, None)
