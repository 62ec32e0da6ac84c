"""One model of Discord for one guild (or several: ``more_guilds``), its text channels (``channels``) and the
bot's DMs (``dms``): what exists, who sees what, and on what clock.

Route handlers change it; both doors read it. Message events (MESSAGE_CREATE/UPDATE/DELETE) go to
``listeners`` (discord.py's parsers in process, gateway sessions for a subprocess), each deciding by its
intents whether Discord would deliver them (:func:`delivered`). A listener gets the model's own dict and
must copy or serialize it before the model changes it again.

Nothing is deep-copied on the way in: a request's JSON is parsed afresh for each request and the model
only ever replaces a message's keys, never changes them in place, so a message, its outputs and the
request that made it can share what they hold.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import discord

from . import attachments, payloads
from .channels import Channels, known, plan_channels
from .dms import DirectMessages
from .errors import invalid_form
from .failures import InjectedFailures
from .payloads import FakeUser, now_iso
from .records import Interaction, Output, RecordedRequest, StoredMessage
from .threads import Threads
from .validation import EPHEMERAL, LOADING

TOKEN_LIFETIME = 15 * 60  # seconds an interaction token accepts followups and edits
SLIM_AFTER = 30.0  # with record_requests=False: seconds an interaction keeps its callback body and output
GUILDS = 1  # the intent for channel and thread events
GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 9, 1 << 12  # the intents for MESSAGE_* events in guilds, in DMs
MESSAGE_KEYS = ("content", "embeds", "components", "poll")  # an edit replaces these; ``attachments`` merges
_keys = itertools.count(1)

Listener = Callable[[str, dict], None]


def delivered(intents: int, data: dict, event: str = "MESSAGE_CREATE") -> bool:
    """Whether Discord sends a bot with ``intents`` this event: MESSAGE_* about a guild or DM message need
    those intents; channel and thread events need GUILDS."""
    if event.startswith(("CHANNEL_", "THREAD_")):
        return bool(intents & GUILDS)
    return bool(intents & (GUILD_MESSAGES if "guild_id" in data else DIRECT_MESSAGES))


class DiscordModel(Channels, Threads, DirectMessages, InjectedFailures):
    def __init__(
        self,
        *,
        guild_id: int = 900_000_000_000_000_001,
        channel_id: int = 900_000_000_000_000_002,
        channel_ids: Iterable[int] | None = None,
        channels: int = 1,
        users: Iterable[FakeUser | int] = (),
        application_id: int = 900_000_000_000_000_100,
        bot_name: str = "augsburg-bot",
        response_deadline: float | None = 3.0,
        locale: str = "en-US",
        record_requests: bool = True,
        keep_outputs: int | None = None,
        more_guilds: dict[int, Iterable[int]] | None = None,
    ) -> None:
        super().__init__()
        self.key = next(_keys)
        self.guild_id = guild_id
        self.set_channels(plan_channels(channel_id, channel_ids, channels), guild_id, more_guilds or {})
        self.application_id = application_id  # the bot user's id too, as on Discord
        self.bot_user = FakeUser(application_id, bot_name, bot=True)
        self.users: dict[int, FakeUser] = {}
        for user in users:
            self.add_user(user)
        self.response_deadline = response_deadline
        self.locale = locale
        self.clock_offset = 0.0
        self.messages: dict[int, StoredMessage] = {}  # every message ever created
        self.interactions: dict[str, Interaction] = {}  # by token
        self.commands: dict[int | None, list[dict]] = {}  # scope (guild id, None = global) -> synced commands
        self.record_requests = record_requests  # False: counters only (``stats``), for long runs
        self._unslimmed: deque[Interaction] = deque()  # without records: interactions still holding bodies
        self.requests: list[RecordedRequest] = []
        self.keep_outputs = keep_outputs  # None: every output; N: about the newest N (older ones dropped)
        self.outputs_dropped = 0
        self.problems: list[str] = []  # every 4xx the fake answered by Discord's rules (not injected ones)
        self.outputs: list[Output] = []
        self.errors: list[str] = []  # filled by a door: errors the bot logged
        self.listeners: list[Listener] = []
        self._last_id = 0

    # ------------------------------------------------------------------ time, ids, users

    def now(self) -> float:
        """The fake's clock (monotonic seconds); :meth:`advance` moves it, e.g. past a token's 15 minutes."""
        return time.monotonic() + self.clock_offset

    def advance(self, seconds: float) -> None:
        self.clock_offset += seconds

    def next_id(self) -> int:
        """A fresh, increasing snowflake for "now" (so discord.py's created_at is sensible)."""
        self._last_id = max(self._last_id + 1, discord.utils.time_snowflake(datetime.now(UTC)))
        return self._last_id

    def add_user(self, user: FakeUser | int) -> FakeUser:
        user = user if isinstance(user, FakeUser) else FakeUser(int(user))
        self.users[user.id] = user
        return user

    def user(self, user_id: int) -> FakeUser:
        return known(self.users, user_id, "user (add it with users=[...])")

    # ------------------------------------------------------------------ messages

    def new_message(
        self, body: dict, *, ephemeral: bool = False, owner: FakeUser | None = None,
        interaction: Interaction | None = None, loading: bool = False, channel_id: int | None = None,
        files: Sequence[attachments.Upload] = (),
    ) -> StoredMessage:  # fmt: skip
        """A message in ``channel_id`` (default: the interaction's channel, else the guild's channel), with
        the uploaded ``files`` as its attachments (see ``attachments``)."""
        mid = self.next_id()
        channel_id = channel_id or (interaction.channel_id if interaction else self.channel_id)
        recipient = self.dm_recipient(channel_id)
        flags = int(body.get("flags") or 0) & ~EPHEMERAL | (EPHEMERAL if ephemeral else 0) | (LOADING if loading else 0)
        data: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "guild_id": str(self.guild_of(channel_id)),
            "author": self.bot_user.user_payload(),
            "content": body.get("content") or "",
            "timestamp": now_iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts")),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": flags,
        }
        if interaction is not None:
            data["webhook_id"] = data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.user_payload(),
                "authorizing_integration_owners": {"0": "0" if recipient else str(self.guild_of(channel_id))},
            }
            if interaction.type == 2:
                data["type"] = 20  # CHAT_INPUT_COMMAND
        self._reply(data, body, channel_id)
        if recipient is not None:
            del data["guild_id"]
        seer = owner.id if ephemeral and owner else recipient.id if recipient else None
        msg = StoredMessage(mid, channel_id, data, ephemeral, seer, None if interaction is None else interaction.id)
        msg.allowed_mentions = body.get("allowed_mentions")
        attachments.apply(msg, body, files, self.next_id, editing=False)
        self.messages[mid] = msg
        self.index_message(msg)
        if not ephemeral:
            self.emit("MESSAGE_CREATE", data)
        return msg

    def _reply(self, data: dict, body: dict, channel_id: int) -> None:
        """Make ``data`` a reply (type 19) carrying the message it answers, if ``body`` references one; an
        unknown one is refused unless ``fail_if_not_exists`` is false, as on Discord."""
        ref = body.get("message_reference") or {}
        target = self.messages.get(int(ref.get("message_id") or 0))
        if target is None or target.deleted or target.channel_id != channel_id:
            if ref and ref.get("fail_if_not_exists", True):
                raise invalid_form([("message_reference", "Unknown message")])
            return
        data["type"], data["referenced_message"] = 19, dict(target.data)
        data["message_reference"] = {"type": 0, "message_id": str(target.id), "channel_id": str(channel_id)}

    def edit_message(self, msg: StoredMessage, body: dict, files: Sequence[attachments.Upload] = ()) -> StoredMessage:
        """Apply a PATCH body (only the keys present) and its ``files``; ephemerality never changes, "thinking"
        ends; attachments are kept, replaced or added as ``attachments`` says."""
        was_loading = msg.loading
        for key in MESSAGE_KEYS:
            if key in body:
                value = body[key]
                msg.data[key] = value if value is not None else ("" if key == "content" else [])
        attachments.apply(msg, body, files, self.next_id, editing=True)
        flags = int(msg.data["flags"])
        if body.get("flags") is not None:
            flags = int(body["flags"]) & ~(EPHEMERAL | LOADING) | flags & EPHEMERAL
        msg.data["flags"] = flags & ~LOADING
        if not was_loading:
            msg.data["edited_timestamp"] = now_iso()
        if "content" in body or "allowed_mentions" in body:  # Discord parses the mentions again
            msg.allowed_mentions = body.get("allowed_mentions")
        if not msg.ephemeral:
            self.emit("MESSAGE_UPDATE", msg.data)
        return msg

    def delete_message(self, msg: StoredMessage) -> None:
        msg.deleted = True
        if not msg.ephemeral:
            guild = {} if msg.in_dm else {"guild_id": str(self.guild_of(msg.channel_id))}
            self.emit("MESSAGE_DELETE", {"id": str(msg.id), "channel_id": str(msg.channel_id), **guild})

    def emit(self, event: str, data: dict) -> None:
        for listener in list(self.listeners):
            listener(event, data)

    def record(self, kind: str, msg: StoredMessage | None, payload: Any, **extra: Any) -> Output:
        """An output (what a user sees change); with ``keep_outputs``, the oldest are dropped in batches."""
        out = Output(kind=kind, payload=payload if isinstance(payload, dict) else {}, **extra)
        if msg is not None:
            out.message_id, out.channel_id, out.ephemeral = msg.id, msg.channel_id, msg.ephemeral
            out.recipient_id = msg.owner_id if msg.in_dm else None
            out.content = msg.content
            out.embeds, out.components, out.attachments = msg.embeds, msg.components, msg.attachments
        self.outputs.append(out)
        if self.keep_outputs is not None and len(self.outputs) >= 2 * self.keep_outputs + 1:
            dropped = len(self.outputs) - self.keep_outputs
            del self.outputs[:dropped]
            self.outputs_dropped += dropped
        return out

    # ------------------------------------------------------------------ interactions

    def register_interaction(self, payload: dict) -> Interaction:
        """Discord's side of an INTERACTION_CREATE about to be sent: the token starts its clocks now."""
        message = payload.get("message")
        interaction = Interaction(
            id=int(payload["id"]),
            token=payload["token"],
            type=int(payload["type"]),
            user=self.user(int((payload.get("member") or payload)["user"]["id"])),
            channel_id=int(payload["channel_id"]),
            created_at=self.now(),
            payload=payload if self.record_requests else {},
            message_id=int(message["id"]) if message else None,
        )
        self.interactions[interaction.token] = interaction
        if not self.record_requests:
            self._slim(interaction)
        return interaction

    def _slim(self, newest: Interaction) -> None:
        """Without records, an interaction older than SLIM_AFTER keeps its token and callback type but no
        longer the bodies (its Result's ``response`` becomes None): a long run's memory stays bounded."""
        self._unslimmed.append(newest)
        while self._unslimmed and newest.created_at - self._unslimmed[0].created_at > SLIM_AFTER:
            old = self._unslimmed.popleft()
            old.output = None
            if old.callback is not None:
                old.callback = {"type": old.callback["type"]}

    def interaction_payload(
        self, user_id: int, itype: int, data: dict, message: StoredMessage | None = None, channel_id: int | None = None
    ) -> dict:
        """INTERACTION_CREATE for ``user_id``, in the channel of ``message`` (a DM's or a thread's too), else in
        the guild text channel, thread or DM channel ``channel_id`` (default: the first text channel)."""
        user = self.user(user_id)
        if message is None and channel_id is not None and self.dm_recipient(channel_id) is not None:
            place = self.channel_payload(channel_id)  # a command typed in a DM with the bot
        else:
            place = self.text_channel(channel_id) if message is None else self.channel_payload(message.channel_id)
        return payloads.interaction(self, self.next_id(), user, itype, data, message and message.data, place)

    # ------------------------------------------------------------------ checks a test makes

    def requests_to(self, method: str, route: str) -> list[RecordedRequest]:
        """Recorded requests for one route template, e.g. ``("POST", "/channels/{channel_id}/messages")``."""
        return [r for r in self.requests if r.method == method.upper() and r.route == route]

    def in_flight(self) -> set[int]:
        """Interactions a door is still waiting on (not yet judged unanswered)."""
        return set()

    @property
    def unanswered(self) -> list[Interaction]:
        busy = self.in_flight()
        return [i for i in self.interactions.values() if i.callback is None and i.id not in busy]

    def assert_all_answered(self, *, allow_thinking: bool = False) -> None:
        """Fail if any interaction got "This interaction failed" (or, by default, is stuck "thinking")."""
        problems = [f"interaction {i.id} (type {i.type}, user {i.user.id}) was never answered" for i in self.unanswered]
        if not allow_thinking:
            problems += [
                f"interaction {i.id} deferred with thinking, never filled"
                for i in self.interactions.values()
                if i.loading
            ]
        if problems:
            raise AssertionError("\n".join(problems + [f"errors: {e}" for e in self.errors]))

    def assert_no_errors(self) -> None:
        """Fail if the bot logged an error or Discord (the fake) refused one of its requests, expected
        refusals included (a test asserts those, e.g. a 50007 for closed DMs, and clears ``problems``)."""
        if self.errors or self.problems:
            found = [f"refused: {p}" for p in self.problems] + self.errors
            raise AssertionError("errors and refused requests:\n" + "\n---\n".join(found))
