"""The fake Discord as a loopback server: REST under ``/api/v10`` and the gateway at ``/gateway``.

Every request is counted (``stats``) and, unless ``record_requests=False``, recorded; it meets Discord's
rate limits when ``rate_limits`` is on (``ratelimits``), then is answered by a test's override
(``fail_next``/``on_route``) or by the route table (``lose_next_answer``: done, but answered with a 5xx),
and every 4xx the fake gives by Discord's rules (429s aside) lands in ``problems``. A bot in another
process is pointed here with :meth:`FakeDiscord.env`; the in-process :class:`~support.harness.Harness`
points discord.py's ``Route.BASE`` here, so both doors meet the same routes, validation and limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
from collections.abc import Callable
from typing import Any

import orjson
from aiohttp import web

from .accounting import Accounting
from .actions import Actions
from .attachments import Upload, upload
from .errors import DiscordError
from .failures import DEFAULT
from .gateway import Gateway
from .interaction_routes import CALLBACK
from .model import DiscordModel
from .ratelimits import TOKEN_ROUTES, VIA, Bucket, RateLimiter, RateLimits, bucket_of, too_many
from .records import RecordedRequest
from .results import Result
from .routes import Handler, compile_routes

API_PREFIX = "/api/v10"


class FakeDiscord(DiscordModel, Actions):
    """Use as ``async with FakeDiscord(users=[...], token=...) as fake``; see the package docstring.

    ``rate_limits``: True for Discord's limits (:class:`~support.ratelimits.RateLimits`), or other numbers;
    ``gateway_backlog``: dispatches each gateway session keeps for RESUME.
    """

    def __init__(
        self, *, token: str | None = None, heartbeat_interval_ms: int = 41250,
        rate_limits: bool | RateLimits = False, gateway_backlog: int = 5000, **kwargs: Any,
    ) -> None:  # fmt: skip
        super().__init__(**kwargs)
        self.token = token  # None: any token is accepted
        self.unknown_requests: list[RecordedRequest] = []
        self.port = 0
        self.gateway = Gateway(self, heartbeat_interval_ms, gateway_backlog)
        limits = RateLimits() if rate_limits is True else rate_limits or None
        self.rate_limiter = None if limits is None else RateLimiter(limits)
        self.accounting = Accounting(*((limits.message_period, limits.global_period) if limits else ()))
        self._routes: dict[str, list[tuple[str, Any, Handler]]] = {}
        for method, template, pattern, handler in compile_routes():
            self._routes.setdefault(method, []).append((template, pattern, handler))
        self._answered: dict[str, asyncio.Future] = {}  # interaction token -> woken by its accepted callback
        self._runner: web.AppRunner | None = None
        self._changed = asyncio.Event()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        self._changed = asyncio.Event()  # bound to the running loop
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base(self) -> str:
        """Value for discord.py's ``Route.BASE`` / the bot's DISCORD_API_BASE."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self, token: str = "fake-token", deal_seed: int = 1) -> dict[str, str]:
        """Environment for a bot subprocess: DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL, and
        DEAL_SEED: the bot under test deals its games from a seed the test chose."""
        return {
            "DISCORD_TOKEN": self.token or token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DEAL_SEED": str(deal_seed),
        }

    def stats(self) -> dict[str, Any]:
        """What the bot asked so far: ``requests`` (and ``per_second`` over ``seconds``), ``by_route``
        ("PATCH /channels/{channel_id}/messages/{message_id}": n), ``global_limited`` vs
        ``interaction_token`` requests, ``peak_global_per_second``, ``rate_limited`` (429s given) and
        ``rate_limited_by_scope``, ``invalid`` (401, 403 and 429: Discord bans past 10,000 in 10 minutes),
        and ``busiest_channel`` with ``busiest_channel_ops``: the most message creates, edits and deletes
        through the channel routes one channel saw within any ``message_window`` (5 s) seconds."""
        return self.accounting.stats()

    # ------------------------------------------------------------------ HTTP

    async def _handle(self, request: web.Request) -> web.Response:
        at = time.monotonic()
        path = request.path.removeprefix(API_PREFIX)
        body, files = await _read_body(request)
        template, params, handler = path, {}, None
        for route, pattern, found in self._routes.get(request.method, ()):
            match = pattern.fullmatch(path)
            if match:
                template, params, handler = route, match.groupdict(), found
                break
        auth = request.headers.get("Authorization")
        bucket = bucket_of(request.method, template, params)
        req = RecordedRequest(
            request.method, template, path, params, dict(request.query), body, files, auth, at=at,
            channel_id=int(params["channel_id"]) if "channel_id" in params else None,
            global_limited=bucket.counts_global,
        )  # fmt: skip
        if self.record_requests:
            self.requests.append(req)
        headers, scope = dict(VIA), None
        try:
            if self.token is not None and not path.startswith(TOKEN_ROUTES) and auth != f"Bot {self.token}":
                raise DiscordError(401, 0, "401: Unauthorized")
            if self.rate_limiter is not None:
                headers.update(self.rate_limiter.admit(bucket, auth))
            result = await self._answer(req, handler)
            req.status, req.response = (204 if result is None else 200), result
            response = web.Response(status=204, headers=headers) if result is None else _json(result, 200, headers)
        except DiscordError as exc:
            req.status, req.error = exc.status, exc.describe()
            scope = self._refusal(req, exc, bucket, headers)
            response = _json(exc.body(), exc.status, headers)
        self.accounting.count(req, bucket, scope)
        if template == CALLBACK and self._acknowledged(params["webhook_token"]):
            if waiter := self._answered.pop(params["webhook_token"], None):
                waiter.set_result(None)
        self.notify()
        return response

    def _acknowledged(self, token: str) -> bool:
        """Whether the interaction's callback took effect (its answer may have been lost: a 5xx)."""
        interaction = self.interactions.get(token)
        return interaction is not None and interaction.callback is not None

    def _refusal(self, req: RecordedRequest, exc: DiscordError, bucket: Bucket, headers: dict[str, str]) -> str | None:
        """Headers for an error answer; the scope of a 429 (kept out of ``problems``: discord.py retries)."""
        if exc.status != 429:
            if not exc.injected:
                self.problems.append(f"{req.method} {req.route} -> {exc.describe()}")
            return None
        if "Retry-After" not in exc.headers:  # a test's own DiscordError(429, ...)
            exc.headers = too_many(exc.retry_after or 0.0).headers
        scope = exc.headers["X-RateLimit-Scope"]
        if scope == "global":  # no bucket is to blame
            for key in [key for key in headers if key.startswith("X-RateLimit-")]:
                del headers[key]
        elif exc.injected and self.rate_limiter is not None:
            headers.update(self.rate_limiter.headers(bucket))
        headers.update(exc.headers)
        return scope

    async def _answer(self, req: RecordedRequest, handler: Callable | None) -> Any:
        for override in list(self.overrides.get((req.method, req.route), ())):
            try:
                result = override(req)
                result = await result if inspect.isawaitable(result) else result
            except DiscordError as exc:
                exc.injected = True
                raise
            if result is not DEFAULT:
                return result
        if handler is None:
            self.unknown_requests.append(req)
            raise DiscordError(404, 0, f"404: Not Found (the fake has no route {req.method} {req.path})")
        result = handler(self, req)
        lost = self.answer_lost(req)
        if lost is not None:
            raise lost  # done, but the answer does not arrive
        return result

    # ------------------------------------------------------------------ the door for another process

    def notify(self) -> None:
        """Wake :meth:`wait_until` (after every request and gateway message)."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float = 10.0, what: str = "condition") -> Any:
        """Wait until ``predicate()`` is truthy (checked after every request, and every 50 ms) and return it."""
        try:
            async with asyncio.timeout(timeout):
                while not (found := predicate()):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), 0.05)
        except TimeoutError:
            recent = [f"{r.method} {r.path} -> {r.status}" for r in self.requests[-6:]]
            raise TimeoutError(
                f"no {what} after {timeout}s; recent requests {recent}; problems {self.problems}"
            ) from None
        return found

    async def wait_for_ready(self, *, timeout: float = 30.0) -> dict:
        """Wait for a bot to IDENTIFY and sync its commands; return the IDENTIFY payload."""
        await self.wait_until(lambda: self.gateway.ready_count and self.commands, timeout=timeout, what="READY + sync")
        return list(self.gateway.sessions.values())[-1].identify

    async def send_interaction(
        self, payload: dict, *, action: str = "raw", settle: bool = True, timeout: float = 10.0
    ) -> Result:
        """Dispatch INTERACTION_CREATE over the gateway; with ``settle``, wait (up to ``timeout`` seconds)
        until Discord accepts its callback (and, for a deferred one, until the answer follows). Safe to run
        many at once: each waits on its own token, and its Result's ``latency`` is the time from the
        dispatch to the callback's arrival."""
        if not self.gateway.live():
            await self.wait_until(self.gateway.live, what="a connected gateway session")
        interaction = self.register_interaction(payload)
        result = Result(self, action, interaction)
        interaction.sent_at = time.monotonic()
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        if not settle:
            return result
        await self.wait_answered(result, timeout)
        if result.response is not None and result.response.kind in ("defer", "defer_update"):
            with contextlib.suppress(TimeoutError):  # a deferred answer follows: wait for it too
                await self.wait_until(lambda: result.answer is not None, timeout=timeout, what="a deferred answer")
        return result

    async def wait_answered(self, result: Result, timeout: float = 10.0) -> Result:
        """Wait until Discord accepted ``result``'s callback (at once if it has): for actions sent with
        ``settle=False``, so a driver keeps many in flight and still learns each one's latency."""
        if result.unanswered:
            waiter = self._answered.get(result.token)
            if waiter is None:
                waiter = self._answered[result.token] = asyncio.get_running_loop().create_future()
            try:
                await asyncio.wait_for(asyncio.shield(waiter), timeout)
            except TimeoutError:
                recent = f"{len(self.problems)} problems, the last: {self.problems[-3:]}"
                raise TimeoutError(f"no answer to {result.action} after {timeout}s; {recent}") from None
        return result


def _json(data: Any, status: int, headers: dict[str, str]) -> web.Response:
    # discord.py decodes only a Content-Type of exactly "application/json" (no charset). orjson, as discord.py
    # itself uses: the fake's JSON was a tenth of the benchmark's own CPU (issue 44).
    body = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    return web.Response(body=body, status=status, content_type="application/json", headers=headers)


async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON body, or multipart's ``payload_json`` plus the uploaded files (``files[N]`` parts)."""
    if not request.can_read_body:
        return None, []
    if not request.headers.get("Content-Type", "").lower().startswith("multipart/"):  # no header parsing
        raw = await request.read()
        return (orjson.loads(raw) if raw else None), []
    body, files = None, []
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        raw = await part.read()  # type: ignore[union-attr]
        if part.name == "payload_json":
            body = orjson.loads(raw)
        else:
            kind = part.headers.get("Content-Type")
            files.append(upload(part.name, part.filename, bytes(raw), kind, len(files)))  # type: ignore[union-attr]
    return body, files
