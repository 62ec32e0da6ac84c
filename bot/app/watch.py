"""The operator's view of a running bot: what feeds the metrics from above, readiness, and the draining stop.

`Watch` belongs to one bot (discord_bot.AugsburgBot makes it). It sees Discord's HTTP through aiohttp's trace
hooks on discord.py's session (`trace`), the interactions the bot serves (`serving`), the gateway and the
games when /metrics is scraped (`refresh`), and on SIGTERM drains (`drain`): new interactions are answered
"restarting, try again in a moment", and the ones in flight get up to DRAIN_SECONDS to finish, their moves
committed, before the bot closes and gives its lease up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from types import SimpleNamespace
from typing import Protocol

import aiohttp
import discord

from ..discord_app import answers
from ..service import GameService
from ..service.lease import LeaseKeeper
from ..wording import notices, words
from .metrics import Metrics

log = logging.getLogger(__name__)
SETTLE = 0.02  # seconds between looks at whether the moves in flight have finished
REACHABLE = 5.0  # seconds the database has to answer /readyz's question


class Watched(Protocol):
    """What the watch reads of its bot (discord_bot.AugsburgBot, which imports this module)."""

    service: GameService | None
    lease: LeaseKeeper | None

    def is_ready(self) -> bool: ...
    def is_closed(self) -> bool: ...


class Watch:
    def __init__(self, metrics: Metrics | None):
        self.metrics = metrics
        self.draining = False
        self._in_flight: set[asyncio.Task[object]] = set()

    def trace(self) -> aiohttp.TraceConfig | None:
        """aiohttp's hooks for discord.py's HTTP session: every request's route group and status."""
        if self.metrics is None:
            return None
        metrics = self.metrics
        config = aiohttp.TraceConfig()

        async def ended(_session: aiohttp.ClientSession, _context: SimpleNamespace,
                        params: aiohttp.TraceRequestEndParams) -> None:
            metrics.requested(params.url.path, params.response.status)

        async def failed(_session: aiohttp.ClientSession, _context: SimpleNamespace,
                         params: aiohttp.TraceRequestExceptionParams) -> None:
            metrics.requested(params.url.path, None)

        config.on_request_end.append(ended)
        config.on_request_exception.append(failed)
        return config

    async def serving(self, interaction: discord.Interaction, held: bool) -> bool:
        """Whether to serve `interaction` (`held`: the lease is this process's). While draining, it is answered
        "restarting, try again in a moment" instead; a served one is waited for by `drain`."""
        if self.metrics is not None:
            self.metrics.arrived(interaction.id, interaction.type.value)
        task = asyncio.current_task()
        if task is not None and (held or self.draining):  # the interaction's own task (discord.py runs each
            self._in_flight.add(task)  # in one): drain waits for it, and for a "restarting" answer too
            task.add_done_callback(self._in_flight.discard)
            if self.metrics is not None:  # a handler that failed says so in the interaction's extras
                metrics = self.metrics
                task.add_done_callback(lambda _: metrics.finished(interaction.type.value,
                                                                  bool(interaction.extras.get("failed"))))
        if self.draining or not held:
            if self.metrics is not None:
                self.metrics.turned_away(interaction.id, interaction.type.value)
            if self.draining and interaction.type != discord.InteractionType.autocomplete:
                with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, OSError):
                    await answers.send(interaction, notices.restarting(words(interaction.locale)))
            return False
        return True

    async def drain(self, bot: Watched, seconds: float) -> None:
        """Serve nothing new; give the interactions in flight, and the moves being committed, up to `seconds`."""
        self.draining = True
        if self.metrics is not None:
            self.metrics.draining.set(1)
        until = time.monotonic() + seconds
        log.info("draining: %d interaction(s) in flight, up to %.0f s", len(self._in_flight), seconds)
        while self._in_flight and time.monotonic() < until:  # (those turned away meanwhile, answered, too)
            await asyncio.wait(set(self._in_flight), timeout=until - time.monotonic())
        if self._in_flight:
            log.warning("draining: %d interaction(s) still in flight after %.0f s: stopping anyway",
                        len(self._in_flight), seconds)
        while bot.service is not None and bot.service.busy() and time.monotonic() < until:
            await asyncio.sleep(SETTLE)  # a computer's move or a deadline's, being committed

    async def unready(self, bot: Watched, shards: list[tuple[int, bool, float]]) -> str | None:
        """Why the bot does not serve now, in a few words; None when it does."""
        if self.draining:
            return "draining before a stop"
        if bot.is_closed() or not bot.is_ready():
            return "not connected to Discord"
        down = [str(shard) for shard, connected, _ in shards if not connected]
        if down:
            return f"shard {', '.join(down)} not connected to Discord"
        if bot.lease is None or not bot.lease.held or bot.lease.lost:
            return "the database lease (or its shards) is not this process's"
        try:
            reachable = bot.service is not None and await asyncio.wait_for(bot.service.reachable(), REACHABLE)
        except TimeoutError:
            reachable = False
        return None if reachable else "the database does not answer"

    async def refresh(self, bot: Watched, shards: list[tuple[int, bool, float]]) -> None:
        """The gauges a scrape reads: the gateway per shard, the open games, the pending deadlines."""
        if self.metrics is None:
            return
        self.metrics.gateway(shards)
        if bot.service is not None:
            live = await bot.service.games.count_open()  # counted by the database: nothing read per game
            pending = await bot.service.deadlines.count_pending()
            self.metrics.games(live, bot.service.games.phases(), pending)
            self.metrics.held(bot.service.games.held())
