"""The bot's Prometheus metrics (prometheus-client): one registry per bot, its metrics, and what feeds them.

Named by Prometheus's conventions: base units (seconds), counters end in `_total`, and every label has a
few values only (never a user, channel or game). README's "Operating" section lists each one. The lower
layers are handed what to tell (the service an `Observer`, the pacing and the pictures a callback, the
scheduler its lateness), or are watched from above: Discord's HTTP through aiohttp's trace hooks on
discord.py's session, interactions as discord.py dispatches them, the gateway and the games when scraped.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)

from ..service.games import Held
from ..service.observing import Observer

FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)  # seconds: commits, loop lag, gc
ANSWERS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)  # click to answer (Discord allows 3 s)
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)  # thinking, pacing, lateness
KINDS = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}  # Discord's interaction types
# Discord's routes in a few groups (a label of few values): the first pattern that matches a path names it.
ROUTE_GROUPS = [
    ("interaction_callback", re.compile(r"/interactions/\d+/[^/]+/callback$")),
    ("webhook", re.compile(r"/webhooks/\d+/[^/]+")),  # an interaction's follow-ups and its "@original"
    ("channel_message", re.compile(r"/channels/\d+/messages")),
    ("channel_thread", re.compile(r"/channels/\d+/threads|/channels/\d+/thread-members")),
    ("channel", re.compile(r"/channels/\d+")),
    ("dm", re.compile(r"/users/@me/channels")),
    ("commands", re.compile(r"/applications/\d+/(guilds/\d+/)?commands")),
    ("gateway", re.compile(r"/gateway")),
    ("application", re.compile(r"/oauth2/applications/|/applications/@me")),
    ("user", re.compile(r"/users/")),
    ("guild", re.compile(r"/guilds/\d+")),
]
CALLBACK = re.compile(r"/interactions/(\d+)/")
FORGET_AFTER = 900.0  # seconds an interaction stays answerable (Discord: 15 minutes): unanswered after that


def route_group(path: str) -> str:
    for name, pattern in ROUTE_GROUPS:
        if pattern.search(path):
            return name
    return "other"


class Metrics(Observer):
    """Every metric of one bot, in a registry of its own (several bots in one test process never collide)."""

    def __init__(self) -> None:
        # No `_created` series beside each counter (nothing here reads them); the function is untyped.
        disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = r = CollectorRegistry()
        ProcessCollector(registry=r)  # process_cpu_seconds_total, process_resident_memory_bytes, ...
        PlatformCollector(registry=r)  # python_info
        self.gateway_connected = Gauge("augsburg_gateway_connected", "1 while the shard's gateway session is "
                                       "connected, else 0", ["shard"], registry=r)
        self.gateway_latency = Gauge("augsburg_gateway_latency_seconds", "The shard's gateway heartbeat round "
                                     "trip", ["shard"], registry=r)
        self.interactions = Counter("augsburg_interactions_total", "Interactions received, by kind and by how "
                                    "they ended", ["kind", "outcome"], registry=r)
        self.errors = Counter("augsburg_interaction_errors_total", "Interactions whose handler failed with an "
                              "error of the bot's (the person was told sorry)", ["kind"], registry=r)
        self.answer_seconds = Histogram("augsburg_interaction_answer_seconds", "From an interaction's arrival to "
                                        "its first answer accepted by Discord", ["kind"], buckets=ANSWERS, registry=r)
        self.decisions = Counter("augsburg_decisions_total", "Moves committed, by who made them (person, ahead, "
                                 "only_option, clock, stand_in, away, computer) and the computer's level",
                                 ["by", "level"], registry=r)
        self.games_live = Gauge("augsburg_games_live", "Open games (lobby or playing) of this process's shards",
                                registry=r)
        self.games_phase = Gauge("augsburg_games", "Open games of this process in memory, by phase (`unloaded`: "
                                 "open, not read since the start)", ["phase"], registry=r)
        self.deadlines_pending = Gauge("augsburg_deadlines_pending", "Deadlines waiting in the database",
                                       registry=r)
        self.deadline_late = Histogram("augsburg_deadline_lateness_seconds", "How late the clock fired a "
                                       "deadline", buckets=SLOW, registry=r)
        self.requests = Counter("augsburg_discord_requests_total", "HTTP requests to Discord, by route group and "
                                "status (`error`: no response)", ["route_group", "status"], registry=r)
        self.rate_limited = Counter("augsburg_discord_rate_limited_total", "Discord's 429 answers, by route group",
                                    ["route_group"], registry=r)
        self.pacing_wait = Histogram("augsburg_pacing_wait_seconds", "How long a channel operation waited in "
                                     "the bot's own pacing queue", buckets=SLOW, registry=r)
        self.background_wait = Histogram("augsburg_background_wait_seconds", "How long the bot's own background "
                                         "work waited for people's clicks to be answered first", buckets=SLOW,
                                         registry=r)
        self.commit_seconds = Histogram("augsburg_commit_seconds", "A move's database commit", ["backend"],
                                        buckets=FAST, registry=r)
        self.computer_seconds = Histogram("augsburg_computer_decision_seconds", "A computer player's thinking "
                                          "for one move", ["level"], buckets=SLOW, registry=r)
        self.pictures = Histogram("augsburg_picture_draw_seconds", "Drawing a picture (its _count: pictures "
                                  "drawn)", ["kind"], buckets=FAST, registry=r)
        self.loop_lag = Histogram("augsburg_event_loop_lag_seconds", "How late a 10 ms timer of the event loop "
                                  "fired", buckets=FAST, registry=r)
        self.gc_pause = Histogram("augsburg_gc_pause_seconds", "Python's garbage-collection pauses",
                                  ["generation"], buckets=FAST, registry=r)
        self.held_bytes = Gauge("augsburg_games_held_bytes", "What memory holds of the open games besides those "
                                "in play: their JSON text, their newest moves (about)", ["part"], registry=r)
        self.draining = Gauge("augsburg_draining", "1 while the bot drains before it stops (SIGTERM)",
                              registry=r)
        self._arrived: dict[int, tuple[float, str]] = {}  # interaction id -> (arrival, kind): not answered yet
        self._phases: set[str] = set()  # the phases last set (one gone since is set to 0)

    # --- the service (Observer)

    def committed(self, by: str, level: str, backend: str, seconds: float) -> None:
        self.decisions.labels(by, level).inc()
        self.commit_seconds.labels(backend).observe(seconds)

    def thought(self, level: str, seconds: float) -> None:
        self.computer_seconds.labels(level).observe(seconds)

    # --- interactions: arrival (discord.py's dispatch) and first answer (its HTTP callback)

    def arrived(self, interaction_id: int, kind: int) -> None:
        now = time.monotonic()
        self._arrived[interaction_id] = (now, KINDS.get(kind, "other"))
        if len(self._arrived) > 1000:  # answers that never came: counted once they cannot come any more
            for old in [i for i, (at, _) in self._arrived.items() if at < now - FORGET_AFTER]:
                self.interactions.labels(self._arrived.pop(old)[1], "unanswered").inc()

    def finished(self, kind: int, failed: bool) -> None:
        """An interaction's handling ended (`failed`: with an error of the bot's)."""
        if failed:
            self.errors.labels(KINDS.get(kind, "other")).inc()

    def turned_away(self, interaction_id: int, kind: int) -> None:
        """An interaction not served (draining, or another process serves): answered, if at all, as such."""
        self._arrived.pop(interaction_id, None)
        self.interactions.labels(KINDS.get(kind, "other"), "turned_away").inc()

    def answered(self, path: str, status: int | None) -> None:
        found = CALLBACK.search(path)
        arrival = self._arrived.pop(int(found.group(1)), None) if found else None
        if arrival is None:
            return
        at, kind = arrival
        ok = status is not None and 200 <= status < 300
        self.interactions.labels(kind, "answered" if ok else "failed").inc()
        if ok:
            self.answer_seconds.labels(kind).observe(time.monotonic() - at)

    # --- Discord's HTTP

    def requested(self, path: str, status: int | None) -> None:
        group = route_group(path)
        self.requests.labels(group, str(status) if status is not None else "error").inc()
        if status == 429:
            self.rate_limited.labels(group).inc()
        if group == "interaction_callback":
            self.answered(path, status)

    # --- what the scrape reads

    def gateway(self, shards: Iterable[tuple[int, bool, float]]) -> None:
        for shard, connected, latency in shards:
            self.gateway_connected.labels(str(shard)).set(1 if connected else 0)
            if latency == latency and latency != float("inf"):  # discord.py: nan/inf before the first heartbeat
                self.gateway_latency.labels(str(shard)).set(latency)

    def games(self, live: int, phases: dict[str, int], deadlines: int) -> None:
        self.games_live.set(live)
        self.deadlines_pending.set(deadlines)
        for phase in set(self._phases) - set(phases):
            self.games_phase.labels(phase).set(0)
        for phase, count in phases.items():
            self.games_phase.labels(phase).set(count)
        self.games_phase.labels("unloaded").set(max(0, live - sum(phases.values())))
        self._phases = set(phases)

    def held(self, held: Held) -> None:
        self.held_bytes.labels("cooled_games").set(held.cooled_bytes)
        self.held_bytes.labels("recent_moves").set(held.recent_bytes)

    def loop_paused(self, seconds: float) -> None:
        self.loop_lag.observe(max(0.0, seconds))

    def gc_paused(self, generation: int, seconds: float) -> None:
        self.gc_pause.labels(str(generation)).observe(seconds)

    def picture_drawn(self, kind: str, seconds: float) -> None:
        self.pictures.labels(kind).observe(seconds)

    def pacing_waited(self, seconds: float) -> None:
        self.pacing_wait.observe(seconds)

    def background_waited(self, seconds: float) -> None:
        self.background_wait.observe(seconds)

    def deadline_fired(self, late: float) -> None:
        self.deadline_late.observe(late)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


