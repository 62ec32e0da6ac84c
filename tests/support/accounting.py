"""Counters for a load run: what the bot asked of Discord and how close it came to Discord's limits.

They are kept whether or not rate limits are modelled (a run without them shows how bursty the bot
would be) and whether or not each request is kept (``record_requests=False`` keeps these only, so a long
run at hundreds of requests a second holds a bounded amount of memory).

A message operation is a 2xx message create, edit or delete through the channel routes, the ones that
share Discord's 5-per-5-seconds channel bucket; interaction responses and followups are not (they go
through the interaction token, in a bucket of their own).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .ratelimits import Bucket, SlidingWindow
from .records import RecordedRequest


class Accounting:
    def __init__(self, message_period: float = 5.0, global_period: float = 1.0) -> None:
        self.message_period = message_period
        self.by_route: Counter[str] = Counter()
        self.total = self.global_limited = self.interaction_token = self.invalid = 0
        self.rate_limited: Counter[str] = Counter()  # scope ("user", "global", "shared") -> 429s given
        self.limited_routes: Counter[str] = Counter()  # route -> 429s given
        self.first_at: float | None = None
        self.last_at: float | None = None
        self._channel_ops: dict[int, SlidingWindow] = {}
        self.busiest_channel: int | None = None
        self.busiest_ops = 0  # the most message operations one channel saw within message_period
        self._global = SlidingWindow(global_period)
        self.peak_global = 0  # the most global-limited requests within global_period (global 429s excepted)

    def count(self, req: RecordedRequest, bucket: Bucket, scope: str | None) -> None:
        """Count one answered request; ``scope`` is the 429's scope, if it got one."""
        self.total += 1
        self.first_at = req.at if self.first_at is None else self.first_at
        self.last_at = req.at
        self.by_route[f"{req.method} {req.route}"] += 1
        if bucket.counts_global:
            self.global_limited += 1
            if scope != "global":
                self.peak_global = max(self.peak_global, self._global.add(req.at))
        else:
            self.interaction_token += 1
        if scope is not None:
            self.rate_limited[scope] += 1
            self.limited_routes[f"{req.method} {req.route}"] += 1
        if req.status in (401, 403) or (req.status == 429 and scope != "shared"):
            self.invalid += 1  # Discord's invalid request limit: 10,000 per 10 minutes, then a ban
        if bucket.message_op and 200 <= req.status < 300 and req.channel_id is not None:
            window = self._channel_ops.get(req.channel_id)
            if window is None:
                window = self._channel_ops[req.channel_id] = SlidingWindow(self.message_period)
            ops = window.add(req.at)
            if ops > self.busiest_ops:
                self.busiest_channel, self.busiest_ops = req.channel_id, ops

    def stats(self) -> dict[str, Any]:
        """A JSON-ready summary; see :meth:`support.server.FakeDiscord.stats`."""
        seconds = (self.last_at - self.first_at) if self.first_at is not None and self.last_at is not None else 0.0
        return {
            "requests": self.total,
            "seconds": round(seconds, 3),
            "per_second": round(self.total / seconds, 1) if seconds else None,
            "by_route": dict(self.by_route.most_common()),
            "global_limited": self.global_limited,
            "interaction_token": self.interaction_token,
            "peak_global_per_second": self.peak_global,
            "rate_limited": sum(self.rate_limited.values()),
            "rate_limited_by_scope": dict(self.rate_limited),
            "rate_limited_by_route": dict(self.limited_routes),
            "invalid": self.invalid,
            "busiest_channel": self.busiest_channel,
            "busiest_channel_ops": self.busiest_ops,
            "message_window": self.message_period,
        }
