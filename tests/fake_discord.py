"""A small fake Discord (REST API + gateway websocket) for end-to-end tests.

It runs inside the test process on 127.0.0.1 (free port) and is good enough for an
unmodified discord.py 2.7.1 client, in-process or in a subprocess, to log in,
connect, receive READY and GUILD_CREATE, sync application commands, receive
injected INTERACTION_CREATE events and answer them over REST.

Usage::

    async with FakeDiscord(guild_id=1, channel_id=2, users=[111, 222]) as fake:
        # point the client at the fake (the bot does this from its env vars):
        #   discord.http.Route.BASE = fake.api_base
        #   discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
        # ...start the client (task or subprocess with env=fake.env("fake-token"))...
        await fake.wait_for_ready()
        commands = await fake.wait_for_commands()
        iid = await fake.send_interaction(fake.slash(111, "augsburg", "new"))
        rec = await fake.wait_for_callback(iid)      # InteractionRecord
        rec.callback_type, rec.message["content"], rec.custom_ids
        iid = await fake.send_interaction(fake.click(222, rec.message, "augsburg:join"))
        rec = await fake.wait_for_callback(iid)
        rec.channel_messages                         # channel posts made since the click

Gateway compression: discord.py 2.7.1 always asks for transport compression
(``compress=zlib-stream``, or ``zstd-stream`` when ``zstandard``/``compression.zstd``
is importable).  zlib-stream is implemented for real (one deflate context per
connection, every message flushed with Z_SYNC_FLUSH).  For zstd-stream the fake
sends plain text frames, which discord.py accepts whatever it asked for
(it only decompresses binary frames).

The fake checks a few things real Discord enforces, so that tests catch them:
interaction callbacks must come within ``ack_deadline`` seconds (3 s like Discord)
and only once, followups need an acknowledged interaction, message bodies are
validated (content length, component layout, custom_id length/uniqueness) and
command definitions are sanity-checked.  Every 4xx answer is listed in
``fake.problems``; unknown routes also land in ``fake.unknown_requests``.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import re
import secrets
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

__all__ = [
    "FakeDiscord",
    "InteractionRecord",
    "RecordedRequest",
    "Upload",
    "custom_ids",
    "snowflake",
]

DISCORD_EPOCH_MS = 1420070400000
API_PREFIX = "/api/v10"
ALL_PERMISSIONS = str((1 << 50) - 1)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15
# GATEWAY_PRESENCE_LIMITED | GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED
APPLICATION_FLAGS = (1 << 13) | (1 << 15) | (1 << 19)

# interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# interaction callback types
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9

_ids = itertools.count(1)
_RequestKey = getattr(web, "RequestKey", None)
_BODY: Any = _RequestKey("fake_body", object) if _RequestKey else "fake_body"
_FILES: Any = _RequestKey("fake_files", list) if _RequestKey else "fake_files"
_RECORD: Any = _RequestKey("fake_record", object) if _RequestKey else "fake_record"


def snowflake() -> str:
    """A fresh, unique, time-ordered Discord snowflake (as a string, like the API)."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return str((ms << 22) | (next(_ids) & 0x3FFFFF))


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _walk_components(components: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    for comp in components or ():
        yield comp
        yield from _walk_components(comp.get("components") or ())
        if isinstance(comp.get("accessory"), Mapping):
            yield from _walk_components([comp["accessory"]])


def custom_ids(message: Mapping[str, Any] | None) -> list[str]:
    """All component custom_ids in a message JSON, in display order."""
    if not message:
        return []
    return [c["custom_id"] for c in _walk_components(message.get("components") or []) if c.get("custom_id")]


@dataclass
class Upload:
    """A file the client uploaded in a multipart request."""

    field: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class RecordedRequest:
    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    json: Any
    files: list[Upload]
    authorization: str | None
    status: int = 0


@dataclass
class InteractionRecord:
    """One injected interaction and everything the client did to answer it."""

    id: str
    token: str
    payload: dict[str, Any]  # the INTERACTION_CREATE "d"
    callback: dict[str, Any] | None = None  # body POSTed to /interactions/{id}/{token}/callback
    callback_files: list[Upload] = field(default_factory=list)
    message: dict[str, Any] | None = None  # the response message (live: reflects later edits)
    followups: list[dict[str, Any]] = field(default_factory=list)
    modal: dict[str, Any] | None = None  # data of a MODAL (type 9) callback
    choices: list[dict[str, Any]] | None = None  # autocomplete (type 8) choices
    dispatched_at: float = 0.0
    _log_start: int = 0
    _fake: FakeDiscord | None = field(default=None, repr=False)

    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else self.callback.get("type")

    @property
    def data(self) -> dict[str, Any]:
        """The callback's "data" object ({} if none)."""
        return (self.callback or {}).get("data") or {}

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def custom_ids(self) -> list[str]:
        return custom_ids(self.message)

    @property
    def channel_messages(self) -> list[dict[str, Any]]:
        """Messages the client POSTed to /channels/{id}/messages since this interaction was injected."""
        assert self._fake is not None
        return [m for m in self._fake._message_log[self._log_start :] if self._fake._source[m["id"]] == "channel"]


class _GatewayConnection:
    def __init__(self, ws: web.WebSocketResponse, query: Mapping[str, str]) -> None:
        self.ws = ws
        self.query = dict(query)
        self.compress = query.get("compress")
        self._lock = asyncio.Lock()
        self._zlib = zlib.compressobj() if self.compress == "zlib-stream" else None
        self.session: _GatewaySession | None = None

    async def send(self, payload: Mapping[str, Any]) -> None:
        raw = json.dumps(payload, separators=(",", ":"))
        async with self._lock:  # the zlib stream must be written in order
            if self.ws.closed:
                return
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(raw.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(raw)
            except (ConnectionError, RuntimeError):
                pass  # client went away mid-send; it will resume or re-identify


class _GatewaySession:
    def __init__(self, session_id: str, identify: dict[str, Any]) -> None:
        self.id = session_id
        self.identify = identify
        shard = identify.get("shard") or [0, 1]
        self.shard: list[int] = [int(shard[0]), int(shard[1])]
        self.seq = 0
        self.backlog: list[dict[str, Any]] = []  # every dispatch, for RESUME replay
        self.conn: _GatewayConnection | None = None

    def owns_guild(self, guild_id: str | None) -> bool:
        if guild_id is None:
            return self.shard[0] == 0
        return (int(guild_id) >> 22) % self.shard[1] == self.shard[0]


class _FakeHTTPError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class FakeDiscord:
    """Fake Discord REST + gateway server. Use as ``async with FakeDiscord(...) as fake``."""

    def __init__(
        self,
        *,
        guild_id: int | str | None = None,
        channel_id: int | str | None = None,
        extra_channel_ids: Iterable[int | str] = (),
        users: Iterable[int | str | Mapping[str, Any]] = (),
        application_id: int | str | None = None,
        bot_name: str = "augsburg-bot",
        guild_name: str = "Augsburg Test Guild",
        channel_name: str = "augsburg",
        token: str | None = None,
        heartbeat_interval_ms: int = 41250,
        ack_deadline: float | None = 3.0,
        dispatch_message_events: bool = True,
        validate: bool = True,
    ) -> None:
        self.guild_id = str(guild_id or snowflake())
        self.channel_id = str(channel_id or snowflake())
        self.application_id = str(application_id or snowflake())
        self.token = token  # None: accept any token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.ack_deadline = ack_deadline
        self.dispatch_message_events = dispatch_message_events
        self.validate = validate
        self.guild_name = guild_name

        self.bot_user: dict[str, Any] = {
            "id": self.application_id,  # bot user id == application id, as on Discord
            "username": bot_name,
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "public_flags": 0,
        }
        self.users: dict[str, dict[str, Any]] = {}
        for i, u in enumerate(users, start=1):
            user = self._make_user(u, i)
            self.users[user["id"]] = user
        joined = _now()
        self.members: dict[str, dict[str, Any]] = {
            uid: self._make_member(user, joined)
            for uid, user in {**self.users, self.bot_user["id"]: self.bot_user}.items()
        }
        self.channels: dict[str, dict[str, Any]] = {}
        for pos, cid in enumerate([self.channel_id, *map(str, extra_channel_ids)]):
            name = channel_name if pos == 0 else f"{channel_name}-{pos + 1}"
            self.channels[cid] = {
                "id": cid,
                "type": 0,
                "guild_id": self.guild_id,
                "name": name,
                "position": pos,
                "parent_id": None,
                "topic": None,
                "nsfw": False,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "permission_overwrites": [],
                "flags": 0,
            }
        self._dm_by_user: dict[str, str] = {}

        # recorded state
        self.requests: list[RecordedRequest] = []
        self.unknown_requests: list[RecordedRequest] = []
        self.problems: list[str] = []  # every 4xx the fake answered, human readable
        self.commands: dict[str | None, list[dict[str, Any]]] = {}  # scope (None=global, guild id) -> commands
        self.command_syncs: list[tuple[str | None, list[dict[str, Any]]]] = []
        self.interactions: dict[str, InteractionRecord] = {}
        self.messages: dict[str, dict[str, Any]] = {}  # id -> live message JSON (deleted ones removed)
        self.deleted_messages: dict[str, dict[str, Any]] = {}
        self.attachments: dict[str, Upload] = {}
        self.gateway_connections: list[dict[str, str]] = []  # query params of every ws connect
        self.gateway_received: list[dict[str, Any]] = []  # every payload the client sent on the gateway
        self.sessions: dict[str, _GatewaySession] = {}
        self.ready_count = 0
        self.resume_count = 0
        self._message_log: list[dict[str, Any]] = []
        self._source: dict[str, str] = {}  # message id -> channel | callback | followup | user
        self._command_ids: dict[tuple[str | None, str, int], str] = {}
        self._connections: set[_GatewayConnection] = set()
        self._changed: asyncio.Event | None = None
        self._runner: web.AppRunner | None = None
        self.port: int = 0

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        self._changed = asyncio.Event()
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app.router)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        for conn in list(self._connections):
            await conn.ws.close(code=1001, message=b"fake discord shutting down")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE`` / env DISCORD_API_BASE."""
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` / env DISCORD_GATEWAY_URL."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self, token: str = "fake") -> dict[str, str]:
        """Env vars for a bot subprocess: DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL."""
        return {
            "DISCORD_TOKEN": self.token or token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    # ------------------------------------------------------------------ waiting

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float = 5.0, what: str = "condition") -> Any:
        """Wait until ``predicate()`` returns something truthy; return it (re-checked after every fake event)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"fake discord: timed out after {timeout}s waiting for {what}; {self._debug_summary()}"
                )
            assert self._changed is not None
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                pass

    def _debug_summary(self) -> str:
        recent = [f"{r.method} {r.path} -> {r.status}" for r in self.requests[-8:]]
        return (
            f"ready_count={self.ready_count} gateway_connects={len(self.gateway_connections)} "
            f"recent requests={recent} problems={self.problems[-5:]}"
        )

    async def wait_for_ready(self, *, count: int = 1, timeout: float = 10.0) -> dict[str, Any]:
        """Wait until ``count`` clients in total have IDENTIFYed and got READY + GUILD_CREATE.

        Returns the latest IDENTIFY payload's "d" (token, intents, properties, shard...).
        """

        def ready() -> dict[str, Any] | None:
            if self.ready_count >= count:
                return list(self.sessions.values())[-1].identify
            return None

        return await self.wait_until(ready, timeout=timeout, what=f"READY #{count}")

    async def wait_for_resume(self, *, count: int = 1, timeout: float = 10.0) -> None:
        await self.wait_until(lambda: self.resume_count >= count, timeout=timeout, what=f"RESUME #{count}")

    async def wait_for_commands(
        self, *, guild_id: Any = ..., count: int = 1, timeout: float = 10.0
    ) -> list[dict[str, Any]]:
        """Wait for the ``count``-th bulk command sync; return the synced command JSON (with ids).

        ``guild_id=...`` (default) accepts any scope, ``None`` only global syncs, an id only that guild.
        """

        def synced() -> tuple[list[dict[str, Any]]] | None:
            syncs = [
                cmds
                for scope, cmds in self.command_syncs
                if guild_id is ... or scope == (None if guild_id is None else str(guild_id))
            ]
            return (copy.deepcopy(syncs[count - 1]),) if len(syncs) >= count else None  # () wrap: [] is valid

        return (await self.wait_until(synced, timeout=timeout, what=f"command sync #{count}"))[0]

    async def wait_for_callback(self, interaction_id: int | str, *, timeout: float = 5.0) -> InteractionRecord:
        """Wait until the client answered the interaction (POST .../callback); return its record."""
        rec = self.interactions[str(interaction_id)]
        return await self.wait_until(
            lambda: rec if rec.callback is not None else None,
            timeout=timeout,
            what=f"callback for interaction {interaction_id}",
        )

    async def wait_for_message(
        self,
        predicate: Callable[[dict[str, Any]], bool] | None = None,
        *,
        channel_id: int | str | None = None,
        timeout: float = 5.0,
    ) -> dict[str, Any]:
        """Wait for a (non-deleted) message matching ``predicate`` (any source); return the first."""

        def find() -> dict[str, Any] | None:
            for m in self._message_log:
                if m["id"] not in self.messages:
                    continue
                if channel_id is not None and m["channel_id"] != str(channel_id):
                    continue
                if predicate is None or predicate(m):
                    return m
            return None

        return await self.wait_until(find, timeout=timeout, what="message")

    async def wait_for_request(self, method: str, path_regex: str, *, timeout: float = 5.0) -> RecordedRequest:
        """Wait until a REST request (path without /api/v10) fully matching ``path_regex`` has been answered."""
        pattern = re.compile(path_regex)

        def find() -> RecordedRequest | None:
            done = (r for r in self.requests if r.status and r.method == method.upper() and pattern.fullmatch(r.path))
            return next(done, None)

        return await self.wait_until(find, timeout=timeout, what=f"{method} {path_regex}")

    # ------------------------------------------------------------------ queries

    def channel_messages(self, channel_id: int | str | None = None) -> list[dict[str, Any]]:
        """Live, non-ephemeral messages in a channel, oldest first."""
        cid = str(channel_id or self.channel_id)
        return [
            m
            for m in self._message_log
            if m["id"] in self.messages and m["channel_id"] == cid and not int(m["flags"]) & EPHEMERAL
        ]

    def dm_channel_id(self, user_id: int | str) -> str:
        """The DM channel id with a user (created on demand)."""
        uid = str(user_id)
        if uid not in self._dm_by_user:
            cid = snowflake()
            self._dm_by_user[uid] = cid
            self.channels[cid] = {
                "id": cid,
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self._user(uid)],
            }
        return self._dm_by_user[uid]

    def find_command(self, name: str) -> tuple[dict[str, Any], str | None] | None:
        """A synced top-level command by name: (command JSON, guild id or None for global)."""
        for scope in (self.guild_id, None):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name:
                    return cmd, scope
        return None

    # ------------------------------------------------------------------ interactions

    def interaction_payload(
        self,
        *,
        type: int,
        data: dict[str, Any] | None,
        user_id: int | str,
        channel_id: int | str | None = None,
        message: Mapping[str, Any] | None = None,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        """Build a full INTERACTION_CREATE payload (not yet sent) as Discord would."""
        uid = str(user_id)
        cid = str(channel_id or self.channel_id)
        channel = self.channels.get(cid)
        if channel is None:
            raise ValueError(f"unknown channel {cid}")
        payload: dict[str, Any] = {
            "id": snowflake(),
            "application_id": self.application_id,
            "type": type,
            "token": "fake-itoken-" + secrets.token_urlsafe(24),
            "version": 1,
            "channel_id": cid,
            "channel": copy.deepcopy(channel),
            "app_permissions": ALL_PERMISSIONS,
            "locale": locale,
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if channel["type"] == 1:  # DM
            payload["user"] = copy.deepcopy(self._user(uid))
            payload["authorizing_integration_owners"] = {"0": self.guild_id}
            payload["context"] = 1
        else:
            member = copy.deepcopy(self.members.get(uid) or self._make_member(self._user(uid), _now()))
            member["permissions"] = ALL_PERMISSIONS
            payload.update(
                guild_id=self.guild_id,
                guild={"id": self.guild_id, "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=member,
                authorizing_integration_owners={"0": self.guild_id},
                context=0,
            )
        if data is not None:
            payload["data"] = data
        if message is not None:
            payload["message"] = copy.deepcopy(dict(message))
        return payload

    def slash(
        self,
        user_id: int | str,
        name: str,
        *path: str,
        options: Mapping[str, Any] | None = None,
        channel_id: int | str | None = None,
        autocomplete: str | None = None,
    ) -> dict[str, Any]:
        """INTERACTION_CREATE for ``/name [group] [subcommand] option:value ...``.

        Option types come from the synced command definition when available (else inferred from
        the Python value).  User options (type 6) get ``resolved`` users/members.
        ``autocomplete="option"`` builds an AUTOCOMPLETE interaction focused on that option instead.
        """
        found = self.find_command(name)
        cmd, scope = found if found else ({}, None)
        data: dict[str, Any] = {"id": cmd.get("id") or snowflake(), "name": name, "type": 1}
        if scope is not None:
            data["guild_id"] = scope
        node, defs = data, cmd.get("options") or []
        for i, part in enumerate(path):
            d = next((o for o in defs if o.get("name") == part), None)
            typ = d["type"] if d else (1 if i == len(path) - 1 else 2)
            child: dict[str, Any] = {"name": part, "type": typ}
            node["options"] = [child]
            node, defs = child, (d or {}).get("options") or []
        resolved: dict[str, dict[str, Any]] = {}
        leaf: list[dict[str, Any]] = []
        for key, value in (options or {}).items():
            d = next((o for o in defs if o.get("name") == key), None)
            typ = d["type"] if d else _infer_option_type(value)
            if typ in (6, 7, 8, 9, 11):  # snowflake-valued options are strings in the API
                value = str(value)
            opt = {"name": key, "type": typ, "value": value}
            if autocomplete == key:
                opt["focused"] = True
            leaf.append(opt)
            if typ in (6, 9) and (value in self.users or value == self.bot_user["id"]):
                resolved.setdefault("users", {})[value] = copy.deepcopy(self._user(value))
                m = copy.deepcopy(self.members.get(value, {}))
                m.pop("user", None)
                m["permissions"] = ALL_PERMISSIONS
                resolved.setdefault("members", {})[value] = m
            elif typ == 7 and value in self.channels:
                ch = self.channels[value]
                resolved.setdefault("channels", {})[value] = {
                    "id": ch["id"],
                    "name": ch.get("name", ""),
                    "type": ch["type"],
                    "permissions": ALL_PERMISSIONS,
                }
        if leaf:
            node["options"] = leaf
        if resolved:
            data["resolved"] = resolved
        kind = AUTOCOMPLETE if autocomplete else APPLICATION_COMMAND
        return self.interaction_payload(type=kind, data=data, user_id=user_id, channel_id=channel_id)

    def click(
        self,
        user_id: int | str,
        message: Mapping[str, Any] | int | str,
        custom_id: str,
        *,
        component_type: int = 2,
        values: list[str] | None = None,
        check: bool = True,
    ) -> dict[str, Any]:
        """INTERACTION_CREATE for a button click (or select, with ``component_type``/``values``) on ``message``.

        ``message`` is a message JSON or id; the fake's current copy of that message is used.
        With ``check`` the custom_id must exist on the message (like in a real client).
        """
        mid = str(message if isinstance(message, int | str) else message["id"])
        msg = self.messages.get(mid) or (None if isinstance(message, int | str) else dict(message))
        if msg is None:
            raise ValueError(f"unknown message {mid}")
        if check and custom_id not in custom_ids(msg):
            raise ValueError(f"custom_id {custom_id!r} not on message {mid}; it has {custom_ids(msg)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None or component_type != 2:
            data["values"] = list(values or [])
        return self.interaction_payload(
            type=MESSAGE_COMPONENT, data=data, user_id=user_id, channel_id=msg["channel_id"], message=msg
        )

    def modal_submit(
        self,
        user_id: int | str,
        custom_id: str,
        values: Mapping[str, str],
        *,
        channel_id: int | str | None = None,
        message: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """INTERACTION_CREATE for submitting a modal with text inputs {input custom_id: value}."""
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in values.items()]
        return self.interaction_payload(
            type=MODAL_SUBMIT,
            data={"custom_id": custom_id, "components": rows},
            user_id=user_id,
            channel_id=channel_id,
            message=message,
        )

    async def send_interaction(self, payload: dict[str, Any], *, timeout: float = 5.0) -> str:
        """Dispatch INTERACTION_CREATE to the connected client; returns the interaction id."""
        iid = str(payload["id"])
        rec = InteractionRecord(
            id=iid, token=payload["token"], payload=payload, _fake=self, _log_start=len(self._message_log)
        )
        self.interactions[iid] = rec
        await self._wait_for_live_session(payload.get("guild_id"), timeout)
        rec.dispatched_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", payload, guild_id=payload.get("guild_id"))
        return iid

    async def send_user_message(
        self, user_id: int | str, content: str, *, channel_id: int | str | None = None
    ) -> dict[str, Any]:
        """A user posts a plain message (dispatched as MESSAGE_CREATE)."""
        cid = str(channel_id or self.channel_id)
        msg = self._new_message(cid, {"content": content}, [], author=self._user(str(user_id)), source="user")
        await self._dispatch_message("MESSAGE_CREATE", msg)
        return msg

    # ------------------------------------------------------------------ gateway

    async def dispatch(self, event: str, data: dict[str, Any], *, guild_id: str | None = None) -> None:
        """Send a DISPATCH event to every identified session owning ``guild_id``.

        Sessions that are momentarily disconnected buffer it and get it replayed on RESUME.
        """
        for session in list(self.sessions.values()):
            if session.owns_guild(guild_id):
                await self._send_dispatch(session, event, data)

    async def reconnect(self) -> None:
        """Ask every connected client to reconnect (op 7); discord.py then RESUMEs."""
        for conn in list(self._connections):
            if conn.session is not None:
                await conn.send({"op": 7, "d": None, "s": None, "t": None})

    async def _wait_for_live_session(self, guild_id: str | None, timeout: float) -> None:
        await self.wait_until(
            lambda: any(s.conn is not None and s.owns_guild(guild_id) for s in self.sessions.values()),
            timeout=timeout,
            what="a connected gateway session",
        )

    async def _send_dispatch(self, session: _GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.backlog.append(payload)
        if session.conn is not None:
            await session.conn.send(payload)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, compress=False)
        await ws.prepare(request)
        conn = _GatewayConnection(ws, request.query)
        self._connections.add(conn)
        self.gateway_connections.append(dict(request.query))
        self._notify()
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    continue
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                self.gateway_received.append(payload)
                await self._on_gateway_op(conn, payload)
        finally:
            self._connections.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self._notify()
        return ws

    async def _on_gateway_op(self, conn: _GatewayConnection, payload: dict[str, Any]) -> None:
        op, d = payload.get("op"), payload.get("d")
        if op == 1:  # HEARTBEAT
            await conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:  # IDENTIFY
            if self.token is not None and d.get("token") != self.token:
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            session = _GatewaySession(secrets.token_hex(16), d)
            self.sessions[session.id] = session
            session.conn = conn
            conn.session = session
            owns = session.owns_guild(self.guild_id)
            await self._send_dispatch(
                session,
                "READY",
                {
                    "v": 10,
                    "user": copy.deepcopy(self.bot_user),
                    "guilds": [{"id": self.guild_id, "unavailable": True}] if owns else [],
                    "session_id": session.id,
                    "session_type": "normal",
                    "resume_gateway_url": self.gateway_url,
                    "shard": session.shard,
                    "application": {"id": self.application_id, "flags": APPLICATION_FLAGS},
                    "private_channels": [],
                    "relationships": [],
                    "presences": [],
                    "geo_ordered_rtc_regions": [],
                    "guild_join_requests": [],
                    "user_settings": {},
                },
            )
            if owns:
                await self._send_dispatch(session, "GUILD_CREATE", self._guild_create())
            self.ready_count += 1
            self._notify()
        elif op == 6:  # RESUME
            session = self.sessions.get((d or {}).get("session_id"))
            if session is None or (self.token is not None and d.get("token") != self.token):
                await conn.send({"op": 9, "d": False, "s": None, "t": None})
                return
            if session.conn is not None and session.conn is not conn:
                old, session.conn = session.conn, None
                await old.ws.close(code=4000)
            session.conn = conn
            conn.session = session
            seq = int(d.get("seq") or 0)
            for missed in [p for p in session.backlog if p["s"] > seq]:
                await conn.send(missed)
            await self._send_dispatch(session, "RESUMED", {})
            self.resume_count += 1
            self._notify()
        elif op == 8:  # REQUEST_GUILD_MEMBERS
            if conn.session is None:
                return
            query = (d.get("query") or "").lower()
            wanted = {str(u) for u in (d.get("user_ids") or [])} if d.get("user_ids") else None
            members = [
                copy.deepcopy(m)
                for uid, m in self.members.items()
                if (wanted is None or uid in wanted) and m["user"]["username"].lower().startswith(query)
            ]
            if d.get("limit"):
                members = members[: int(d["limit"])]
            chunk: dict[str, Any] = {
                "guild_id": self.guild_id,
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": sorted((wanted or set()) - set(self.members)),
            }
            if d.get("nonce") is not None:
                chunk["nonce"] = d["nonce"]
            await self._send_dispatch(conn.session, "GUILD_MEMBERS_CHUNK", chunk)
        # op 3 (presence), 4 (voice) and anything else: recorded in gateway_received, no answer

    def _guild_create(self) -> dict[str, Any]:
        channels = []
        for ch in self.channels.values():
            if ch["type"] != 1:
                c = copy.deepcopy(ch)
                c.pop("guild_id", None)
                channels.append(c)
        return {
            "id": self.guild_id,
            "name": self.guild_name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": next(iter(self.users), self.bot_user["id"]),
            "region": "deprecated",
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "system_channel_id": self.channel_id,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "features": [],
            "roles": [self._everyone_role()],
            "emojis": [],
            "stickers": [],
            "soundboard_sounds": [],
            "joined_at": _now(),
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(self.members),  # == len(members): discord.py sees the guild as chunked
            "members": [copy.deepcopy(m) for m in self.members.values()],
            "channels": channels,
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "application_id": None,
            "max_members": 500000,
            "premium_progress_bar_enabled": False,
        }

    def _everyone_role(self) -> dict[str, Any]:
        return {
            "id": self.guild_id,
            "name": "@everyone",
            "permissions": "2248473465835073",
            "position": 0,
            "color": 0,
            "colors": {"primary_color": 0},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }

    # ------------------------------------------------------------------ users / messages

    def _make_user(self, u: int | str | Mapping[str, Any], index: int) -> dict[str, Any]:
        base = {
            "id": None,
            "username": f"player{index}",
            "global_name": f"Player {index}",
            "discriminator": "0",
            "avatar": None,
            "bot": False,
            "public_flags": 0,
        }
        if isinstance(u, Mapping):
            base.update(u)
        else:
            base["id"] = u
        base["id"] = str(base["id"])
        return base

    def _make_member(self, user: Mapping[str, Any], joined: str) -> dict[str, Any]:
        return {
            "user": copy.deepcopy(dict(user)),
            "nick": None,
            "avatar": None,
            "roles": [],
            "joined_at": joined,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }

    def _user(self, uid: str) -> dict[str, Any]:
        if uid == self.bot_user["id"]:
            return self.bot_user
        if uid not in self.users:
            self.users[uid] = self._make_user(uid, len(self.users) + 1)
        return self.users[uid]

    def _new_message(
        self,
        channel_id: str,
        data: Mapping[str, Any],
        files: list[Upload],
        *,
        author: Mapping[str, Any],
        source: str,
        rec: InteractionRecord | None = None,
        msg_type: int = 0,
    ) -> dict[str, Any]:
        channel = self.channels[channel_id]
        msg: dict[str, Any] = {
            "id": snowflake(),
            "channel_id": channel_id,
            "author": copy.deepcopy(dict(author)),
            "content": data.get("content") or "",
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": bool(data.get("tts", False)),
            "mention_everyone": False,
            "mentions": self._mentions(data.get("content") or ""),
            "mention_roles": [],
            "attachments": self._attachments(channel_id, data, files, []),
            "embeds": copy.deepcopy(data.get("embeds") or []),
            "reactions": [],
            "pinned": False,
            "type": msg_type,
            "flags": int(data.get("flags") or 0),
            "components": copy.deepcopy(data.get("components") or []),
        }
        if channel["type"] != 1:
            msg["guild_id"] = self.guild_id
        if data.get("poll"):
            msg["poll"] = copy.deepcopy(data["poll"])
        if data.get("nonce") is not None:
            msg["nonce"] = data["nonce"]
        ref = data.get("message_reference")
        if ref and source == "channel":
            msg["type"] = 19
            msg["message_reference"] = {
                "message_id": str(ref.get("message_id")),
                "channel_id": channel_id,
                **({"guild_id": self.guild_id} if channel["type"] != 1 else {}),
            }
            if str(ref.get("message_id")) in self.messages:
                msg["referenced_message"] = copy.deepcopy(self.messages[str(ref["message_id"])])
        if rec is not None:
            user = rec.payload.get("member", {}).get("user") or rec.payload.get("user")
            msg["webhook_id"] = self.application_id
            msg["application_id"] = self.application_id
            meta: dict[str, Any] = {
                "id": rec.id,
                "type": rec.payload["type"],
                "user": copy.deepcopy(user),
                "authorizing_integration_owners": rec.payload.get("authorizing_integration_owners", {}),
            }
            if rec.payload["type"] == MESSAGE_COMPONENT and rec.payload.get("message"):
                meta["interacted_message_id"] = rec.payload["message"]["id"]
            if source == "followup" and rec.message is not None:
                meta["original_response_message_id"] = rec.message["id"]
            msg["interaction_metadata"] = meta
            if rec.payload["type"] == APPLICATION_COMMAND:
                msg["interaction"] = {
                    "id": rec.id,
                    "type": APPLICATION_COMMAND,
                    "name": (rec.payload.get("data") or {}).get("name", ""),
                    "user": copy.deepcopy(user),
                }
        self.messages[msg["id"]] = msg
        self._message_log.append(msg)
        self._source[msg["id"]] = source
        if not msg["flags"] & EPHEMERAL:
            channel["last_message_id"] = msg["id"]
        return msg

    def _mentions(self, content: str) -> list[dict[str, Any]]:
        ids = dict.fromkeys(re.findall(r"<@!?(\d+)>", content))
        return [copy.deepcopy(self._user(uid)) for uid in ids if uid in self.users or uid == self.bot_user["id"]]

    def _attachments(
        self, channel_id: str, data: Mapping[str, Any], files: list[Upload], existing: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        listed = data.get("attachments")
        kept = [a for a in existing if listed is None or any(str(x.get("id")) == a["id"] for x in listed)]
        for up in files:
            m = re.fullmatch(r"files\[(\d+)\]", up.field or "")
            meta = next((x for x in (listed or []) if m and str(x.get("id")) == m.group(1)), {})
            aid = snowflake()
            filename = meta.get("filename") or up.filename or "file"
            self.attachments[aid] = up
            url = f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}"
            kept.append(
                {
                    "id": aid,
                    "filename": filename,
                    "size": len(up.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": up.content_type,
                    "description": meta.get("description"),
                    "ephemeral": False,
                }
            )
        return kept

    def _edit_message(self, msg: dict[str, Any], data: Mapping[str, Any], files: list[Upload]) -> None:
        for key in ("content", "embeds", "components", "poll"):
            if key in data:
                value = data[key]
                msg[key] = copy.deepcopy(value) if value is not None else ("" if key == "content" else [])
        if "content" in data:
            msg["mentions"] = self._mentions(msg["content"])
        if "flags" in data and data["flags"] is not None:
            # only SUPPRESS_EMBEDS / COMPONENTS_V2 can change; EPHEMERAL stays as it was
            msg["flags"] = (msg["flags"] & EPHEMERAL) | (int(data["flags"]) & ~EPHEMERAL)
        msg["flags"] &= ~LOADING
        if files or "attachments" in data:
            msg["attachments"] = self._attachments(msg["channel_id"], data, files, msg["attachments"])
        msg["edited_timestamp"] = _now()

    async def _dispatch_message(self, event: str, msg: dict[str, Any]) -> None:
        if not self.dispatch_message_events or int(msg["flags"]) & EPHEMERAL:
            return
        data = copy.deepcopy(msg)
        guild_id = msg.get("guild_id")
        if guild_id is not None and msg["author"]["id"] in self.members:
            member = copy.deepcopy(self.members[msg["author"]["id"]])
            member.pop("user", None)
            data["member"] = member
        await self.dispatch(event, data, guild_id=guild_id)

    async def _delete_message(self, msg: dict[str, Any]) -> None:
        self.messages.pop(msg["id"], None)
        self.deleted_messages[msg["id"]] = msg
        if self.dispatch_message_events and not int(msg["flags"]) & EPHEMERAL:
            d = {"id": msg["id"], "channel_id": msg["channel_id"]}
            if msg.get("guild_id"):
                d["guild_id"] = msg["guild_id"]
            await self.dispatch("MESSAGE_DELETE", d, guild_id=msg.get("guild_id"))

    # ------------------------------------------------------------------ validation

    def _check_message(self, data: Mapping[str, Any], files: list[Upload], *, creating: bool) -> None:
        if not self.validate:
            return
        problems = []
        content = data.get("content") or ""
        if len(content) > 2000:
            problems.append(f"content is {len(content)} chars (max 2000)")
        if len(data.get("embeds") or []) > 10:
            problems.append("more than 10 embeds")
        comps = data.get("components") or []
        v2 = int(data.get("flags") or 0) & IS_COMPONENTS_V2
        if not v2 and len(comps) > 5:
            problems.append(f"{len(comps)} action rows (max 5)")
        seen: set[str] = set()
        for comp in _walk_components(comps):
            t = comp.get("type")
            if t == 1 and not v2 and len(comp.get("components") or []) > 5:
                problems.append("action row with more than 5 components")
            if t == 1 and not comp.get("components"):
                problems.append("empty action row")
            if t == 2 and comp.get("style") not in (5, 6) and not comp.get("custom_id"):
                problems.append("button without custom_id")
            if t == 2 and len(comp.get("label") or "") > 80:
                problems.append(f"button label longer than 80: {comp.get('label')!r}")
            if t in (3, 5, 6, 7, 8) and len(comp.get("options") or []) > 25:
                problems.append("select with more than 25 options")
            cid = comp.get("custom_id")
            if cid is not None:
                if len(cid) > 100:
                    problems.append(f"custom_id longer than 100: {cid!r}")
                if cid in seen:
                    problems.append(f"duplicate custom_id {cid!r}")
                seen.add(cid)
        if creating and not (
            content or data.get("embeds") or comps or files or data.get("poll") or data.get("sticker_ids")
        ):
            raise _FakeHTTPError(400, 50006, "Cannot send an empty message")
        if problems:
            raise _FakeHTTPError(400, 50035, "Invalid Form Body: " + "; ".join(problems))

    def _check_commands(self, commands: list[dict[str, Any]]) -> None:
        if not self.validate:
            return
        problems = []
        if len(commands) > 100:
            problems.append("more than 100 commands")

        def check(opt: Mapping[str, Any], where: str, chat: bool) -> None:
            name = opt.get("name") or ""
            if chat and not re.fullmatch(r"[-_\w]{1,32}", name) or chat and name != name.lower():
                problems.append(f"{where}: bad name {name!r}")
            if chat and not 1 <= len(opt.get("description") or "") <= 100:
                problems.append(f"{where}: description must be 1-100 chars")
            subs = opt.get("options") or []
            if len(subs) > 25:
                problems.append(f"{where}: more than 25 options")
            for sub in subs:
                check(sub, f"{where}.{sub.get('name')}", True)

        for cmd in commands:
            check(cmd, cmd.get("name", "?"), cmd.get("type", 1) == 1)
        if problems:
            raise _FakeHTTPError(400, 50035, "Invalid Form Body: " + "; ".join(problems))

    # ------------------------------------------------------------------ HTTP plumbing

    def _add_routes(self, r: web.UrlDispatcher) -> None:
        p = API_PREFIX
        r.add_get("/gateway", self._gateway)
        r.add_get("/", self._gateway)
        r.add_get(p + "/gateway", self._get_gateway)
        r.add_get(p + "/gateway/bot", self._get_gateway_bot)
        r.add_get(p + "/users/@me", self._get_me)
        r.add_get(p + "/users/{user_id}", self._get_user)
        r.add_post(p + "/users/@me/channels", self._create_dm)
        r.add_get(p + "/oauth2/applications/@me", self._get_application)
        r.add_get(p + "/applications/@me", self._get_application)
        r.add_route("*", p + "/applications/{app_id}/commands", self._commands)
        r.add_route("*", p + "/applications/{app_id}/guilds/{guild_id}/commands", self._commands)
        r.add_post(p + "/interactions/{interaction_id}/{token}/callback", self._interaction_callback)
        r.add_post(p + "/webhooks/{app_id}/{token}", self._followup)
        r.add_route("*", p + "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message)
        r.add_get(p + "/channels/{channel_id}", self._get_channel)
        r.add_route("*", p + "/channels/{channel_id}/messages", self._channel_messages)
        r.add_route("*", p + "/channels/{channel_id}/messages/{message_id}", self._channel_message)
        r.add_get(p + "/guilds/{guild_id}", self._get_guild)
        r.add_get(p + "/guilds/{guild_id}/channels", self._get_guild_channels)
        r.add_get(p + "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._get_attachment)
        r.add_route("*", "/{tail:.*}", self._unknown)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        if request.path in ("/gateway", "/") and request.headers.get("Upgrade", "").lower() == "websocket":
            return await handler(request)
        path = request.path[len(API_PREFIX) :] if request.path.startswith(API_PREFIX) else request.path
        body, files = await _read_body(request)
        rec = RecordedRequest(
            request.method, path, dict(request.query), body, files, request.headers.get("Authorization")
        )
        request[_BODY], request[_FILES], request[_RECORD] = body, files, rec
        self.requests.append(rec)
        needs_auth = not (
            path.startswith("/interactions/") or path.startswith("/webhooks/") or path.startswith("/attachments/")
        )
        try:
            if self.token is not None and needs_auth and rec.authorization != f"Bot {self.token}":
                raise _FakeHTTPError(401, 0, "401: Unauthorized")
            response = await handler(request)
        except _FakeHTTPError as exc:
            response = _json({"message": exc.message, "code": exc.code, "errors": {}}, status=exc.status)
            self.problems.append(f"{request.method} {path} -> {exc.status} {exc.code} {exc.message}")
        rec.status = response.status
        self._notify()
        return response

    # --- misc REST

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
            }
        )

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json(self.bot_user)

    async def _get_user(self, request: web.Request) -> web.Response:
        uid = request.match_info["user_id"]
        if uid != self.bot_user["id"] and uid not in self.users:
            raise _FakeHTTPError(404, 10013, "Unknown User")
        return _json(self._user(uid))

    async def _create_dm(self, request: web.Request) -> web.Response:
        uid = str((request[_BODY] or {}).get("recipient_id"))
        if uid not in self.users:
            raise _FakeHTTPError(400, 50007, "Cannot send messages to this user")
        return _json(self.channels[self.dm_channel_id(uid)])

    async def _get_application(self, request: web.Request) -> web.Response:
        owner = next(iter(self.users.values()), self.bot_user)
        return _json(
            {
                "id": self.application_id,
                "name": self.bot_user["username"],
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": self.bot_user,
                "owner": owner,
                "team": None,
                "verify_key": "0" * 64,
                "flags": APPLICATION_FLAGS,
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "hook": True,
                "integration_types_config": {"0": {}},
                "approximate_guild_count": 1,
            }
        )

    async def _get_channel(self, request: web.Request) -> web.Response:
        return _json(self._channel(request))

    async def _get_guild(self, request: web.Request) -> web.Response:
        self._guild(request)
        g = self._guild_create()
        for key in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
            "unavailable",
            "lazy",
            "stage_instances",
            "guild_scheduled_events",
        ):
            g.pop(key, None)
        return _json(g)

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        self._guild(request)
        return _json([c for c in self.channels.values() if c["type"] != 1])

    async def _get_member(self, request: web.Request) -> web.Response:
        self._guild(request)
        member = self.members.get(request.match_info["user_id"])
        if member is None:
            raise _FakeHTTPError(404, 10007, "Unknown Member")
        return _json(member)

    async def _get_attachment(self, request: web.Request) -> web.Response:
        up = self.attachments.get(request.match_info["attachment_id"])
        if up is None:
            raise _FakeHTTPError(404, 0, "404: Not Found")
        return web.Response(body=up.data, content_type=up.content_type or "application/octet-stream")

    async def _unknown(self, request: web.Request) -> web.Response:
        self.unknown_requests.append(request[_RECORD])
        raise _FakeHTTPError(404, 0, f"404: Not Found (fake discord has no route {request.method} {request.path})")

    def _guild(self, request: web.Request) -> str:
        gid = request.match_info["guild_id"]
        if gid != self.guild_id:
            raise _FakeHTTPError(404, 10004, "Unknown Guild")
        return gid

    def _channel(self, request: web.Request) -> dict[str, Any]:
        ch = self.channels.get(request.match_info["channel_id"])
        if ch is None:
            raise _FakeHTTPError(404, 10003, "Unknown Channel")
        return ch

    # --- application commands

    async def _commands(self, request: web.Request) -> web.Response:
        if request.match_info["app_id"] != self.application_id:
            raise _FakeHTTPError(403, 50001, "Missing Access (wrong application id)")
        scope = None
        if "guild_id" in request.match_info:
            scope = self._guild(request)
        if request.method == "GET":
            return _json(self.commands.get(scope, []))
        if request.method != "PUT":
            return await self._unknown(request)
        body = request[_BODY]
        if not isinstance(body, list):
            raise _FakeHTTPError(400, 50035, "Invalid Form Body: expected a list of commands")
        self._check_commands(body)
        synced = []
        for cmd in body:
            typ = int(cmd.get("type", 1))
            key = (scope, cmd["name"], typ)
            cid = self._command_ids.setdefault(key, snowflake())
            out = {
                "default_member_permissions": None,
                "description": "",
                "options": [],
                "nsfw": False,
                "integration_types": [0],
                "contexts": None,
                **copy.deepcopy(cmd),
                "id": cid,
                "application_id": self.application_id,
                "version": snowflake(),
                "type": typ,
            }
            if scope is not None:
                out["guild_id"] = scope
            synced.append(out)
        self.commands[scope] = synced
        self.command_syncs.append((scope, copy.deepcopy(synced)))
        return _json(synced)

    # --- interactions

    async def _interaction_callback(self, request: web.Request) -> web.StreamResponse:
        rec = self.interactions.get(request.match_info["interaction_id"])
        if rec is None or rec.token != request.match_info["token"]:
            raise _FakeHTTPError(404, 10062, "Unknown interaction")
        if self.ack_deadline is not None and time.monotonic() - rec.dispatched_at > self.ack_deadline:
            raise _FakeHTTPError(404, 10062, f"Unknown interaction (answered after more than {self.ack_deadline}s)")
        if rec.callback is not None:
            raise _FakeHTTPError(400, 40060, "Interaction has already been acknowledged.")
        body, files = request[_BODY], request[_FILES]
        if not isinstance(body, dict) or "type" not in body:
            raise _FakeHTTPError(400, 50035, "Invalid Form Body: callback needs a type")
        ctype = int(body["type"])
        data = body.get("data") or {}
        if ctype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            self._check_message(data, files, creating=ctype == CHANNEL_MESSAGE)
        if ctype in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE) and rec.payload["type"] not in (
            MESSAGE_COMPONENT,
            MODAL_SUBMIT,
        ):
            raise _FakeHTTPError(400, 50035, "Invalid Form Body: UPDATE_MESSAGE only answers component/modal")
        if ctype in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE) and not rec.payload.get("message"):
            raise _FakeHTTPError(400, 50035, "Invalid Form Body: this interaction has no message to update")
        rec.callback, rec.callback_files = body, files

        reply: dict[str, Any] = {"id": rec.id, "type": rec.payload["type"]}
        resource: dict[str, Any] | None = None
        cid = rec.payload["channel_id"]
        author = self.bot_user
        mtype = 20 if rec.payload["type"] == APPLICATION_COMMAND else 0
        if ctype == CHANNEL_MESSAGE:
            msg = self._new_message(cid, data, files, author=author, source="callback", rec=rec, msg_type=mtype)
            rec.message = msg
            await self._dispatch_message("MESSAGE_CREATE", msg)
        elif ctype == DEFERRED_CHANNEL_MESSAGE:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            msg = self._new_message(
                cid, {"flags": flags}, [], author=author, source="callback", rec=rec, msg_type=mtype
            )
            rec.message = msg
            reply["response_message_loading"] = True
            await self._dispatch_message("MESSAGE_CREATE", msg)
        elif ctype in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            target = rec.payload["message"]
            msg = self.messages.get(str(target["id"]))
            if msg is None:  # a message the fake never saw (hand-built payload): adopt it
                msg = copy.deepcopy(target)
                self.messages[msg["id"]] = msg
                self._message_log.append(msg)
                self._source[msg["id"]] = "external"
            rec.message = msg
            if ctype == UPDATE_MESSAGE:
                self._edit_message(msg, data, files)
                await self._dispatch_message("MESSAGE_UPDATE", msg)
        elif ctype == MODAL:
            rec.modal = data
        elif ctype == AUTOCOMPLETE_RESULT:
            rec.choices = data.get("choices") or []
        if rec.message is not None and ctype != DEFERRED_UPDATE_MESSAGE:
            reply["response_message_id"] = rec.message["id"]
            reply["response_message_ephemeral"] = bool(rec.message["flags"] & EPHEMERAL)
            resource = {"type": ctype, "message": rec.message}
        self._notify()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        out: dict[str, Any] = {"interaction": reply}
        if resource is not None:
            out["resource"] = resource
        return _json(out)

    def _interaction_for_webhook(self, request: web.Request) -> InteractionRecord:
        if request.match_info["app_id"] != self.application_id:
            raise _FakeHTTPError(404, 10015, "Unknown Webhook")
        token = request.match_info["token"]
        rec = next((r for r in self.interactions.values() if r.token == token), None)
        if rec is None or rec.callback is None:
            raise _FakeHTTPError(404, 10015, "Unknown Webhook (interaction not acknowledged yet)")
        return rec

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        rec = self._interaction_for_webhook(request)
        body, files = request[_BODY] or {}, request[_FILES]
        self._check_message(body, files, creating=True)
        msg = self._new_message(
            rec.payload["channel_id"], body, files, author=self.bot_user, source="followup", rec=rec
        )
        rec.followups.append(msg)
        await self._dispatch_message("MESSAGE_CREATE", msg)
        self._notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return _json(msg)
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.StreamResponse:
        rec = self._interaction_for_webhook(request)
        mid = request.match_info["message_id"]
        if mid == "@original":
            msg = rec.message if rec.message is not None and rec.message["id"] in self.messages else None
        else:
            msg = next((m for m in [rec.message, *rec.followups] if m is not None and m["id"] == mid), None)
            msg = msg if msg is not None and msg["id"] in self.messages else None
        if msg is None:
            raise _FakeHTTPError(404, 10008, "Unknown Message")
        if request.method == "GET":
            return _json(msg)
        if request.method == "PATCH":
            body = request[_BODY] or {}
            self._check_message(body, request[_FILES], creating=False)
            self._edit_message(msg, body, request[_FILES])
            await self._dispatch_message("MESSAGE_UPDATE", msg)
            self._notify()
            return _json(msg)
        if request.method == "DELETE":
            await self._delete_message(msg)
            self._notify()
            return web.Response(status=204)
        return await self._unknown(request)

    # --- channel messages

    async def _channel_messages(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if request.method == "GET":
            limit = int(request.query.get("limit", 50))
            msgs = [m for m in reversed(self.channel_messages(ch["id"]))]
            if "before" in request.query:
                msgs = [m for m in msgs if int(m["id"]) < int(request.query["before"])]
            if "after" in request.query:
                msgs = [m for m in msgs if int(m["id"]) > int(request.query["after"])]
            return _json(msgs[:limit])
        if request.method != "POST":
            return await self._unknown(request)
        body, files = request[_BODY] or {}, request[_FILES]
        self._check_message(body, files, creating=True)
        msg = self._new_message(ch["id"], body, files, author=self.bot_user, source="channel")
        await self._dispatch_message("MESSAGE_CREATE", msg)
        self._notify()
        return _json(msg)

    async def _channel_message(self, request: web.Request) -> web.StreamResponse:
        ch = self._channel(request)
        msg = self.messages.get(request.match_info["message_id"])
        if msg is None or msg["channel_id"] != ch["id"] or msg["flags"] & EPHEMERAL:
            raise _FakeHTTPError(404, 10008, "Unknown Message")
        if request.method == "GET":
            return _json(msg)
        if request.method == "PATCH":
            if msg["author"]["id"] != self.bot_user["id"]:
                raise _FakeHTTPError(403, 50005, "Cannot edit a message authored by another user")
            body = request[_BODY] or {}
            self._check_message(body, request[_FILES], creating=False)
            self._edit_message(msg, body, request[_FILES])
            await self._dispatch_message("MESSAGE_UPDATE", msg)
            self._notify()
            return _json(msg)
        if request.method == "DELETE":
            await self._delete_message(msg)
            self._notify()
            return web.Response(status=204)
        return await self._unknown(request)


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py only decodes bodies whose Content-Type is exactly "application/json" (no charset)
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def _infer_option_type(value: Any) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, float):
        return 10
    return 3


async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """JSON body, or multipart (payload_json + files[n]) as discord.py sends with attachments."""
    if request.method in ("GET", "HEAD") or not request.can_read_body:
        return None, []
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        files: list[Upload] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            raw = await part.read()  # type: ignore[union-attr]
            if part.name == "payload_json":
                payload = json.loads(raw)
            else:
                files.append(Upload(part.name or "", part.filename, part.headers.get("Content-Type"), bytes(raw)))
        return payload, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []


async def stop_process(proc: asyncio.subprocess.Process, timeout: float = 5.0) -> None:
    """Terminate a client subprocess, killing it if it does not stop in time."""
    if proc.returncode is None:
        proc.terminate()
    try:
        await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
