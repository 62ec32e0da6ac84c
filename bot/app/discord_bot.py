"""The bot: a discord.py client that loads the /augsburg extension on one game service (and its database)."""

from __future__ import annotations

import asyncio
import gc
import logging

import discord
from discord.ext import commands

from ..discord_app import inputs
from ..discord_app.backoff import transient, with_backoff
from ..discord_app.command_sync import sync_commands
from ..discord_app.command_words import CommandWords
from ..discord_app.owed import OwedWork
from ..service import GameService
from ..service.allocator import GIVING_BACK_TASK, keep_giving_back
from ..service.clock import Clock, SystemClock
from ..service.lease import LeaseKeeper
from ..wording.words import load_languages
from .backups import Backups, start_backups
from .buckets import FORGETTING_TASK, keep_forgetting
from .config import Settings
from .extension import open_service
from .metrics import Metrics
from .monitor import LoopMonitor
from .ops import OpsServer
from .shards import Shards, shards_of
from .watch import Watch

log = logging.getLogger(__name__)
YOUNG_THRESHOLD = 6000  # allocations between young collections (Python's default: 700)
EXTENSION = "bot.app.extension"


def intents() -> discord.Intents:
    """Slash commands and components need no privileged intents; guilds is enough."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class AugsburgBot(commands.Bot):
    def __init__(self, settings: Settings, service: GameService | None = None, clock: Clock | None = None):
        self.shards_owned: Shards = shards_of(settings)
        # The bot never joins voice: discord.py's warnings about missing voice libraries would only bury
        # the lines that matter at start-up (a refused lease, a refused token).
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # The operator's metrics (METRICS_PORT), in a registry of this bot's own; Discord's HTTP is watched
        # through aiohttp's trace hooks on discord.py's session.
        self.metrics = Metrics() if settings.metrics_port else None
        self.watch = Watch(self.metrics)
        options = self.shards_owned.client_options()
        trace = self.watch.trace()
        if trace is not None:
            options["http_trace"] = trace
        # Nobody is notified unless a message names exactly whom (a ping): a display name like
        # "@everyone" in a table or a log line never notifies anyone.
        super().__init__(command_prefix=commands.when_mentioned, intents=intents(), help_command=None,
                         allowed_mentions=discord.AllowedMentions.none(), tree_cls=inputs.CheckedTree,
                         **options)
        self.settings = settings
        self.service = service  # opened at login: the game service on the database
        self.clock = clock or SystemClock()  # tests pass one they can move forward
        self.lease: LeaseKeeper | None = None  # the service's LeaseKeeper, once the database is ours
        self.owed: OwedWork | None = None  # the game side: the moves the bot makes itself (owed.py)
        self._set_up = False  # setup_hook has begun: a failure after that is not login's to retry
        self._closing: asyncio.Task[None] | None = None
        self.monitor: LoopMonitor | None = None
        self.backups: Backups | None = None
        self.giving_back: asyncio.Task[None] | None = None
        self.forgetting: asyncio.Task[None] | None = None  # discord.py's idle rate-limit buckets
        self.ops: OpsServer | None = None  # METRICS_PORT's /metrics, /healthz, /readyz

    def gateway(self) -> list[tuple[int, bool, float]]:
        """(shard, connected, heartbeat latency) of each of this process's gateway sessions."""
        if isinstance(self, discord.AutoShardedClient):
            return [(i, not shard.is_closed(), shard.latency) for i, shard in sorted(self.shards.items())]
        return [(self.shard_id or 0, self.is_ready() and not self.is_closed() and self.ws is not None, self.latency)]

    async def drain(self, seconds: float) -> None:
        """The draining stop's first half (SIGTERM, main.py): nothing new is served, what is in flight finishes."""
        await self.watch.drain(self, seconds)

    async def login(self, token: str) -> None:
        if self.metrics is not None and self.settings.metrics_port and self.ops is None:  # /healthz from the start
            self.ops = OpsServer(self.metrics, self.settings.metrics_host, self.settings.metrics_port,
                                 lambda: self.watch.unready(self, self.gateway()),
                                 lambda: self.watch.refresh(self, self.gateway()))
            await self.ops.start()
        # The database first: a second process must refuse (LeaseHeld) before it says anything to Discord.
        if self.service is None:
            self.service = await open_service(self.settings, self.clock)
        if self.metrics is not None:
            self.service.observe(self.metrics)
        self.lease = self.service.lease_keeper(self.settings.lease_seconds, self.close, self.shards_owned)
        await self.lease.take()
        # What the bot owes (moves it makes itself, deadlines that came due while it was down) needs only the
        # database: made now, whether or not Discord lets this start log in before the next crash.
        self.owed = OwedWork(self.service, self.settings.computer_delay)
        self.owed.start()
        # Once setup_hook has begun, logging in again would set up twice: its own steps retry themselves.
        await with_backoff("log in to Discord", lambda: self._login_once(token),
                           first=self.settings.startup_retry_first, cap=self.settings.startup_retry_max,
                           retry=lambda exc: not self._set_up and transient(exc))

    async def _login_once(self, token: str) -> None:
        try:
            await super().login(token)
        except Exception:
            if not self._set_up:  # a fresh HTTP session for the next try: static_login opens one each time
                await self.http.close()
                self.http.connector = discord.utils.MISSING  # closed along with the session
            raise

    async def setup_hook(self) -> None:
        self._set_up = True
        if self.settings.monitor_path or self.metrics is not None:  # the metrics use its measurements
            self.monitor = LoopMonitor(self.settings.monitor_path, self.metrics)
            self.monitor.start()
        if self.service is None:
            self.service = await open_service(self.settings, self.clock)
        if self.monitor is not None:
            self.monitor.held = self.service.games.held
        self.backups = start_backups(self.settings, self.service)
        self.giving_back = asyncio.get_running_loop().create_task(keep_giving_back(), name=GIVING_BACK_TASK)
        self.forgetting = asyncio.get_running_loop().create_task(keep_forgetting(self.http), name=FORGETTING_TASK)
        await self.tree.set_translator(CommandWords())  # German and Italian clients read the commands in theirs
        await self.load_extension(EXTENSION)
        guild = discord.Object(self.settings.discord_guild_id) if self.settings.discord_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if 0 in self.shards_owned.ids:  # once per deployment: by the process that owns shard 0
            await sync_commands(self, guild)  # retried if Discord fails for a while; skipped if nothing changed
        # What exists now lives as long as the process (modules, discord.py's structures, the languages'
        # data, read now for that): freezing it spares every later full garbage collection from walking it
        # again, halving its pause.
        load_languages()
        gc.collect()
        gc.freeze()
        # Each interaction leaves short-lived objects in reference cycles (discord.py's). A young
        # collection every 700 allocations (Python's default) catches many still in flight and moves
        # them to the old generation, whose full collections then pause the bot for tens of ms.
        # Collecting the young generation less often lets most of them die young.
        gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])

    async def on_ready(self) -> None:
        log.info("connected as %s", self.user)
        # The guilds and channels just received live as long as the connection: frozen, so that full
        # collections do not walk them. Ready comes again after a reconnection that identifies anew; what is
        # garbage by then (reference cycles) is freed first, or frozen it would never be.
        gc.collect()
        gc.freeze()

    async def serving(self, interaction: discord.Interaction) -> bool:
        """Whether to answer: only while this process holds the database lease (otherwise the process that
        took it over answers, from the games as they are, and this one is stopping), and is not draining
        (then the person is told to try again in a moment)."""
        held = self.lease is None or await self.lease.still_held()
        return await self.watch.serving(interaction, held)

    async def close(self) -> None:
        # The first caller (Ctrl-C, SIGTERM, the lease keeper, `async with`) starts the whole close; later
        # callers wait for all of it, where discord.py's own close would only wait for its part.
        if self._closing is None:
            self._closing = asyncio.create_task(self._close_all(), name="closing the bot")
        await asyncio.shield(self._closing)

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _close_all(self) -> None:
        if self.owed is not None:
            await self.owed.close()
        if self.backups is not None:
            await self.backups.stop()
        if self.monitor is not None:
            await self.monitor.stop()
        for task in (self.giving_back, self.forgetting):
            if task is not None:
                task.cancel()
        # discord.py dispatches READY a moment after the gateway's (it waits for the guilds): a stop within that
        # moment (a SIGTERM soon after the start) would leave it to fail on a closed client, with a traceback.
        ready = getattr(self._connection, "_ready_task", None)
        if isinstance(ready, asyncio.Task) and not ready.done():
            ready.cancel()
        await super().close()
        if self.lease is not None:
            await self.lease.release()
        if self.service is not None:
            await self.service.close()
        if self.ops is not None:
            await self.ops.stop()


class ShardedAugsburgBot(AugsburgBot, commands.AutoShardedBot):
    """The bot as discord.py's AutoShardedClient: the gateway sessions of the shards this process owns."""


def make_bot(settings: Settings, service: GameService | None = None, clock: Clock | None = None) -> AugsburgBot:
    """One gateway session (SHARD_COUNT=1, the default), or one per shard this process owns."""
    kind = ShardedAugsburgBot if shards_of(settings).sharded else AugsburgBot
    return kind(settings, service, clock)
