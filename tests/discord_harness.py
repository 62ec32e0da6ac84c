"""A test harness that runs the *real* discord.py code paths with only Discord's HTTP side faked.

Nothing here touches the network or a gateway.  The harness

* replaces ``bot.http.request`` (the single choke point of :class:`discord.http.HTTPClient`) and the
  ``request`` method of discord.py's shared :class:`~discord.webhook.async_.AsyncWebhookAdapter`
  (used for interaction callbacks, ``@original`` edits and followups) with an in-memory fake Discord;
* logs the bot in with ``await bot.login(...)`` so ``_async_setup_hook``, ``application_info`` and the
  bot's own ``setup_hook`` (command registration, ``add_view``, ``add_dynamic_items``, ``tree.sync``)
  run exactly as in production;
* fills ``bot._connection`` with a guild, a text channel and members parsed by discord.py itself from
  GUILD_CREATE-shaped payloads;
* feeds raw INTERACTION_CREATE payloads to ``bot._connection.parse_interaction_create`` and waits until
  every task spawned by that dispatch has finished (:meth:`Harness.settle`);
* keeps a model of what users can see: public channel messages, each user's ephemeral messages and
  loading ("Bot is thinking...") messages, and records every request.

Typical use (pytest-asyncio, ``asyncio_mode=auto``)::

    from tests.discord_harness import Harness, FakeUser

    async def test_new_game():
        h = await Harness.create(make_bot(), users=[FakeUser(1, "alice"), FakeUser(2, "bob")])
        try:
            r = await h.slash(1, "augsburg new", players=3)
            assert not r.unanswered and r.response.ephemeral is False
            board = r.message_with("augsburg:join:")          # output holding a matching custom_id
            r2 = await h.click(2, board, r.custom_ids()[0])    # bob clicks the button
            h.assert_all_answered()
            await h.restart(make_bot())                         # new Bot object, same fake Discord
            r3 = await h.click(1, board.message_id, r.custom_ids()[0])
        finally:
            await h.close()

What is modelled on purpose (because Discord does it):

* an interaction answered more than ``response_deadline`` seconds after it was created gets
  ``404 Unknown interaction (10062)``; answering twice gets ``400 (40060)``;
* the first followup after a "thinking" defer replaces the loading message and inherits the defer's
  ephemerality; later followups are independent messages;
* ephemeral messages cannot be fetched/edited through channel routes (404), only via the interaction
  webhook;
* non-ephemeral message creates/edits/deletes are echoed back through discord.py's gateway parsers
  (MESSAGE_CREATE/UPDATE/DELETE) unless ``gateway_echo=False``.
"""

from __future__ import annotations

import asyncio
import copy
import io
import itertools
import json
import logging
import re
import traceback
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any

import discord
from discord.http import Route
from discord.webhook.async_ import async_context

__all__ = [
    "EPHEMERAL",
    "LOADING",
    "FakeUser",
    "Harness",
    "HarnessError",
    "Output",
    "RecordedRequest",
    "Result",
    "SettleTimeout",
    "StoredMessage",
    "walk_components",
]

EPHEMERAL = 1 << 6  # MessageFlags.ephemeral
LOADING = 1 << 7  # MessageFlags.loading ("Bot is thinking...")

_DISCORD_DIR = str(Path(discord.__file__).parent)
_harness_counter = itertools.count(1)

# Interaction types (payload ``type``) and callback types (``InteractionResponseType``).
_APP_COMMAND, _COMPONENT, _AUTOCOMPLETE, _MODAL_SUBMIT = 2, 3, 4, 5
_CALLBACK_KINDS = {
    1: "pong",
    4: "response",
    5: "defer",
    6: "defer_update",
    7: "update",
    8: "autocomplete",
    9: "modal",
    12: "launch_activity",
}
_MESSAGE_KEYS = ("content", "embeds", "components", "attachments", "poll")
_SELECT_TYPES = {3, 5, 6, 7, 8}


class HarnessError(AssertionError):
    """The test asked for something a real user or Discord could not do (or the harness is misused)."""


class SettleTimeout(HarnessError):
    """Tasks started by a dispatch were still running when the settle timeout expired."""


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


# --------------------------------------------------------------------------------------------
# Component helpers (work on raw component dicts as sent to Discord)
# --------------------------------------------------------------------------------------------


def walk_components(components: Iterable[dict] | None) -> Iterator[dict]:
    """Yield every component dict, depth first, including rows, containers, sections and accessories."""
    for comp in components or ():
        yield comp
        yield from walk_components(comp.get("components"))
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield from walk_components([comp[key]])


class _ComponentQueries:
    """Mixin for objects exposing ``components`` (a list of raw component dicts)."""

    components: list[dict]

    def all_components(self) -> list[dict]:
        return list(walk_components(self.components))

    def custom_ids(self) -> list[str]:
        """Custom ids of every interactive component (buttons, selects, ...), in display order."""
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def buttons(self) -> list[dict]:
        return [c for c in self.all_components() if c.get("type") == 2]

    def labels(self) -> list[str]:
        """Button labels, in display order."""
        return [b.get("label") or "" for b in self.buttons()]

    def selects(self) -> list[dict]:
        return [c for c in self.all_components() if c.get("type") in _SELECT_TYPES]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> dict | None:
        """The component with this exact custom_id (or, with ``label=``, the button with that label)."""
        for comp in self.all_components():
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and comp.get("type") == 2 and comp.get("label") == label:
                return comp
        return None

    def select_options(self, custom_id: str | None = None) -> list[dict]:
        """Options of the select with this custom_id (or of the only/first select)."""
        selects = [s for s in self.selects() if custom_id is None or s.get("custom_id") == custom_id]
        return list(selects[0].get("options", [])) if selects else []


# --------------------------------------------------------------------------------------------
# Data records
# --------------------------------------------------------------------------------------------


