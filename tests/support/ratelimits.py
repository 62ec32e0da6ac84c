"""Discord's rate limits (https://discord.com/developers/docs/topics/rate-limits), off unless a test asks.

* Per-route buckets, each per major parameter (channel, guild, webhook id + token) as on Discord. Message
  create, edit and delete in a channel share one bucket, 5 per 5 s per channel; every other route gets
  a generous one (:class:`RateLimits`). Every answer carries ``X-RateLimit-Limit``, ``-Remaining``,
  ``-Reset``, ``-Reset-After`` and ``-Bucket``.
* The global limit: 50 requests per second per bot token, counting every request except interaction
  callbacks and the interaction webhook (the routes under ``/interactions/`` and ``/webhooks/``), which
  Discord exempts from it.
* Past either, 429 with ``{"message", "retry_after", "global"}``, ``Retry-After`` (whole seconds,
  rounded up), ``X-RateLimit-Scope`` and, for the global one, ``X-RateLimit-Global: true``; every answer
  has a ``Via`` header, without which discord.py takes a 429 for a Cloudflare ban and gives up.

Buckets are sliding windows, as Discord's have been since 2022 (discord/discord-api-docs#7680): at most
``limit`` requests in any ``period``. ``Reset-After`` is when the bucket is full again (the newest request
leaves the window), ``retry_after`` when one request fits (the oldest leaves). A client that waits out
``Reset-After`` once ``Remaining`` is 0, as discord.py does, never gets a 429 from a bucket.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import DiscordError

TOKEN_ROUTES = ("/interactions/", "/webhooks/")  # the token is the credential; not in the global limit
MESSAGE_OPS = {
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"),
}
MAJOR = ("channel_id", "guild_id", "webhook_id", "webhook_token")
SCOPES = ("user", "global", "shared")
VIA = {"Via": "1.1 google"}


@dataclass(frozen=True)
class RateLimits:
    """The numbers in force: ``FakeDiscord(rate_limits=RateLimits(message_period=1.0))`` makes tests quick."""

    message_limit: int = 5  # message create/edit/delete, per channel
    message_period: float = 5.0
    route_limit: int = 50  # any other route, per route and major parameter
    route_period: float = 1.0
    global_limit: int = 50  # per bot token, interaction routes exempt
    global_period: float = 1.0


class SlidingWindow:
    """The times of the requests in the last ``period`` seconds; used for limits and for accounting."""

    __slots__ = ("period", "times")

    def __init__(self, period: float) -> None:
        self.period, self.times = period, deque()

    def count(self, now: float) -> int:
        """Requests still in the window at ``now``."""
        times, cutoff = self.times, now - self.period
        while times and times[0] <= cutoff:
            times.popleft()
        return len(times)

    def add(self, now: float) -> int:
        self.count(now)
        self.times.append(now)
        return len(self.times)

    def retry_after(self, now: float) -> float:
        """Seconds until the oldest request leaves the window."""
        return max(self.times[0] + self.period - now, 0.0) if self.times else 0.0

    def reset_after(self, now: float) -> float:
        """Seconds until the window is empty again."""
        return max(self.times[-1] + self.period - now, 0.0) if self.times else 0.0


@dataclass(frozen=True)
class Bucket:
    """Which limit a request meets: Discord's bucket hash, its major parameters, and whether the global
    limit counts it."""

    hash: str
    major: str
    counts_global: bool
    message_op: bool


def bucket_of(method: str, route: str, params: dict[str, str]) -> Bucket:
    message_op = (method, route) in MESSAGE_OPS
    name = "messages" if message_op else f"{method} {route}"
    major = "+".join(params[key] for key in MAJOR if key in params)
    return Bucket(_hash(name), major, not route.startswith(TOKEN_ROUTES), message_op)


_hashes: dict[str, str] = {}


def _hash(name: str) -> str:
    """A stable 32-hex bucket id, as Discord sends (it names the route group, not the major parameter)."""
    if name not in _hashes:
        _hashes[name] = hashlib.md5(name.encode()).hexdigest()
    return _hashes[name]


def too_many(retry_after: float, scope: str = "user", headers: dict[str, str] | None = None) -> DiscordError:
    """A 429 as Discord gives it: body, ``Retry-After``, scope, and the global flag for the global limit."""
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}, not {scope!r}")
    message = "The resource is being rate limited." if scope == "shared" else "You are being rate limited."
    exc = DiscordError(429, 0, message, retry_after=round(retry_after, 3))
    exc.global_ = scope == "global"
    exc.headers = {**(headers or {}), "Retry-After": str(max(1, math.ceil(retry_after))), "X-RateLimit-Scope": scope}
    if exc.global_:
        exc.headers["X-RateLimit-Global"] = "true"
    return exc


def bucket_headers(bucket: Bucket, limit: int, remaining: int, reset_after: float) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket.hash,
    }


class RateLimiter:
    """Admits a request or raises its 429; idle windows are dropped now and then, so a long run with a
    fresh interaction token per click keeps a bounded table."""

    def __init__(self, limits: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits, self.clock = limits, clock
        self.windows: dict[tuple[str, str], SlidingWindow] = {}
        self.global_windows: dict[Any, SlidingWindow] = {}
        self._admitted = 0

    def limit_of(self, bucket: Bucket) -> tuple[int, float]:
        if bucket.message_op:
            return self.limits.message_limit, self.limits.message_period
        return self.limits.route_limit, self.limits.route_period

    def admit(self, bucket: Bucket, token: str | None) -> dict[str, str]:
        """The bucket's headers for an admitted request; :class:`DiscordError` 429 for a refused one."""
        now = self.clock()
        limit, period = self.limit_of(bucket)
        window = self.windows.get((bucket.hash, bucket.major))
        if window is None:
            window = self.windows[(bucket.hash, bucket.major)] = SlidingWindow(period)
        if bucket.counts_global:
            overall = self.global_windows.get(token)
            if overall is None:
                overall = self.global_windows[token] = SlidingWindow(self.limits.global_period)
            if overall.count(now) >= self.limits.global_limit:
                raise too_many(overall.retry_after(now), "global")
            overall.add(now)  # past the global check, it counts there even if its bucket refuses it
        if window.count(now) >= limit:
            headers = bucket_headers(bucket, limit, 0, window.reset_after(now))
            raise too_many(window.retry_after(now), "user", headers)
        window.add(now)
        self._admitted += 1
        if self._admitted % 10_000 == 0:
            self._forget_idle(now)
        return bucket_headers(bucket, limit, limit - len(window.times), window.reset_after(now))

    def headers(self, bucket: Bucket) -> dict[str, str]:
        """The bucket's headers as they stand, without taking a request (for an injected answer)."""
        now = self.clock()
        limit, period = self.limit_of(bucket)
        window = self.windows.get((bucket.hash, bucket.major)) or SlidingWindow(period)
        return bucket_headers(bucket, limit, limit - window.count(now), window.reset_after(now))

    def _forget_idle(self, now: float) -> None:
        for table in (self.windows, self.global_windows):
            for key in [key for key, window in table.items() if not window.count(now)]:
                del table[key]
