"""The in-process door: a real discord.py bot in the test's event loop, talking HTTP to the loopback fake.

The bot logs in with ``bot.login`` (so ``setup_hook`` and ``tree.sync`` run as in production), its
guild is added from the same GUILD_CREATE payload the gateway would send, and interactions are fed to
``parse_interaction_create``. Every REST call, interaction callbacks included, goes through discord.py's
real ``HTTPClient.request`` / webhook adapter to the server, so rate-limit buckets, retries on 429 and
5xx, and error parsing are discord.py's own. :meth:`Harness.settle` waits for every task a dispatch
started, so each action's effects are complete (and deterministic) when it returns.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
from discord.http import Route

from bot.app.buckets import FORGETTING_TASK
from bot.service.allocator import GIVING_BACK_TASK

from . import payloads
from .errors import HarnessError, SettleTimeout
from .model import delivered
from .results import Result
from .server import FakeDiscord

_DISCORD_DIR = str(Path(discord.__file__).parent)
_TIMERS = ("__timeout_task_impl", ".<locals>.inner_call", ".<locals>.delete")  # view timeouts, delete_after
REFUSED_BODIES = ("400 50035", "400 50006", "413 40005")  # bodies Discord refuses: the bot must not send them


def _background(task: asyncio.Task) -> bool:
    """Long-lived by design: discord.py's timers, the server's keep-alive connection loops, and every bot's
    upkeep (the allocator's, the rate-limit buckets': they run as long as the bot, from its setup)."""
    coro = task.get_coro()
    name = getattr(coro, "__qualname__", "")
    code = getattr(coro, "cr_code", None)
    timer = code is not None and code.co_filename.startswith(_DISCORD_DIR) and name.endswith(_TIMERS)
    return timer or name == "RequestHandler.start" or task.get_name() in (GIVING_BACK_TASK, FORGETTING_TASK)


class _ErrorCapture(logging.Handler):
    """Collects ERROR records (with tracebacks) logged anywhere while a harness is open."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.sink.append(text)


