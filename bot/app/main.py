"""`python -m bot`: run the Discord bot."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord.gateway import DiscordWebSocket

from storage import DatabaseBusy, LeaseHeld, StorageUnavailable
from storage.loops import loop_factory
from storage.url import DatabaseURL

from ..service.allocator import pin_large_blocks
from ..service.lease import LeaseKeeper, refusal
from .backups import backups_refused, damaged_database
from .config import Settings, WrongSettings, read_settings
from .discord_bot import AugsburgBot, make_bot
from .logs import set_up_logging
from .ops import PortRefused
from .preflight import bot_refused
from .shards import shards_refused

if TYPE_CHECKING:  # (importing it at run time, before discord.py has finished importing, fails)
    from discord.types.gateway import SessionStartLimit

log = logging.getLogger("bot")
HARD_STOP = 5.0  # seconds beyond DRAIN_SECONDS within which a SIGTERM'd process has exited, whatever hangs
HELD = 3  # exit status: another process serves this database (refused at start, or it took over)
DAMAGED = 4  # exit status: the database is damaged (restore a backup)
UNREACHABLE = 5  # exit status: the database (PostgreSQL) could not be reached at start-up
# How long a busy thread keeps the GIL from another that waits for it (Python's default: 5 ms). The event loop
# shares the process with the database's thread (SQLite's writer, PostgreSQL's loop: storage/postgres/thread.py),
# which wants the GIL for a moment at every reply; at 5 ms a busy loop let it handle some 200 replies a
# second, and transactions queued behind them (PostgreSQL, 1,000 live games: 43 interactions a second at
# 24 ms each; at 0.5 ms, 62 at 17 ms).
SWITCH_INTERVAL = 0.0005


def point_at(settings: Settings, bot: discord.Client | None = None) -> None:
    """Use a Discord-compatible server instead of discord.com (self-hosted, or a loopback test server).

    discord.py's client connects to `DiscordWebSocket.DEFAULT_GATEWAY` (and later to the resume URL
    the server hands out); only auto-sharded clients ask the API, so that call is pinned too.
    """
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        url = settings.discord_gateway_url
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        if bot is not None:
            ask = bot.http.get_bot_gateway

            async def pinned_bot_gateway(*args: Any, **kwargs: Any) -> tuple[int, str, SessionStartLimit]:
                shards, _url, limits = await ask(*args, **kwargs)
                return shards, url, limits

            bot.http.get_bot_gateway = pinned_bot_gateway  # type: ignore[method-assign]  # discord.py has no setting for it


def arguments() -> argparse.ArgumentParser:
    return argparse.ArgumentParser(
        prog="python -m bot", description="Run the Augsburg 1520 Discord bot. It takes no options: every setting "
        "comes from the environment or from .env in the folder it is started in (.env.example explains each one); "
        "DISCORD_TOKEN is required.",
        epilog=f"Exit status: 0 stopped; 2 a setting is wrong or missing (one line says which); {HELD} another "
               f"process serves the database; {DAMAGED} the database is damaged (`augsburg restore`); "
               f"{UNREACHABLE} the database could not be reached.")


def main(argv: list[str] | None = None) -> int:
    pin_large_blocks()  # before anything is read or any thread starts: memory stays flat (see allocator.py)
    arguments().parse_args(argv)  # --help, and a usage error (status 2) for anything else given
    try:
        settings = read_settings()
    except WrongSettings as wrong:
        print(wrong, file=sys.stderr)
        return 2
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "DISCORD_TOKEN is not set: put your bot token in the environment or in .env (see .env.example).",
            file=sys.stderr,
        )
        return 2
    # Before anything is created or connected to: one line naming the setting that cannot work.
    refused = shards_refused(settings) or backups_refused(settings) or bot_refused(settings)
    if refused:
        print(refused, file=sys.stderr)
        return 2
    damaged = damaged_database(settings)  # before connecting anywhere: one line, and what to run
    if damaged:
        print(damaged, file=sys.stderr)
        return DAMAGED
    set_up_logging(settings.log_level, settings.log_format)
    bot = make_bot(settings)
    point_at(settings, bot)
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            runner.run(serve(bot, settings.discord_token.get_secret_value(), settings.drain_seconds))
    except PortRefused as refused_port:
        print(refused_port, file=sys.stderr)
        return 2
    except LeaseHeld as held:
        print(refusal(held, DatabaseURL.parse(settings.database).shown), file=sys.stderr)
        return HELD
    except DatabaseBusy as exc:  # a process stopped mid-write: as good as serving it, and waiting will not help
        print(f"Another process is using {DatabaseURL.parse(settings.database).shown}: {exc}. Stop it (fuser names"
              " it), then start the bot again.", file=sys.stderr)
        return HELD
    except StorageUnavailable as exc:
        print(f"Could not reach the database {DatabaseURL.parse(settings.database).shown}: {exc}. The bot did not"
              " start.", file=sys.stderr)
        return UNREACHABLE
    except discord.LoginFailure:
        print("Discord refused the token (401 Unauthorized): check DISCORD_TOKEN in the environment or .env.",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: the runner has closed the bot already
        pass
    return HELD if _lost(bot.lease) else 0


def _lost(lease: LeaseKeeper | None) -> bool:
    """Whether another process took the database over while the bot served it."""
    return lease is not None and lease.lost


async def serve(bot: AugsburgBot, token: str, drain_seconds: float = 0.0) -> None:
    """Log in and stay connected until stopped. SIGTERM (what process managers send) drains, then stops as
    cleanly as Ctrl-C: new interactions are told to try again in a moment, the ones in flight get up to
    `drain_seconds` to finish (their moves committed), and the database lease is given up at once, so the next
    start need not wait for it to go stale. The process is gone within drain_seconds + HARD_STOP seconds; a
    second SIGTERM stops at once."""
    main = asyncio.current_task()
    assert main is not None  # (a coroutine run by asyncio.run runs in a task)
    terminated = False
    draining: asyncio.Task[None] | None = None

    async def drain_and_stop() -> None:
        try:
            await bot.drain(drain_seconds)
        finally:
            main.cancel()

    def terminate() -> None:
        nonlocal terminated, draining
        if terminated:  # a second SIGTERM: no more waiting
            main.cancel()
            return
        terminated = True
        log.info("SIGTERM: draining (up to %.0f s), then stopping", drain_seconds)
        # However the close goes (a database or Discord that hangs), the process ends within the bound.
        bound = threading.Timer(drain_seconds + HARD_STOP, _hard_stop, (drain_seconds,))
        bound.daemon = True  # a process that stopped in time is not kept waiting for it
        bound.start()
        draining = asyncio.get_running_loop().create_task(drain_and_stop(), name="draining stop")

    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows' event loop
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, terminate)
    try:
        async with bot:  # closes the bot (and gives up the lease) however this ends
            await bot.start(token)
    except asyncio.CancelledError:
        if not terminated:
            raise
        log.info("stopped by SIGTERM")


def _hard_stop(drain_seconds: float) -> None:
    """The bound of a draining stop, on a thread of its own (the event loop may be what hangs)."""
    print(f"still not stopped {drain_seconds + HARD_STOP:.0f} s after SIGTERM: exiting now", file=sys.stderr,
          flush=True)
    os._exit(1)