@dataclass
class FakeUser:
    """A guild member that can click things.  ``permissions`` overrides the default member permissions."""

    id: int
    name: str = ""
    admin: bool = False
    permissions: int | None = None
    bot: bool = False

    def __post_init__(self) -> None:
        self.name = self.name or f"user{self.id}"

    def resolved_permissions(self) -> int:
        if self.permissions is not None:
            return self.permissions
        if self.admin:
            return discord.Permissions.all().value
        perms = discord.Permissions.text() | discord.Permissions(view_channel=True, use_application_commands=True)
        return perms.value

    def user_payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_payload(self, *, with_permissions: bool = False) -> dict:
        payload = {
            "user": self.user_payload(),
            "nick": None,
            "avatar": None,
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_permissions:
            payload["permissions"] = str(self.resolved_permissions())
        return payload


@dataclass
class StoredMessage(_ComponentQueries):
    """The harness's current view of one message (``data`` is the full Discord message JSON)."""

    id: int
    channel_id: int
    data: dict
    ephemeral: bool = False
    owner_id: int | None = None  # who can see it, for ephemeral messages
    interaction_id: int | None = None  # interaction that created it, if any
    deleted: bool = False

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def embeds(self) -> list[dict]:
        return self.data.get("embeds") or []

    @property
    def components(self) -> list[dict]:  # type: ignore[override]
        return self.data.get("components") or []

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def loading(self) -> bool:
        """True while this is an unfilled "Bot is thinking..." message."""
        return bool(self.flags & LOADING)


@dataclass
class Output(_ComponentQueries):
    """One user-visible effect of the bot (a response, an edit, a followup, a channel message, ...).

    ``content``/``embeds``/``components`` describe the affected message *after* the operation;
    ``payload`` is exactly what the bot sent.
    """

    kind: str
    message_id: int | None = None
    ephemeral: bool = False
    content: str | None = None
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    payload: dict = field(default_factory=dict)
    channel_id: int | None = None
    user_id: int | None = None  # the interacting user, for interaction outputs
    interaction_id: int | None = None
    choices: list[dict] | None = None  # autocomplete
    modal: dict | None = None  # modal payload (custom_id, title, components)

    def __repr__(self) -> str:
        bits = [self.kind, f"id={self.message_id}"]
        if self.ephemeral:
            bits.append("ephemeral")
        if self.content:
            bits.append(repr(self.content[:60]))
        if self.custom_ids():
            bits.append(f"custom_ids={self.custom_ids()}")
        return f"<Output {' '.join(bits)}>"


@dataclass
class RecordedRequest:
    """One fake HTTP request.  ``path`` is the discord.py route template; ``params`` its filled values."""

    source: str  # "http" (bot.http) or "webhook" (interaction webhook adapter)
    method: str
    path: str
    url: str
    params: dict[str, str]
    json: Any
    query: dict | None
    files: list[dict]
    response: Any = None
    error: str | None = None


@dataclass
class _InteractionLog:
    """Server-side bookkeeping for one interaction token."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    created_at: float  # loop time
    message_id: int | None = None  # component message, for component / modal interactions
    callback_type: int | None = None
    responded_at: float | None = None
    original_id: int | None = None  # message targeted by @original
    loading: bool = False  # deferred with thinking and not yet filled
    expired: bool = False  # tried to answer after the response deadline


class Result(_ComponentQueries):
    """What one harness action (slash, click, ...) led to.

    ``outputs`` are all effects recorded from the dispatch until the settle finished (including plain
    channel messages the handler sent).  ``unanswered`` is True when Discord would have shown
    "This interaction failed" (no successful callback at all).
    """

    def __init__(self, harness: Harness, action: str, interaction: _InteractionLog, start: int) -> None:
        self._harness = harness
        self.action = action
        self.interaction_id = interaction.id
        self.user_id = interaction.user.id
        self._log = interaction
        self._start = start
        self._end: int | None = None
        self._errors_start = len(harness.errors)
        self._errors_end: int | None = None
        self.settled = False

    # -- lifecycle -----------------------------------------------------------------------------
    def _finish(self) -> None:
        self._end = len(self._harness.outputs)
        self._errors_end = len(self._harness.errors)
        self.settled = True

    # -- raw views -----------------------------------------------------------------------------
    @property
    def outputs(self) -> list[Output]:
        return self._harness.outputs[self._start : self._end]

    @property
    def errors(self) -> list[str]:
        """Errors logged by discord.py (handler exceptions etc.) during this action."""
        return self._harness.errors[self._errors_start : self._errors_end]

    @property
    def callback_type(self) -> int | None:
        return self._log.callback_type

    @property
    def unanswered(self) -> bool:
        return self._log.callback_type is None

    @property
    def still_thinking(self) -> bool:
        """Deferred with "thinking" but never followed up / edited: the user sees a spinner forever."""
        return self._log.loading

    @property
    def components(self) -> list[dict]:  # type: ignore[override]
        return [c for out in self.outputs for c in out.components]

    # -- convenience ---------------------------------------------------------------------------
    @property
    def response(self) -> Output | None:
        """The interaction callback output (response/defer/update/...), if any."""
        cb_kinds = set(_CALLBACK_KINDS.values())
        return next((o for o in self.outputs if o.kind in cb_kinds and o.interaction_id == self.interaction_id), None)

    @property
    def messages(self) -> list[Output]:
        """Outputs that show message content (everything except defers, deletes, autocomplete, modals)."""
        hidden = {"defer", "defer_update", "autocomplete", "modal", "pong"}
        return [o for o in self.outputs if o.message_id is not None and o.kind not in hidden and "delete" not in o.kind]

    @property
    def ephemeral(self) -> list[Output]:
        return [o for o in self.messages if o.ephemeral]

    @property
    def public(self) -> list[Output]:
        return [o for o in self.messages if not o.ephemeral]

    @property
    def contents(self) -> list[str]:
        return [o.content or "" for o in self.messages]

    @property
    def text(self) -> str:
        """All message contents and embed titles/descriptions joined, handy for ``in`` assertions."""
        parts: list[str] = []
        for out in self.messages:
            parts.append(out.content or "")
            for emb in out.embeds:
                parts.extend(str(emb.get(k) or "") for k in ("title", "description"))
                parts.extend(f"{f.get('name')} {f.get('value')}" for f in emb.get("fields", []))
        return "\n".join(p for p in parts if p)

    @property
    def choices(self) -> list[dict] | None:
        out = next((o for o in self.outputs if o.kind == "autocomplete"), None)
        return None if out is None else out.choices

    @property
    def modal(self) -> dict | None:
        out = next((o for o in self.outputs if o.kind == "modal"), None)
        return None if out is None else out.modal

    def message_with(self, custom_id: str | None = None, *, label: str | None = None) -> Output:
        """The last output whose components contain ``custom_id`` (exact, or prefix if it ends with ':')."""
        for out in reversed(self.messages):
            for comp in out.all_components():
                cid = comp.get("custom_id") or ""
                if custom_id is not None and (
                    cid == custom_id or (custom_id.endswith(":") and cid.startswith(custom_id))
                ):
                    return out
                if label is not None and comp.get("label") == label:
                    return out
        raise HarnessError(f"no output with custom_id={custom_id!r} label={label!r}; outputs: {self.outputs}")

    def __repr__(self) -> str:
        state = "unanswered" if self.unanswered else _CALLBACK_KINDS.get(self.callback_type or 0, self.callback_type)
        return f"<Result {self.action} user={self.user_id} {state} outputs={self.outputs} errors={len(self.errors)}>"


class _Default:
    """Sentinel: a custom route handler returns ``Harness.DEFAULT`` to fall back to the built-in handler."""


class _FakeResponse:
    """Just enough of an aiohttp response for :class:`discord.HTTPException`."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason
        self.headers: dict[str, str] = {}


class _ErrorCapture(logging.Handler):
    """Collects ERROR records (with tracebacks) from the ``discord`` logger."""

    def __init__(self, sink: list[str]) -> None:
        super().__init__(level=logging.ERROR)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        text = f"{record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        self.sink.append(text)


# --------------------------------------------------------------------------------------------
# The harness
# --------------------------------------------------------------------------------------------

RouteHandler = Callable[[RecordedRequest], Any]


class Harness:
    """Fake Discord for one guild/text channel, driving a real :class:`discord.Client`/``commands.Bot``.

    Create with :meth:`create`; always :meth:`close` (or use ``async with``).
    """

    DEFAULT = _Default

    def __init__(
        self,
        *,
        guild_id: int = 900_000_000_000_000_001,
        channel_id: int = 900_000_000_000_000_002,
        users: Iterable[FakeUser | int] = (),
        application_id: int = 900_000_000_000_000_100,
        bot_name: str = "augsburg-bot",
        settle_timeout: float = 5.0,
        response_deadline: float | None = 3.0,
        gateway_echo: bool = True,
        locale: str = "en-US",
    ) -> None:
        self.key = next(_harness_counter)
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.application_id = application_id
        self.bot_user = FakeUser(application_id, bot_name, bot=True)
        self.users: dict[int, FakeUser] = {}
        for user in users:
            self.add_user(user)
        self.settle_timeout = settle_timeout
        self.response_deadline = response_deadline
        self.gateway_echo = gateway_echo
        self.locale = locale

        self.bot: discord.Client | None = None
        self.requests: list[RecordedRequest] = []
        self.sent: list[dict] = []  # raw INTERACTION_CREATE payloads fed to discord.py
        self.outputs: list[Output] = []
        self.errors: list[str] = []
        self.messages: dict[int, StoredMessage] = {}  # every message ever created, by id
        self.dm_channels: dict[int, int] = {}  # channel id -> user id
        self.command_ids: dict[tuple[int | None, str], int] = {}  # (guild id, name) -> id from tree.sync
        self.last_modal: dict[int, tuple[dict, _InteractionLog]] = {}  # user id -> (modal payload, log)
        self.last_result: Result | None = None  # set by autocomplete(), which returns only the choices

        self._interactions: dict[str, _InteractionLog] = {}  # token -> log
        self._routes: dict[tuple[str, str], list[RouteHandler]] = {}
        self._ignore_task: list[Callable[[asyncio.Task], bool]] = [self._is_discord_timer]
        self._open_results: list[Result] = []
        self._baseline: set[asyncio.Task] | None = None
        self._seen_tasks: set[asyncio.Task] = set()
        self._initial_tasks: set[asyncio.Task] = set()
        self._last_id = 0
        self._error_capture = _ErrorCapture(self.errors)
        self._adapter = async_context.get()
        self._adapter_prev: Any = None
        self._installed = False

    # ------------------------------------------------------------------ setup / teardown -------

    @classmethod
    async def create(cls, bot: discord.Client, **kwargs: Any) -> Harness:
        """Build a harness and attach ``bot`` (see :meth:`attach`).  ``dispatch_ready`` may be passed."""
        dispatch_ready = kwargs.pop("dispatch_ready", True)
        harness = cls(**kwargs)
        try:
            await harness.attach(bot, dispatch_ready=dispatch_ready)
        except BaseException:
            await harness.close()  # never leave the global webhook patch behind
            raise
        return harness

    async def __aenter__(self) -> Harness:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def add_user(self, user: FakeUser | int) -> FakeUser:
        """Add a guild member (also possible after attach; members are sent with each interaction)."""
        user = user if isinstance(user, FakeUser) else FakeUser(int(user))
        self.users[user.id] = user
        return user

    async def attach(self, bot: discord.Client, *, dispatch_ready: bool = True) -> None:
        """Wire ``bot`` to this fake Discord and start it the way ``Client.start`` would, minus the gateway.

        Runs ``bot.login`` (hence ``setup_hook``) against the fake HTTP, then adds the guild to the
        connection state and (optionally) dispatches ``on_ready``.
        """
        if self.bot is not None:
            raise HarnessError("a bot is already attached; use restart()")
        self._install_global_patches()
        if not self._initial_tasks:
            self._initial_tasks = set(asyncio.all_tasks())
        self.bot = bot
        bot.http.request = self._http_request  # type: ignore[method-assign]
        if bot.application_id is None:
            bot._connection.application_id = self.application_id
        self.application_id = bot.application_id  # type: ignore[assignment]

        self._begin()
        await bot.login(f"harness-token-{self.key}")
        await self.settle()
        self._populate_state(bot)
        if dispatch_ready:
            self._begin()
            bot.dispatch("ready")
            await self.settle()

    async def restart(self, new_bot: discord.Client, *, dispatch_ready: bool = True) -> None:
        """Close the current bot and attach ``new_bot``: same guild, channel, users and message history."""
        await self.detach()
        await self.attach(new_bot, dispatch_ready=dispatch_ready)

    async def detach(self) -> None:
        """Close the attached bot (``bot.close()``) but keep the fake Discord state."""
        if self.bot is None:
            return
        bot, self.bot = self.bot, None
        await bot.close()

    async def close(self) -> None:
        """Close the bot, cancel every task created since the first attach that is still pending
        (view timeouts, ``delete_after`` timers, hung handlers) and undo the global patches."""
        try:
            await self.detach()
        finally:
            await self._cancel_leftover_tasks()
            self._uninstall_global_patches()

    def _install_global_patches(self) -> None:
        if self._installed:
            return
        # Interaction responses/followups use discord.py's module-level webhook adapter
        # (async_context's default instance).  Shadow its ``request`` for our tokens only.
        self._adapter_prev = self._adapter.__dict__.get("request")
        self._adapter.request = self._webhook_request  # type: ignore[method-assign]
        logging.getLogger("discord").addHandler(self._error_capture)
        self._installed = True

    def _uninstall_global_patches(self) -> None:
        if not self._installed:
            return
        if self._adapter_prev is None:
            self._adapter.__dict__.pop("request", None)
        else:
            self._adapter.request = self._adapter_prev  # type: ignore[method-assign]
        logging.getLogger("discord").removeHandler(self._error_capture)
        self._installed = False

    async def _cancel_leftover_tasks(self) -> None:
        current = asyncio.current_task()
        leftovers = [t for t in asyncio.all_tasks() if t is not current and t not in self._initial_tasks]
        for task in leftovers:
            task.cancel()
        if leftovers:
            await asyncio.wait(leftovers, timeout=2)

    def _populate_state(self, bot: discord.Client) -> None:
        """Add the guild (with channel and members) exactly as GUILD_CREATE would, and mark the bot ready."""
        state = bot._connection
        state._add_guild_from_data(self.guild_payload())  # type: ignore[arg-type]
        ready = getattr(bot, "_ready", None)
        if isinstance(ready, asyncio.Event):
            ready.set()

    # ------------------------------------------------------------------ snowflakes & payloads --

    def next_id(self) -> int:
        """A fresh, increasing snowflake for "now" (so ``created_at``/expiry checks behave)."""
        now = discord.utils.time_snowflake(datetime.now(UTC))
        self._last_id = max(self._last_id + 1, now)
        return self._last_id

    @property
    def guild(self) -> discord.Guild | None:
        return None if self.bot is None else self.bot.get_guild(self.guild_id)

    @property
    def channel(self) -> discord.TextChannel | None:
        return None if self.bot is None else self.bot.get_channel(self.channel_id)  # type: ignore[return-value]

    def everyone_permissions(self) -> int:
        return (discord.Permissions.text() | discord.Permissions(view_channel=True)).value

    def channel_payload(self) -> dict:
        return {
            "id": str(self.channel_id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": "augsburg",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }

    def guild_payload(self) -> dict:
        members = [u.member_payload() for u in [self.bot_user, *self.users.values()]]
        return {
            "id": str(self.guild_id),
            "name": "Harness Guild",
            "icon": None,
            "owner_id": str(next(iter(self.users), self.bot_user.id)),
            "roles": [
                {
                    "id": str(self.guild_id),
                    "name": "@everyone",
                    "permissions": str(self.everyone_permissions()),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [self.channel_payload()],
            "threads": [],
            "members": members,
            "member_count": len(members),
            "voice_states": [],
            "presences": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "preferred_locale": self.locale,
            "premium_tier": 0,
            "system_channel_flags": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "large": False,
            "unavailable": False,
        }

    def application_payload(self) -> dict:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
            "flags": 0,
        }

    def user(self, user_id: int) -> FakeUser:
        try:
            return self.users[user_id]
        except KeyError:
            raise HarnessError(f"unknown user {user_id}; add it with users=[...] or add_user()") from None

    # ------------------------------------------------------------------ model queries ----------

    @property
    def channel_messages(self) -> dict[int, StoredMessage]:
        """Live public messages in the harness channel, oldest first (id -> message)."""
        return {
            mid: m
            for mid, m in sorted(self.messages.items())
            if m.channel_id == self.channel_id and not m.ephemeral and not m.deleted
        }

    def ephemeral_messages(self, user_id: int) -> dict[int, StoredMessage]:
        """Live ephemeral messages only ``user_id`` can see, oldest first."""
        return {
            mid: m
            for mid, m in sorted(self.messages.items())
            if m.ephemeral and m.owner_id == user_id and not m.deleted
        }

    def dm_messages(self, user_id: int) -> dict[int, StoredMessage]:
        """Live messages the bot sent to ``user_id`` by DM."""
        channels = {cid for cid, uid in self.dm_channels.items() if uid == user_id}
        return {mid: m for mid, m in sorted(self.messages.items()) if m.channel_id in channels and not m.deleted}

    def visible_messages(self, user_id: int) -> dict[int, StoredMessage]:
        """Public channel messages plus ``user_id``'s ephemeral ones, oldest first."""
        return dict(sorted({**self.channel_messages, **self.ephemeral_messages(user_id)}.items()))

    def message(self, message_id: int) -> StoredMessage:
        try:
            return self.messages[int(message_id)]
        except KeyError:
            raise HarnessError(f"unknown message {message_id}") from None

    def find_message(
        self, custom_id: str | None = None, *, label: str | None = None, user_id: int | None = None
    ) -> StoredMessage:
        """The newest live message (visible to ``user_id`` if given) with a matching component.

        ``custom_id`` matches exactly, or as a prefix when it ends with ``':'``.
        """
        pool = (
            self.visible_messages(user_id)
            if user_id is not None
            else {k: m for k, m in self.messages.items() if not m.deleted}
        )
        for msg in sorted(pool.values(), key=lambda m: m.id, reverse=True):
            for comp in msg.all_components():
                cid = comp.get("custom_id") or ""
                if custom_id is not None and (
                    cid == custom_id or (custom_id.endswith(":") and cid.startswith(custom_id))
                ):
                    return msg
                if label is not None and comp.get("type") == 2 and comp.get("label") == label:
                    return msg
        raise HarnessError(f"no live message with custom_id={custom_id!r} label={label!r}")

    @property
    def unanswered(self) -> list[_InteractionLog]:
        """Interactions (settled so far) that never got a successful callback."""
        return [i for i in self._interactions.values() if i.callback_type is None and i not in self._in_flight()]

    def assert_all_answered(self, *, allow_thinking: bool = False) -> None:
        """Fail if any interaction got "This interaction failed" (or, by default, is stuck "thinking")."""
        problems = [f"interaction {i.id} (type {i.type}, user {i.user.id}) was never answered" for i in self.unanswered]
        if not allow_thinking:
            problems += [
                f"interaction {i.id} (user {i.user.id}) deferred with thinking but never followed up"
                for i in self._interactions.values()
                if i.loading
            ]
        if problems:
            raise AssertionError("\n".join(problems + [f"errors: {e}" for e in self.errors]))

    def assert_no_errors(self) -> None:
        """Fail if discord.py logged any error (exceptions in commands, views, dynamic items, events)."""
        if self.errors:
            raise AssertionError("discord.py logged errors:\n" + "\n---\n".join(self.errors))

    def requests_to(self, method: str, path: str) -> list[RecordedRequest]:
        """Recorded requests for one route template, e.g. ``("POST", "/channels/{channel_id}/messages")``."""
        return [r for r in self.requests if r.method == method and r.path == path]

    def _in_flight(self) -> list[_InteractionLog]:
        return [r._log for r in self._open_results]

    # ------------------------------------------------------------------ custom routes ----------

    def on_route(self, method: str, path: str, handler: RouteHandler) -> None:
        """Override a route (discord.py template path).  The handler gets the :class:`RecordedRequest`
        and returns the JSON body, raises (see :meth:`http_error`) or returns ``Harness.DEFAULT``."""
        self._routes.setdefault((method.upper(), path), []).append(handler)

    def fail_next(
        self, method: str, path: str, status: int = 500, code: int = 0, message: str = "harness failure"
    ) -> None:
        """Make the next request to this route fail with an HTTP error."""
        handlers = self._routes.setdefault((method.upper(), path), [])

        def fail(_: RecordedRequest) -> Any:
            handlers.remove(fail)
            raise self.http_error(status, code, message)

        handlers.append(fail)

    @staticmethod
    def http_error(status: int, code: int = 0, message: str = "") -> discord.HTTPException:
        """The exception discord.py itself would raise for this HTTP status/JSON error code."""
        response = _FakeResponse(status, HTTPStatus(status).phrase)
        body = {"code": code, "message": message}
        if status == 403:
            return discord.Forbidden(response, body)  # type: ignore[arg-type]
        if status == 404:
            return discord.NotFound(response, body)  # type: ignore[arg-type]
        if status >= 500:
            return discord.DiscordServerError(response, body)  # type: ignore[arg-type]
        return discord.HTTPException(response, body)  # type: ignore[arg-type]

    def ignore_tasks(self, predicate: Callable[[asyncio.Task], bool]) -> None:
        """Tell :meth:`settle` not to wait for matching tasks (e.g. long-lived timers a handler starts)."""
        self._ignore_task.append(predicate)

    # ------------------------------------------------------------------ fake transport ---------

    async def _http_request(self, route: Route, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        """Replacement for ``HTTPClient.request``."""
        body = kwargs.get("json")
        if form:
            body = self._payload_from_form(form)
        return await self._dispatch_request("http", route, body, files, kwargs.get("params"))

    async def _webhook_request(
        self,
        route: Route,
        session: Any = None,
        *,
        payload: dict | None = None,
        multipart: list[dict] | None = None,
        files: Any = None,
        params: dict | None = None,
        **kwargs: Any,
    ) -> Any:
        """Replacement for ``AsyncWebhookAdapter.request`` on the shared adapter."""
        token = route.webhook_token
        if token not in self._interactions:
            if self._adapter_prev is not None:  # another (outer) harness owns this token
                return await self._adapter_prev(
                    route, session, payload=payload, multipart=multipart, files=files, params=params, **kwargs
                )
            raise HarnessError(f"webhook request for unknown token {token!r}: {route.method} {route.url}")
        body = payload
        if multipart:
            body = self._payload_from_form(multipart)
        return await self._dispatch_request("webhook", route, body, files, params)

    @staticmethod
    def _payload_from_form(form: Iterable[dict]) -> dict:
        for part in form:
            if part.get("name") == "payload_json":
                return json.loads(part["value"])
        return {}

    @staticmethod
    def _route_params(route: Route) -> dict[str, str]:
        names = re.findall(r"{(\w+)}", route.path)
        pattern = re.escape(route.path)
        for name in names:
            pattern = pattern.replace(re.escape("{" + name + "}"), f"(?P<{name}>[^/]+)")
        match = re.fullmatch(pattern, route.url[len(Route.BASE) :])
        return match.groupdict() if match else {}

    @staticmethod
    def _describe_files(files: Any) -> list[dict]:
        described = []
        for f in files or ():
            fp = getattr(f, "fp", None)
            size = len(fp.getvalue()) if isinstance(fp, io.BytesIO) else 0
            described.append({"filename": f.filename, "size": size, "description": getattr(f, "description", None)})
        return described

    async def _dispatch_request(self, source: str, route: Route, body: Any, files: Any, query: dict | None) -> Any:
        req = RecordedRequest(
            source=source,
            method=route.method,
            path=route.path,
            url=route.url,
            params=self._route_params(route),
            json=copy.deepcopy(body),
            query=dict(query) if query else None,
            files=self._describe_files(files),
        )
        self.requests.append(req)
        await asyncio.sleep(0)  # a real request always yields to the loop
        try:
            result: Any = _Default
            for handler in list(self._routes.get((req.method, req.path), ())):
                result = handler(req)
                if isinstance(result, Awaitable):
                    result = await result
                if result is not _Default:
                    break
            if result is _Default:
                result = self._builtin_route(req)
        except discord.HTTPException as exc:
            req.error = f"{exc.status} {exc.code} {exc.text}"
            raise
        req.response = copy.deepcopy(result)
        return result

    def _builtin_route(self, req: RecordedRequest) -> Any:
        handler = _ROUTES.get((req.method, req.path))
        if handler is None:
            if req.method == "GET":
                raise self.http_error(404, 0, f"harness has no fake for GET {req.path}")
            return None  # unknown side effect (reaction, pin, ...): recorded, answered with 204
        return handler(self, req)

    # ------------------------------------------------------------------ message model ----------

    def _new_message(
        self,
        body: dict,
        *,
        channel_id: int,
        files: list[dict] | None = None,
        ephemeral: bool = False,
        owner_id: int | None = None,
        interaction: _InteractionLog | None = None,
        loading: bool = False,
    ) -> StoredMessage:
        mid = self.next_id()
        flags = int(body.get("flags") or 0) & ~EPHEMERAL
        if ephemeral:
            flags |= EPHEMERAL
        if loading:
            flags |= LOADING
        data: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": self.bot_user.user_payload(),
            "content": body.get("content") or "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts")),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachments(files),
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": flags,
        }
        if channel_id not in self.dm_channels:
            data["guild_id"] = str(self.guild_id)
        if body.get("message_reference"):
            data["type"] = 19
            data["message_reference"] = body["message_reference"]
        if body.get("poll"):
            data["poll"] = body["poll"]
        if interaction is not None:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.user_payload(),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
            if interaction.type == _APP_COMMAND:
                data["type"] = 20  # CHAT_INPUT_COMMAND
        msg = StoredMessage(
            id=mid,
            channel_id=channel_id,
            data=data,
            ephemeral=ephemeral,
            owner_id=owner_id if ephemeral else None,
            interaction_id=None if interaction is None else interaction.id,
        )
        self.messages[mid] = msg
        if not ephemeral:
            self._gateway("MESSAGE_CREATE", data)
        return msg

    def _attachments(self, files: list[dict] | None) -> list[dict]:
        out = []
        for f in files or ():
            aid = self.next_id()
            url = f"https://cdn.discordapp.com/attachments/{self.channel_id}/{aid}/{f['filename']}"
            out.append({"id": str(aid), "filename": f["filename"], "size": f["size"], "url": url, "proxy_url": url})
        return out

    def _edit_message(self, msg: StoredMessage, body: dict, files: list[dict] | None = None) -> StoredMessage:
        """Apply a PATCH body (only the keys present) to a stored message."""
        for key in _MESSAGE_KEYS:
            if key in body:
                value = body[key]
                if key == "attachments":
                    keep = {str(a.get("id")) for a in value or ()}
                    value = [a for a in msg.data.get("attachments", []) if a["id"] in keep]
                    value += self._attachments(files)
                msg.data[key] = value if value is not None else ("" if key == "content" else [])
        flags = msg.flags
        was_loading = bool(flags & LOADING)
        if body.get("flags") is not None:
            flags = (int(body["flags"]) & ~(EPHEMERAL | LOADING)) | (flags & EPHEMERAL)
        msg.data["flags"] = flags & ~LOADING
        if not was_loading:
            msg.data["edited_timestamp"] = _now_iso()
        if not msg.ephemeral:
            self._gateway("MESSAGE_UPDATE", msg.data)
        return msg

    def _delete_message(self, msg: StoredMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            payload = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.channel_id not in self.dm_channels:
                payload["guild_id"] = str(self.guild_id)
            self._gateway("MESSAGE_DELETE", payload)

    def _gateway(self, event: str, data: dict) -> None:
        """Deliver a gateway event through discord.py's own parser (like the real echo of our writes)."""
        if not self.gateway_echo or self.bot is None:
            return
        parser = self.bot._connection.parsers.get(event)
        if parser is None:
            return
        try:
            parser(copy.deepcopy(data))
        except Exception:  # pragma: no cover - surfaced through h.errors
            self.errors.append(f"gateway {event} parser failed:\n{traceback.format_exc()}")

    def _record(self, kind: str, msg: StoredMessage | None, payload: Any, **extra: Any) -> Output:
        out = Output(kind=kind, payload=copy.deepcopy(payload) if isinstance(payload, dict) else {}, **extra)
        if msg is not None:
            out.message_id = msg.id
            out.channel_id = msg.channel_id
            out.ephemeral = msg.ephemeral
            out.content = msg.content
            out.embeds = copy.deepcopy(msg.embeds)
            out.components = copy.deepcopy(msg.components)
        self.outputs.append(out)
        return out

    def _channel_message(self, req: RecordedRequest) -> StoredMessage:
        """A non-ephemeral message addressed by channel route params (404 like Discord otherwise)."""
        msg = self.messages.get(int(req.params["message_id"]))
        if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != int(req.params["channel_id"]):
            raise self.http_error(404, 10008, "Unknown Message")
        return msg

    def _known_channel(self, channel_id: int) -> None:
        if channel_id != self.channel_id and channel_id not in self.dm_channels:
            raise self.http_error(404, 10003, "Unknown Channel")

    # ------------------------------------------------------------------ built-in routes --------
    # Each takes the RecordedRequest and returns the JSON Discord would.

    def _r_me(self, req: RecordedRequest) -> dict:
        return self.bot_user.user_payload()

    def _r_app_info(self, req: RecordedRequest) -> dict:
        return self.application_payload()

    def _r_sync_commands(self, req: RecordedRequest) -> list[dict]:
        guild_id = int(req.params["guild_id"]) if "guild_id" in req.params else None
        out = []
        for cmd in req.json or []:
            cmd_id = self.command_ids.setdefault((guild_id, cmd["name"]), self.next_id())
            entry = {"id": str(cmd_id), "application_id": str(self.application_id), "version": str(cmd_id), **cmd}
            entry.setdefault("description", "")
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            out.append(entry)
        return out

    def _r_list_commands(self, req: RecordedRequest) -> list:
        return []

    def _r_get_channel(self, req: RecordedRequest) -> dict:
        cid = int(req.params["channel_id"])
        self._known_channel(cid)
        if cid in self.dm_channels:
            return self._dm_payload(cid)
        return self.channel_payload()

    def _r_get_guild(self, req: RecordedRequest) -> dict:
        if int(req.params["guild_id"]) != self.guild_id:
            raise self.http_error(404, 10004, "Unknown Guild")
        payload = self.guild_payload()
        for key in ("channels", "members", "threads", "voice_states", "presences"):
            payload.pop(key)
        return payload

    def _r_get_member(self, req: RecordedRequest) -> dict:
        uid = int(req.params["user_id"])
        if uid == self.bot_user.id:
            return self.bot_user.member_payload()
        if uid not in self.users:
            raise self.http_error(404, 10007, "Unknown Member")
        return self.users[uid].member_payload()

    def _r_get_user(self, req: RecordedRequest) -> dict:
        uid = int(req.params["user_id"])
        if uid not in self.users:
            raise self.http_error(404, 10013, "Unknown User")
        return self.users[uid].user_payload()

    def _dm_payload(self, channel_id: int) -> dict:
        user = self.users[self.dm_channels[channel_id]]
        return {"id": str(channel_id), "type": 1, "last_message_id": None, "recipients": [user.user_payload()]}

    def _r_start_dm(self, req: RecordedRequest) -> dict:
        uid = int(req.json["recipient_id"])
        self.user(uid)
        cid = next((c for c, u in self.dm_channels.items() if u == uid), None) or self.next_id()
        self.dm_channels[cid] = uid
        return self._dm_payload(cid)

    def _r_send_message(self, req: RecordedRequest) -> dict:
        cid = int(req.params["channel_id"])
        self._known_channel(cid)
        msg = self._new_message(req.json or {}, channel_id=cid, files=req.files)
        kind = "dm_message" if cid in self.dm_channels else "channel_message"
        self._record(kind, msg, req.json, user_id=self.dm_channels.get(cid))
        return copy.deepcopy(msg.data)

    def _r_edit_message(self, req: RecordedRequest) -> dict:
        msg = self._edit_message(self._channel_message(req), req.json or {}, req.files)
        self._record("message_edit", msg, req.json)
        return copy.deepcopy(msg.data)

    def _r_delete_message(self, req: RecordedRequest) -> None:
        msg = self._channel_message(req)
        self._delete_message(msg)
        self._record("message_delete", msg, None)

    def _r_get_message(self, req: RecordedRequest) -> dict:
        return copy.deepcopy(self._channel_message(req).data)

    def _r_history(self, req: RecordedRequest) -> list[dict]:
        cid = int(req.params["channel_id"])
        self._known_channel(cid)
        query = req.query or {}
        limit = int(query.get("limit", 50))
        msgs = [m for m in self.messages.values() if m.channel_id == cid and not m.ephemeral and not m.deleted]
        msgs.sort(key=lambda m: m.id, reverse=True)
        if "before" in query:
            msgs = [m for m in msgs if m.id < int(query["before"])]
        if "after" in query:
            msgs = [m for m in msgs if m.id > int(query["after"])]
        return [copy.deepcopy(m.data) for m in msgs[:limit]]

    # -- interaction webhook routes --

    def _interaction_for(self, req: RecordedRequest) -> _InteractionLog:
        log = self._interactions[req.params["webhook_token"]]
        if req.path.startswith("/webhooks/") and int(req.params["webhook_id"]) != self.application_id:
            raise self.http_error(404, 10015, "Unknown Webhook")
        return log

    def _r_callback(self, req: RecordedRequest) -> dict:
        log = self._interaction_for(req)
        body = req.json or {}
        cb_type = int(body["type"])
        data = body.get("data") or {}
        loop = asyncio.get_running_loop()
        if log.callback_type is not None:
            raise self.http_error(400, 40060, "Interaction has already been acknowledged.")
        if self.response_deadline is not None and loop.time() - log.created_at > self.response_deadline:
            log.expired = True
            raise self.http_error(404, 10062, "Unknown interaction")
        self._check_callback_allowed(log, cb_type)
        log.callback_type = cb_type
        log.responded_at = loop.time()
        kind = _CALLBACK_KINDS.get(cb_type, f"callback_{cb_type}")
        common = {"user_id": log.user.id, "interaction_id": log.id}
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        msg: StoredMessage | None = None

        if cb_type in (4, 5):  # new message (5: a loading one)
            msg = self._new_message(
                data,
                channel_id=log.channel_id,
                files=req.files,
                ephemeral=ephemeral,
                owner_id=log.user.id,
                interaction=log,
                loading=cb_type == 5,
            )
            log.original_id = msg.id
            log.loading = cb_type == 5
            self._record(kind, msg, data, **common)
        elif cb_type in (6, 7):  # (deferred) update of the component's message
            if log.message_id is None:
                raise self.http_error(400, 50035, "No message to update for this interaction")
            msg = self.messages[log.message_id]
            if cb_type == 7:
                self._edit_message(msg, data, req.files)
            log.original_id = msg.id
            self._record(kind, msg, data, **common)
        elif cb_type == 8:
            self._record(kind, None, data, choices=copy.deepcopy(data.get("choices", [])), **common)
        elif cb_type == 9:
            self.last_modal[log.user.id] = (copy.deepcopy(data), log)
            self._record(kind, None, data, modal=copy.deepcopy(data), **common)
        else:
            self._record(kind, None, data, **common)
        return self._callback_response(log, cb_type, msg)

    @staticmethod
    def _check_callback_allowed(log: _InteractionLog, cb_type: int) -> None:
        allowed = {
            _APP_COMMAND: {4, 5, 9, 12},
            _COMPONENT: {4, 5, 6, 7, 9, 12},
            _AUTOCOMPLETE: {8},
            _MODAL_SUBMIT: {4, 5, 6, 7},
        }.get(log.type, set())
        if cb_type not in allowed:
            raise Harness.http_error(
                400, 50035, f"Invalid interaction response type {cb_type} for interaction type {log.type}"
            )

    def _callback_response(self, log: _InteractionLog, cb_type: int, msg: StoredMessage | None) -> dict:
        interaction: dict[str, Any] = {"id": str(log.id), "type": log.type}
        resource: dict[str, Any] = {"type": cb_type}
        if msg is not None:
            interaction["response_message_id"] = str(msg.id)
            interaction["response_message_loading"] = msg.loading
            interaction["response_message_ephemeral"] = msg.ephemeral
            if cb_type in (4, 5, 7):
                resource["message"] = copy.deepcopy(msg.data)
        return {"interaction": interaction, "resource": resource}

    def _original(self, log: _InteractionLog) -> StoredMessage:
        if log.original_id is None or self.messages[log.original_id].deleted:
            raise self.http_error(404, 10008, "Unknown Message")
        return self.messages[log.original_id]

    def _r_get_original(self, req: RecordedRequest) -> dict:
        return copy.deepcopy(self._original(self._interaction_for(req)).data)

    def _r_edit_original(self, req: RecordedRequest) -> dict:
        log = self._interaction_for(req)
        msg = self._edit_message(self._original(log), req.json or {}, req.files)
        log.loading = False
        self._record("edit_original", msg, req.json, user_id=log.user.id, interaction_id=log.id)
        return copy.deepcopy(msg.data)

    def _r_delete_original(self, req: RecordedRequest) -> None:
        log = self._interaction_for(req)
        msg = self._original(log)
        self._delete_message(msg)
        log.loading = False
        self._record("delete_original", msg, None, user_id=log.user.id, interaction_id=log.id)

    def _r_followup(self, req: RecordedRequest) -> dict | None:
        log = self._interaction_for(req)
        if log.callback_type is None:
            raise self.http_error(404, 10015, "Unknown Webhook")
        body = req.json or {}
        common = {"user_id": log.user.id, "interaction_id": log.id}
        if log.loading:  # first followup after a thinking defer fills the loading message
            msg = self._edit_message(self.messages[log.original_id], {**body, "flags": None}, req.files)  # type: ignore[index]
            log.loading = False
        else:
            ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
            msg = self._new_message(
                body,
                channel_id=log.channel_id,
                files=req.files,
                ephemeral=ephemeral,
                owner_id=log.user.id,
                interaction=log,
            )
        self._record("followup", msg, body, **common)
        wait = str((req.query or {}).get("wait", "0")).lower() in ("1", "true")
        return copy.deepcopy(msg.data) if wait else None

    def _webhook_message(self, req: RecordedRequest) -> StoredMessage:
        msg = self.messages.get(int(req.params["message_id"]))
        if msg is None or msg.deleted:
            raise self.http_error(404, 10008, "Unknown Message")
        return msg

    def _r_get_followup(self, req: RecordedRequest) -> dict:
        self._interaction_for(req)
        return copy.deepcopy(self._webhook_message(req).data)

    def _r_edit_followup(self, req: RecordedRequest) -> dict:
        log = self._interaction_for(req)
        msg = self._edit_message(self._webhook_message(req), req.json or {}, req.files)
        if msg.id == log.original_id:
            log.loading = False
        self._record("followup_edit", msg, req.json, user_id=log.user.id, interaction_id=log.id)
        return copy.deepcopy(msg.data)

    def _r_delete_followup(self, req: RecordedRequest) -> None:
        log = self._interaction_for(req)
        msg = self._webhook_message(req)
        self._delete_message(msg)
        self._record("followup_delete", msg, None, user_id=log.user.id, interaction_id=log.id)

    # ------------------------------------------------------------------ settle -----------------

    @staticmethod
    def _is_discord_timer(task: asyncio.Task) -> bool:
        """View timeouts and ``delete_after``/``delete(delay=)`` sleepers: long-lived by design."""
        coro = task.get_coro()
        code = getattr(coro, "cr_code", None)
        if code is None or not code.co_filename.startswith(_DISCORD_DIR):
            return False
        qualname = getattr(coro, "__qualname__", "")
        return qualname.endswith(("__timeout_task_impl", ".<locals>.inner_call", ".<locals>.delete"))

    def _begin(self) -> None:
        """Remember which tasks existed before a dispatch (only the first of a batch of unsettled sends)."""
        if self._baseline is None:
            self._baseline = set(asyncio.all_tasks())

    def _pending(self) -> list[asyncio.Task]:
        current = asyncio.current_task()
        baseline = self._baseline or set()
        pending = []
        for task in asyncio.all_tasks():
            if task is current or task in baseline or task.done():
                continue
            if any(pred(task) for pred in self._ignore_task):
                continue
            self._seen_tasks.add(task)
            pending.append(task)
        return pending

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every task started since the last dispatch has finished.

        Raises :class:`SettleTimeout` (with the stacks of the stuck tasks) after ``timeout`` seconds
        (default ``settle_timeout``).  Long-lived tasks can be excluded with :meth:`ignore_tasks`.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.settle_timeout if timeout is None else timeout)
        try:
            while True:
                for _ in range(5):  # let call_soon callbacks and freshly created tasks start
                    await asyncio.sleep(0)
                pending = self._pending()
                if not pending:
                    break
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise SettleTimeout(self._describe_tasks(pending))
                await asyncio.wait(pending, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._collect_task_errors()
        self._baseline = None
        for result in self._open_results:
            result._finish()
        self._open_results.clear()

    def _collect_task_errors(self) -> None:
        for task in [t for t in self._seen_tasks if t.done()]:
            self._seen_tasks.discard(task)
            if not task.cancelled() and task.exception() is not None:
                exc = task.exception()
                self.errors.append(
                    f"task {task.get_name()} raised:\n" + "".join(traceback.format_exception(exc))  # type: ignore[arg-type]
                )

    @staticmethod
    def _describe_tasks(tasks: list[asyncio.Task]) -> str:
        lines = [f"{len(tasks)} task(s) still running after settle timeout:"]
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

    # ------------------------------------------------------------------ interaction payloads ---

    def _interaction_payload(
        self, user: FakeUser, itype: int, data: dict, message: StoredMessage | None = None
    ) -> dict:
        iid = self.next_id()
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "token": f"harness{self.key}-{iid}",
            "version": 1,
            "guild_id": str(self.guild_id),
            "guild": {"id": str(self.guild_id), "locale": self.locale, "features": []},
            "channel_id": str(self.channel_id),
            "channel": self.channel_payload(),
            "member": user.member_payload(with_permissions=True),
            "app_permissions": str(discord.Permissions.all_channel().value),
            "locale": self.locale,
            "guild_locale": self.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
        }
        if message is not None:
            payload["message"] = copy.deepcopy(message.data)
        return payload

    async def send_interaction(
        self, payload: dict, *, action: str = "raw", settle: bool = True, timeout: float | None = None
    ) -> Result:
        """Low level: register and dispatch a raw INTERACTION_CREATE payload, then settle."""
        if self.bot is None:
            raise HarnessError("no bot attached")
        user_id = int((payload.get("member") or {}).get("user", payload.get("user", {})).get("id"))
        log = _InteractionLog(
            id=int(payload["id"]),
            token=payload["token"],
            type=int(payload["type"]),
            user=self.user(user_id),
            channel_id=int(payload["channel_id"]),
            created_at=asyncio.get_running_loop().time(),
            message_id=int(payload["message"]["id"]) if payload.get("message") else None,
        )
        self._interactions[log.token] = log
        self.sent.append(copy.deepcopy(payload))
        result = Result(self, action, log, start=len(self.outputs))
        self._open_results.append(result)
        self._begin()
        self.bot._connection.parse_interaction_create(copy.deepcopy(payload))  # type: ignore[arg-type]
        if settle:
            await self.settle(timeout)
        else:
            await asyncio.sleep(0)
        return result

    # ------------------------------------------------------------------ slash & autocomplete ---

    def _lookup_command(self, path: str) -> tuple[Any, dict, list[dict], int | None]:
        """Resolve "group sub" to (leaf app command, root schema, chain of subcommand schemas, guild id)."""
        assert self.bot is not None
        tree = getattr(self.bot, "tree", None) or self.bot._connection._command_tree
        if tree is None:
            raise HarnessError("bot has no CommandTree")
        parts = path.split()
        root = tree.get_command(parts[0], guild=discord.Object(self.guild_id))
        guild_id: int | None = self.guild_id
        if root is None:
            root, guild_id = tree.get_command(parts[0]), None
        if root is None:
            names = sorted(
                {c.name for c in tree.get_commands()}
                | {c.name for c in tree.get_commands(guild=discord.Object(self.guild_id))}
            )
            raise HarnessError(f"no slash command {parts[0]!r}; registered: {names}")
        schema = root.to_dict(tree)
        node, chain, leaf = schema, [], root
        for part in parts[1:]:
            node = next((o for o in node.get("options", []) if o["name"] == part and o["type"] in (1, 2)), None)  # type: ignore[assignment]
            if node is None:
                raise HarnessError(f"{path!r}: no subcommand {part!r}")
            chain.append(node)
            leaf = leaf.get_command(part)  # type: ignore[union-attr]
        if any(o["type"] in (1, 2) for o in node.get("options", [])):
            raise HarnessError(f"{path!r} is a group; name a subcommand")
        return leaf, schema, chain, guild_id

    @staticmethod
    def _option_name(leaf: Any, specs: list[dict], name: str) -> str:
        """Accept either the Discord option name or the Python parameter name (``@rename``)."""
        if any(s["name"] == name for s in specs):
            return name
        param = getattr(leaf, "_params", {}).get(name)
        if param is not None:
            return param.display_name
        raise HarnessError(f"unknown option {name!r}; options are {[s['name'] for s in specs]}")

    def _convert_option(self, spec: dict, value: Any, resolved: dict) -> Any:
        """Type a user-supplied option value the way Discord would send it, validating like the client."""
        otype, name = spec["type"], spec["name"]
        if otype == 3:
            value = str(value)
            if not (spec.get("min_length") or 0) <= len(value) <= (spec.get("max_length") or 6000):
                raise HarnessError(f"option {name!r}: length {len(value)} outside client limits")
        elif otype == 4:
            if isinstance(value, bool) or int(value) != value:
                raise HarnessError(f"option {name!r} needs an integer, got {value!r}")
            value = int(value)
        elif otype == 5:
            if not isinstance(value, bool):
                raise HarnessError(f"option {name!r} needs a bool, got {value!r}")
        elif otype == 10:
            value = float(value)
        elif otype in (6, 7, 8, 9):
            value = self._resolve_snowflake(otype, getattr(value, "id", value), resolved)
        else:
            raise HarnessError(f"option {name!r}: option type {otype} not supported by the harness")
        if otype in (4, 10):
            lo, hi = spec.get("min_value"), spec.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise HarnessError(f"option {name!r}: {value} outside [{lo}, {hi}]")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise HarnessError(f"option {name!r}: {value!r} is not one of {[c['value'] for c in choices]}")
        return value

    def _resolve_snowflake(self, otype: int, snowflake: Any, resolved: dict) -> str:
        sid = int(snowflake)
        if otype in (6, 9) and (sid in self.users or sid == self.bot_user.id):
            user = self.users.get(sid, self.bot_user)
            resolved.setdefault("users", {})[str(sid)] = user.user_payload()
            member = user.member_payload(with_permissions=True)
            member.pop("user")
            resolved.setdefault("members", {})[str(sid)] = member
        elif otype == 7 and sid == self.channel_id:
            chan = {k: self.channel_payload()[k] for k in ("id", "name", "type", "parent_id")}
            resolved.setdefault("channels", {})[str(sid)] = {
                **chan,
                "permissions": str(discord.Permissions.all().value),
            }
        elif otype in (8, 9) and sid == self.guild_id:
            resolved.setdefault("roles", {})[str(sid)] = self.guild_payload()["roles"][0]
        else:
            raise HarnessError(f"cannot resolve snowflake {sid} for option type {otype}")
        return str(sid)

    def _command_data(
        self, command: str, options: dict[str, Any], focused: str | None = None, focused_value: Any = ""
    ) -> dict:
        leaf, schema, chain, guild_id = self._lookup_command(command)
        specs = (chain[-1] if chain else schema).get("options", [])
        resolved: dict = {}
        leaf_options: list[dict] = []
        given = {self._option_name(leaf, specs, k): v for k, v in options.items()}
        if focused is not None:
            focused = self._option_name(leaf, specs, focused)
        for spec in specs:  # keep Discord's declaration order
            name = spec["name"]
            if name == focused:
                leaf_options.append({"name": name, "type": spec["type"], "value": str(focused_value), "focused": True})
            elif name in given:
                value = self._convert_option(spec, given[name], resolved)
                leaf_options.append({"name": name, "type": spec["type"], "value": value})
            elif spec.get("required") and focused is None:
                raise HarnessError(f"{command!r}: required option {name!r} missing")
        inner = leaf_options
        for sub in reversed(chain):
            inner = [{"name": sub["name"], "type": sub["type"], "options": inner}]
        data: dict[str, Any] = {
            "id": str(self.command_ids.setdefault((guild_id, schema["name"]), self.next_id())),
            "name": schema["name"],
            "type": 1,
            "options": inner,
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, user_id: int, command: str, /, *, settle: bool = True, **options: Any) -> Result:
        """Run ``/command`` (e.g. ``"augsburg new"``) as ``user_id`` with typed ``options``."""
        data = self._command_data(command, options)
        payload = self._interaction_payload(self.user(user_id), _APP_COMMAND, data)
        return await self.send_interaction(payload, action=f"/{command}", settle=settle)

    async def autocomplete(
        self, user_id: int, command: str, focused: str, value: Any = "", /, **options: Any
    ) -> list[dict] | None:
        """Type ``value`` into option ``focused``; return the choices the bot offered (None if it did not answer)."""
        data = self._command_data(command, options, focused=focused, focused_value=value)
        payload = self._interaction_payload(self.user(user_id), _AUTOCOMPLETE, data)
        self.last_result = await self.send_interaction(payload, action=f"autocomplete /{command} {focused}")
        return self.last_result.choices

    # ------------------------------------------------------------------ components & modals ----

    MessageRef = Any  # int id | StoredMessage | Output | Result

    def _target_message(
        self, user_id: int, message: MessageRef, custom_id: str | None, label: str | None
    ) -> StoredMessage:
        if isinstance(message, Result):
            message = message.message_with(custom_id, label=label)
        mid = message.message_id if isinstance(message, Output) else getattr(message, "id", message)
        msg = self.message(int(mid))  # type: ignore[arg-type]
        if msg.deleted:
            raise HarnessError(f"message {msg.id} was deleted")
        if msg.ephemeral and msg.owner_id != user_id:
            raise HarnessError(f"message {msg.id} is ephemeral for user {msg.owner_id}; user {user_id} cannot see it")
        if msg.loading:
            raise HarnessError(f"message {msg.id} is still a 'thinking' placeholder")
        return msg

    def _find_component(self, msg: StoredMessage, custom_id: str | None, label: str | None, types: set[int]) -> dict:
        comp = msg.component(custom_id, label=label)
        if comp is None or comp.get("type") not in types:
            raise HarnessError(
                f"message {msg.id} has no component custom_id={custom_id!r} label={label!r}; it has {msg.custom_ids()}"
            )
        if comp.get("disabled"):
            raise HarnessError(f"component {comp.get('custom_id')!r} on message {msg.id} is disabled")
        return comp

    async def click(
        self,
        user_id: int,
        message: MessageRef,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        settle: bool = True,
    ) -> Result:
        """Click the button ``custom_id`` (or the one labelled ``label``) on a recorded message."""
        msg = self._target_message(user_id, message, custom_id, label)
        comp = self._find_component(msg, custom_id, label, {2})
        if "custom_id" not in comp:
            raise HarnessError("link/premium buttons do not create interactions")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        payload = self._interaction_payload(self.user(user_id), _COMPONENT, data, msg)
        return await self.send_interaction(payload, action=f"click {comp['custom_id']}", settle=settle)

    async def select(
        self, user_id: int, message: MessageRef, custom_id: str, values: Iterable[Any], *, settle: bool = True
    ) -> Result:
        """Choose ``values`` in the select menu ``custom_id`` on a recorded message."""
        msg = self._target_message(user_id, message, custom_id, None)
        comp = self._find_component(msg, custom_id, None, _SELECT_TYPES)
        values = [str(getattr(v, "id", v)) for v in values]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise HarnessError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"], "values": values}
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise HarnessError(f"select {custom_id!r}: {bad} not among options {allowed}")
        else:
            resolved: dict = {}
            otype = {5: 6, 6: 8, 7: 9, 8: 7}[comp["type"]]
            for v in values:
                self._resolve_snowflake(otype, v, resolved)
            data["resolved"] = resolved
        payload = self._interaction_payload(self.user(user_id), _COMPONENT, data, msg)
        return await self.send_interaction(payload, action=f"select {custom_id}={values}", settle=settle)

    async def submit_modal(self, user_id: int, values: dict[str, Any], *, settle: bool = True) -> Result:
        """Submit the last modal shown to ``user_id``; ``values`` maps text-input custom_id -> text
        (or select custom_id -> list of values)."""
        try:
            modal, origin = self.last_modal.pop(user_id)
        except KeyError:
            raise HarnessError(f"no modal is open for user {user_id}") from None

        def submitted(comp: dict) -> dict:
            if comp.get("type") in (1, 17, 9):  # rows / containers keep their children
                return {"type": comp["type"], "components": [submitted(c) for c in comp.get("components", [])]}
            if comp.get("type") == 18:  # label wraps one component
                return {"type": 18, "component": submitted(comp["component"])}
            cid = comp.get("custom_id")
            if comp.get("type") == 4:
                return {"type": 4, "custom_id": cid, "value": str(values.get(cid, comp.get("value") or ""))}
            if comp.get("type") in _SELECT_TYPES:
                return {"type": comp["type"], "custom_id": cid, "values": [str(v) for v in values.get(cid, [])]}
            return {"type": comp.get("type"), **({"custom_id": cid} if cid else {})}

        unknown = set(values) - {c.get("custom_id") for c in walk_components(modal.get("components"))}
        if unknown:
            raise HarnessError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}")
        data = {"custom_id": modal["custom_id"], "components": [submitted(c) for c in modal.get("components", [])]}
        source = self.messages.get(origin.message_id) if origin.message_id else None
        payload = self._interaction_payload(self.user(user_id), _MODAL_SUBMIT, data, source)
        return await self.send_interaction(payload, action=f"modal {modal['custom_id']}", settle=settle)


_ROUTES: dict[tuple[str, str], Callable[[Harness, RecordedRequest], Any]] = {
    ("GET", "/users/@me"): Harness._r_me,
    ("GET", "/oauth2/applications/@me"): Harness._r_app_info,
    ("PUT", "/applications/{application_id}/commands"): Harness._r_sync_commands,
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): Harness._r_sync_commands,
    ("GET", "/applications/{application_id}/commands"): Harness._r_list_commands,
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands"): Harness._r_list_commands,
    ("GET", "/channels/{channel_id}"): Harness._r_get_channel,
    ("GET", "/guilds/{guild_id}"): Harness._r_get_guild,
    ("GET", "/guilds/{guild_id}/members/{user_id}"): Harness._r_get_member,
    ("GET", "/users/{user_id}"): Harness._r_get_user,
    ("POST", "/users/@me/channels"): Harness._r_start_dm,
    ("POST", "/channels/{channel_id}/messages"): Harness._r_send_message,
    ("GET", "/channels/{channel_id}/messages"): Harness._r_history,
    ("GET", "/channels/{channel_id}/messages/{message_id}"): Harness._r_get_message,
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): Harness._r_edit_message,
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): Harness._r_delete_message,
    ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"): Harness._r_callback,
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): Harness._r_get_original,
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): Harness._r_edit_original,
    ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"): Harness._r_delete_original,
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): Harness._r_followup,
    ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): Harness._r_get_followup,
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): Harness._r_edit_followup,
    ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"): Harness._r_delete_followup,
}