class Harness(FakeDiscord):
    """The fake Discord with one bot attached in process. Create with :meth:`create`; always :meth:`close`."""

    def __init__(self, *, settle_timeout: float = 30.0, **kwargs: Any) -> None:
        # 30 s: a whole game's worth of work settles within it even on a machine busy with other work (the
        # suite must pass every time there); a task that truly hangs still fails the test, only later.
        super().__init__(**kwargs)
        self.settle_timeout = settle_timeout
        self.bot: discord.Client | None = None
        self._open_results: list[Result] = []
        self._ignore: list[Callable[[asyncio.Task], bool]] = [_background]
        self._baseline: set[asyncio.Task] | None = None
        self._seen: set[asyncio.Task] = set()
        self._initial_tasks: set[asyncio.Task] = set()
        self._capture = _ErrorCapture(self.errors)
        self._base: str | None = None
        self.listeners.append(self._echo)

    @classmethod
    async def create(cls, bot: discord.Client, *, dispatch_ready: bool = True,
                     ignore: tuple[Callable[[asyncio.Task], bool], ...] = (), **kwargs: Any) -> Harness:
        """`ignore`: the bot's own long-lived tasks (a scheduler) that settle() must not wait for."""
        harness = cls(**kwargs)
        for predicate in ignore:
            harness.ignore_tasks(predicate)
        try:
            await harness.start()
            await harness.attach(bot, dispatch_ready=dispatch_ready)
        except BaseException:
            await harness.close()  # never leave Route.BASE pointing at a dead server
            raise
        return harness

    async def start(self) -> None:
        if Route.BASE.startswith("http://127.0.0.1"):
            raise HarnessError("discord.py already points at a loopback fake: one Harness at a time")
        await super().start()
        self._initial_tasks = set(asyncio.all_tasks())
        self._base, Route.BASE = Route.BASE, self.api_base
        logging.getLogger().addHandler(self._capture)

    async def attach(self, bot: discord.Client, *, dispatch_ready: bool = True) -> None:
        """Log ``bot`` in against the fake, give it the guild as GUILD_CREATE would, and (optionally) ready it."""
        if self.bot is not None:
            raise HarnessError("a bot is already attached; use restart()")
        self.bot = bot
        self._begin()
        await bot.login(f"fake-token-{self.key}")
        await self.settle()
        for guild_id in self.guild_ids:
            bot._connection._add_guild_from_data(payloads.guild(self, guild_id=guild_id))  # type: ignore[arg-type]
        if isinstance(getattr(bot, "_ready", None), asyncio.Event):
            bot._ready.set()  # type: ignore[attr-defined]
        if dispatch_ready:
            self._begin()
            bot.dispatch("ready")
            await self.settle()

    async def restart(self, new_bot: discord.Client, *, dispatch_ready: bool = True) -> None:
        """Close the bot and attach ``new_bot``: same guild, users, messages and fake."""
        await self.detach()
        await self.attach(new_bot, dispatch_ready=dispatch_ready)

    async def detach(self) -> None:
        if self.bot is not None:
            bot, self.bot = self.bot, None
            await bot.close()

    async def close(self) -> None:
        """Close the bot and the server, cancel leftover tasks, restore discord.py's globals; then fail if
        the bot sent a body Discord would refuse (50035, 50006, a file too large: 413 40005) that the test
        left in ``problems``."""
        try:
            await self.detach()
            await super().close()
        finally:
            current = asyncio.current_task()
            leftovers = [t for t in asyncio.all_tasks() if t is not current and t not in self._initial_tasks]
            for task in leftovers:
                task.cancel()
            if leftovers:
                await asyncio.wait(leftovers, timeout=2)
            if self._base is not None:
                Route.BASE, self._base = self._base, None
            logging.getLogger().removeHandler(self._capture)
        refused = [p for p in self.problems if any(f" -> {code} " in p for code in REFUSED_BODIES)]
        if refused:
            raise AssertionError("Discord would refuse what the bot sent:\n" + "\n".join(refused))

    def _echo(self, event: str, data: dict) -> None:
        """Deliver a message event through discord.py's parser, if the bot's intents would get it."""
        if self.bot is None or not delivered(self.bot.intents.value, data, event):
            return
        try:
            self.bot._connection.parsers[event](copy.deepcopy(data))  # discord.py keeps what it is given
        except Exception:
            self.errors.append(f"gateway {event} parser failed:\n{traceback.format_exc()}")

    # ------------------------------------------------------------------ interactions and settling

    async def send_interaction(
        self, payload: dict, *, action: str = "raw", settle: bool = True, timeout: float | None = None
    ) -> Result:
        """Register and dispatch a raw INTERACTION_CREATE payload; with ``settle``, wait for all it started."""
        if self.bot is None:
            raise HarnessError("no bot attached")
        interaction = self.register_interaction(payload)
        result = Result(self, action, interaction)
        self._open_results.append(result)
        self._begin()
        interaction.sent_at = time.monotonic()
        self.bot._connection.parse_interaction_create(copy.deepcopy(payload))  # type: ignore[arg-type]
        if settle:
            await self.settle(timeout)
        else:
            await asyncio.sleep(0)
        return result

    def in_flight(self) -> set[int]:
        return {r.interaction_id for r in self._open_results}

    def ignore_tasks(self, predicate: Callable[[asyncio.Task], bool]) -> None:
        """Tell :meth:`settle` not to wait for matching tasks (long-lived timers a handler starts)."""
        self._ignore.append(predicate)

    def _begin(self) -> None:
        if self._baseline is None:  # the first of a batch of unsettled sends
            self._baseline = set(asyncio.all_tasks())

    def _pending(self) -> list[asyncio.Task]:
        skip = (self._baseline or set()) | {asyncio.current_task()}
        pending = [t for t in asyncio.all_tasks() if t not in skip and not t.done()]
        pending = [t for t in pending if not any(ignore(t) for ignore in self._ignore)]
        self._seen.update(pending)
        return pending

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every task started since the last dispatch has finished; :class:`SettleTimeout`
        (with the stuck tasks' stacks) after ``timeout`` seconds (default ``settle_timeout``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.settle_timeout if timeout is None else timeout)
        try:
            while True:
                for _ in range(5):  # let call_soon callbacks and fresh tasks start
                    await asyncio.sleep(0)
                if not (pending := self._pending()):
                    break
                if loop.time() >= deadline:
                    raise SettleTimeout(_describe(pending))
                await asyncio.wait(pending, timeout=deadline - loop.time(), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in [t for t in self._seen if t.done()]:
                self._seen.discard(task)
                if not task.cancelled() and task.exception() is not None:
                    trace = "".join(traceback.format_exception(task.exception()))
                    self.errors.append(f"task {task.get_name()} raised:\n{trace}")
        self._baseline = None
        for result in self._open_results:
            result.finish()
        self._open_results.clear()


def _describe(tasks: list[asyncio.Task]) -> str:
    lines = [f"{len(tasks)} task(s) still running after the settle timeout:"]
    for task in tasks:
        lines.append(f"- {task.get_name()} {task.get_coro()!r}")
        awaitable: Any = task.get_coro()
        while awaitable is not None:  # follow the await chain down to where it is stuck
            frame = getattr(awaitable, "cr_frame", None) or getattr(awaitable, "gi_frame", None)
            if frame is not None:
                lines.append(f"    {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
            awaitable = getattr(awaitable, "cr_await", None) or getattr(awaitable, "gi_yieldfrom", None)
    lines.append("Use h.ignore_tasks(...) for intentional background tasks, or settle=False.")
    return "\n".join(lines)
