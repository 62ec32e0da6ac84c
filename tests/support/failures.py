"""Failures a test injects: answer a route its own way (``on_route``), make it fail (``fail_next``), or let
it take effect and lose its answer (``lose_next_answer``).

An injected error is not one of Discord's refusals: the server leaves it out of ``problems``. An injected
429 is the one Discord gives (:func:`~support.ratelimits.too_many`): body, ``Retry-After``, scope, and
for ``scope="global"`` the global flag, so discord.py waits ``retry_after`` and sends the request again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import DiscordError
from .ratelimits import too_many
from .records import RecordedRequest

RouteHandler = Callable[[RecordedRequest], Any]


class DEFAULT:
    """Returned by an ``on_route`` handler to let the fake's own route answer."""


class InjectedFailures:
    """Mixin for :class:`~support.model.DiscordModel`; the server consults ``overrides`` before its routes."""

    def __init__(self) -> None:
        super().__init__()
        self.overrides: dict[tuple[str, str], list[RouteHandler]] = {}
        self.lost_answers: dict[tuple[str, str], list[int]] = {}  # route -> the statuses its next answers become

    def on_route(self, method: str, route: str, handler: RouteHandler) -> None:
        """Answer a route (discord.py template) with ``handler(request)``: it returns the JSON body, raises
        :meth:`http_error`, or returns ``DEFAULT`` to let the fake answer."""
        self.overrides.setdefault((method.upper(), route), []).append(handler)

    def fail_next(
        self, method: str, route: str, status: int = 500, code: int = 0, message: str = "injected failure",
        *, retry_after: float = 0.05, times: int = 1, scope: str = "user",
    ) -> None:  # fmt: skip
        """Make the next ``times`` requests to this route fail. discord.py itself retries a 429 (after
        ``retry_after``; ``scope`` "user", "global" or "shared") and a 500/502/504 (after 1 s, 3 s, ...;
        five tries in all) before the bot sees it."""
        handlers = self.overrides.setdefault((method.upper(), route), [])
        left = [times]

        def fail(_: RecordedRequest) -> Any:
            left[0] -= 1
            if not left[0]:
                handlers.remove(fail)
            raise self.http_error(status, code, message, retry_after=retry_after, scope=scope)

        handlers.append(fail)

    def lose_next_answer(self, method: str, route: str, status: int = 500, *, times: int = 1) -> None:
        """The next ``times`` requests to this route take effect, but their answer is lost: a ``status``
        (5xx) comes back instead, as when Discord did the work and then failed to say so. discord.py
        sends a 5xx'd request again, and the retry meets what the first one did: a second callback for
        the interaction gets 400 40060 "Interaction has already been acknowledged", a second followup
        posts a second message."""
        self.lost_answers.setdefault((method.upper(), route), []).extend([status] * times)

    def answer_lost(self, req: RecordedRequest) -> DiscordError | None:
        """The error to send instead of the answer of ``req``, which took effect (None: the answer goes)."""
        lost = self.lost_answers.get((req.method, req.route))
        if not lost:
            return None
        status = lost.pop(0)
        error = DiscordError(status, 0, f"{status}: Internal Server Error")
        error.injected = True
        return error

    @staticmethod
    def http_error(
        status: int, code: int = 0, message: str = "", *, retry_after: float | None = None, scope: str = "user"
    ) -> DiscordError:
        if status == 429:
            return too_many(0.05 if retry_after is None else retry_after, scope)
        return DiscordError(status, code, message or "injected failure", retry_after=retry_after)
