"""The operator's port (METRICS_PORT, bound to METRICS_HOST): /metrics, /healthz and /readyz, over aiohttp
(which discord.py brings along) on the bot's own event loop.

/healthz: 200 while the process lives and its event loop turns (the answer is made on that loop: a loop
that stalls cannot answer, and a supervisor's timeout notices). /readyz: 200 when the bot serves (connected
to Discord, the database answers, the lease or its shards are this process's), else 503 with a short JSON
reason. /metrics: Prometheus's text format, the games' gauges read fresh (at most once a second).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from aiohttp import web

from .metrics import Metrics

log = logging.getLogger(__name__)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
FRESH = 1.0  # seconds the games' gauges are kept between scrapes


class PortRefused(Exception):
    """METRICS_PORT could not be listened on; str(): one line for the operator."""


class OpsServer:
    def __init__(self, metrics: Metrics, host: str, port: int, unready: Callable[[], Awaitable[str | None]],
                 refresh: Callable[[], Awaitable[None]]):
        """`unready`: why the bot does not serve now (None: it does); `refresh`: reads the scraped gauges."""
        self.metrics, self.host, self.port = metrics, host, port
        self.unready, self.refresh = unready, refresh
        self._refreshed = 0.0
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self.host, self.port).start()
        except OSError as exc:
            await self._runner.cleanup()
            self._runner = None
            raise PortRefused(f"METRICS_PORT={self.port} cannot be listened on at METRICS_HOST={self.host}: "
                              f"{exc.strerror or exc}. Choose a free port (each bot process needs its own).") from None
        log.info("metrics, /healthz and /readyz on http://%s:%s", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        if time.monotonic() - self._refreshed > FRESH:
            self._refreshed = time.monotonic()
            try:
                await self.refresh()
            except Exception:  # the database is out of reach a moment: the rest is still worth scraping
                log.warning("could not read the games for the metrics", exc_info=True)
        return web.Response(body=self.metrics.exposition(), headers={"Content-Type": CONTENT_TYPE})

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "alive"})

    async def _readyz(self, request: web.Request) -> web.Response:
        why = await self.unready()
        if why is not None:
            return web.json_response({"status": "not ready", "reason": why}, status=503)
        return web.json_response({"status": "ready"})
