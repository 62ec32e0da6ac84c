"""Trying again at start-up: Discord (or the network) can fail for a while; a bad token cannot get better."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiohttp
import discord

log = logging.getLogger(__name__)
T = TypeVar("T")


def transient(exc: BaseException) -> bool:
    """Worth another try: a 5xx or a 429 discord.py gave up on, or the network (refused, reset, timed out).
    Any other answer from Discord (401, 403, 400) would be the same next time."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, (OSError, aiohttp.ClientError))  # TimeoutError is an OSError


async def with_backoff(what: str, attempt: Callable[[], Awaitable[T]], *, first: float, cap: float,
                       retry: Callable[[BaseException], bool] = transient,
                       sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> T:
    """`await attempt()` until it succeeds, waiting `first` seconds after a transient failure, then twice
    as long each time up to `cap`. Any other error is raised at once."""
    delay, failures = first, 0
    while True:
        try:
            return await attempt()
        except Exception as exc:
            if not retry(exc):
                raise
            failures += 1
            log.warning("could not %s (%s: %s); try %d failed, trying again in %.1f s",
                        what, type(exc).__name__, exc, failures, delay)
        await sleep(delay)
        delay = min(cap, delay * 2)
