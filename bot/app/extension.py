"""The /augsburg extension: `await bot.load_extension("bot.app.extension")`.

`setup` adds the cog and the durable buttons (DynamicItems route clicks on any
old message to the cog); `teardown` removes the cog (discord.py only removes by
itself cogs defined in the extension's own module), which stops the cog's tasks.
The buttons stay registered, so a click during a reload gets a polite answer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol, runtime_checkable

from discord.ext import commands

from storage import Deadline

from ..discord_app.cog import Augsburg
from ..discord_app.pacing import Pacing
from ..discord_app.people_first import WAITED
from ..discord_app.pictures import Pictures
from ..discord_app.record_widgets import ALL_ITEMS
from ..service import GameService, Thinkers, Timing
from ..service.clock import Clock
from .config import Settings, editions_of
from .metrics import Metrics
from .scheduler import Scheduler
from .shards import shards_of

log = logging.getLogger(__name__)
COMPUTER_GRACE = 30.0  # seconds beyond the computer's delay before its marker fires
ANNOUNCE_GRACE = 120.0  # seconds before a change not yet announced is announced again (drawer.py)


async def open_service(settings: Settings, clock: Clock) -> GameService:
    """The game service on the bot's database (DATABASE_URL, else DATABASE_PATH), with the bot's timing."""
    # A computer due to move leaves a marker a while ahead: after a restart it is set going again.
    timing = Timing(turn_seconds=settings.turn_timeout_seconds or None, reminder_seconds=settings.reminder_seconds,
                    computer_marker=settings.computer_delay + COMPUTER_GRACE,
                    announce_after=settings.table_edit_delay + ANNOUNCE_GRACE)
    # Strong players' workers (started at the first heavy decision): the moves owed at start-up use them too.
    thinkers = Thinkers(settings.computer_workers, settings.computer_think_seconds)
    return await GameService.open(settings.database, clock, timing, thinkers=thinkers,
                                  retry_seconds=settings.database_retry_seconds,
                                  pool_size=settings.database_pool_size,
                                  deal_seed=settings.deal_seed, editions=editions_of(settings))


@runtime_checkable
class Serving(Protocol):
    """What `setup` reads of the bot that loads the extension: discord_bot.AugsburgBot, which imports this
    module, so that naming it here would make an import circle."""

    settings: Settings
    service: GameService | None
    metrics: Metrics | None


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, Serving)
    settings, service, metrics = bot.settings, bot.service, bot.metrics
    assert service is not None  # opened at login, before setup_hook loads the extension
    if settings.deal_seed is not None:
        log.warning("DEAL_SEED is set: every deal follows from it and can be predicted (for tests only)")
    # REQUESTS_PER_SECOND is the whole bot's (Discord counts per token): each process takes its shards' part.
    pacing = Pacing(rate=settings.requests_per_second * shards_of(settings).share,
                    per_channel=settings.channel_ops_per_5s, waited=metrics.pacing_waited if metrics else None)

    WAITED.told = metrics.background_waited if metrics else None  # people first's waits (one loop a process)

    def timers(fire: Callable[[Deadline], Awaitable[None]]) -> Scheduler:
        scheduler = Scheduler(service.deadlines, service.clock, fire)
        scheduler.late = metrics.deadline_fired if metrics else None
        return scheduler

    await bot.add_cog(Augsburg(bot, service, timers, settings.table_edit_delay, settings.computer_delay, pacing,
                               pictures=Pictures(settings.table_pictures, settings.picture_processes,
                                                 settings.pictures_per_second,
                                                 drawn=metrics.picture_drawn if metrics else None),
                               watch_seconds=settings.watch_seconds, owed=getattr(bot, "owed", None)))
    bot.add_dynamic_items(*ALL_ITEMS)


async def teardown(bot: commands.Bot) -> None:
    await bot.remove_cog(Augsburg.__cog_name__)
    # remove_cog looks the group up by the cog's name ("Augsburg"), not the group's ("augsburg").
    bot.tree.remove_command(str(Augsburg.__cog_group_name__))  # (a str: the cog's group_name)
