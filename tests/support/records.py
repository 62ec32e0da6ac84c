"""What the fake remembers: messages as users see them, interactions and their tokens, requests, outputs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import mentions
from .attachments import Upload
from .payloads import FakeUser
from .validation import BUTTON, LOADING, SELECTS, walk

# Callback types (InteractionResponseType) by the name a test reads in ``Output.kind``.
CALLBACK_KINDS = {1: "pong", 4: "response", 5: "defer", 6: "defer_update", 7: "update", 8: "autocomplete", 9: "modal"}


class ComponentQueries:
    """Questions about ``components`` (raw component dicts, as sent to Discord)."""

    components: list[dict]

    def all_components(self) -> list[dict]:
        return [comp for _, comp in walk(self.components)]

    def custom_ids(self) -> list[str]:
        """Custom ids of every interactive component (buttons, selects), in display order."""
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def buttons(self) -> list[dict]:
        return [c for c in self.all_components() if c.get("type") == BUTTON]

    def labels(self) -> list[str]:
        return [b.get("label") or "" for b in self.buttons()]

    def selects(self) -> list[dict]:
        return [c for c in self.all_components() if c.get("type") in SELECTS]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> dict | None:
        """The component with this exact custom_id (or, with ``label=``, the button with that label)."""
        return next((c for c in self.all_components() if matches(c, custom_id, label)), None)

    def select_options(self, custom_id: str | None = None) -> list[dict]:
        selects = [s for s in self.selects() if custom_id is None or s.get("custom_id") == custom_id]
        return list(selects[0].get("options", [])) if selects else []

    def has(self, custom_id: str | None = None, *, label: str | None = None, prefix: bool = False) -> bool:
        """Whether a component matches; with ``prefix``, a custom_id ending in ':' matches as a prefix."""
        return any(matches(c, custom_id, label, prefix=prefix) for c in self.all_components())


def matches(comp: dict, custom_id: str | None, label: str | None, *, prefix: bool = False) -> bool:
    cid = comp.get("custom_id") or ""
    if custom_id is not None and (
        cid == custom_id or (prefix and custom_id.endswith(":") and cid.startswith(custom_id))
    ):
        return True
    return label is not None and comp.get("type") == BUTTON and comp.get("label") == label


@dataclass
class StoredMessage(ComponentQueries):
    """The fake's current view of one message (``data`` is the full Discord message JSON).

    A test may set ``deleted = True`` to play a user deleting it: routes then answer 404 for it.
    ``allowed_mentions`` is what the request that last set its content sent (None: the key was absent).
    ``file_bytes`` holds the bytes of each live attachment by its id (read them with :meth:`attachment_bytes`).
    """

    id: int
    channel_id: int
    data: dict
    ephemeral: bool = False
    owner_id: int | None = None  # the one user who can see it: an ephemeral message's, or the DM's recipient
    interaction_id: int | None = None
    deleted: bool = False
    allowed_mentions: dict | None = None
    file_bytes: dict[int, bytes] = field(default_factory=dict, repr=False)

    @property
    def in_dm(self) -> bool:
        """Sent in a direct message channel (which has no guild)."""
        return "guild_id" not in self.data

    def notified(self, members: Iterable[int], roles: Mapping[int, Iterable[int]] | None = None) -> set[int]:
        """Users Discord would notify for this message's mentions (see :mod:`support.mentions`): among
        ``members`` (the guild's member ids; ``roles`` maps a role id to its members) for a channel
        message, only the recipient in a DM, nobody for an ephemeral message. Discord pings when a message
        is created; an edit updates its mentions but pings nobody again."""
        if self.ephemeral:
            return set()
        audience = [self.owner_id] if self.in_dm and self.owner_id is not None else members
        replied = (self.data.get("referenced_message") or {}).get("author", {}).get("id")
        return mentions.notified(
            self.content, self.allowed_mentions, audience, roles=roles,
            author_id=int(self.data["author"]["id"]), replied_to=None if replied is None else int(replied),
        )  # fmt: skip

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
    def attachments(self) -> list[dict]:
        """The attachment objects, as Discord sends them (``id``, ``filename``, ``size``, ``url``, ...)."""
        return self.data.get("attachments") or []

    def attachment(self, filename: str) -> dict:
        """The attachment named ``filename``; KeyError if the message has none of that name."""
        found = [a for a in self.attachments if a["filename"] == filename]
        if not found:
            raise KeyError(f"no attachment {filename!r}; has {[a['filename'] for a in self.attachments]}")
        return found[0]

    def attachment_bytes(self, filename: str) -> bytes:
        """The uploaded bytes of the attachment named ``filename`` (what its url would serve)."""
        return self.file_bytes[int(self.attachment(filename)["id"])]

    @property
    def loading(self) -> bool:
        """True while this is an unfilled "Bot is thinking..." message."""
        return bool(int(self.data.get("flags") or 0) & LOADING)


@dataclass
class Interaction:
    """Discord's side of one interaction token: when it was created and how it was answered."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    created_at: float  # on the fake's clock
    payload: dict
    message_id: int | None = None  # the message a component sits on
    callback: dict | None = None  # the accepted callback body
    original_id: int | None = None  # the message @original names
    loading: bool = False  # deferred with "thinking" and not filled yet
    sent_at: float | None = None  # time.monotonic() when the door sent it to the bot
    answered_at: float | None = None  # time.monotonic() when the callback Discord accepted arrived
    output: Output | None = None  # what that callback showed (the Result's ``response``)

    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else int(self.callback["type"])


@dataclass
class RecordedRequest:
    """One HTTP request the fake received. ``route`` is discord.py's template, ``path`` the concrete one;
    ``at`` its arrival (time.monotonic()), ``channel_id`` the channel a channel route names, and
    ``global_limited`` whether it counts against Discord's global limit (interaction routes do not);
    ``files`` the uploaded file parts of a multipart body (name, bytes, ``files[N]`` index)."""

    method: str
    route: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: list[Upload]
    authorization: str | None
    status: int = 0
    response: Any = None
    error: str | None = None
    at: float = 0.0
    channel_id: int | None = None
    global_limited: bool = True


@dataclass
class Output(ComponentQueries):
    """One user-visible effect (a response, an edit, a followup, a channel message, ...).

    ``content``/``embeds``/``components``/``attachments`` are the affected message *after* the operation;
    ``payload`` is exactly what the bot sent (without the files), ``allowed_mentions`` its ``allowed_mentions``
    (None when absent).
    ``recipient_id`` is set for a message in a DM: whose DMs it is in.
    """

    kind: str
    message_id: int | None = None
    ephemeral: bool = False
    content: str | None = None
    embeds: list[dict] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    attachments: list[dict] = field(default_factory=list)
    payload: dict = field(default_factory=dict)
    channel_id: int | None = None
    user_id: int | None = None  # the interacting user, for interaction outputs
    interaction_id: int | None = None
    choices: list[dict] | None = None  # autocomplete
    modal: dict | None = None
    recipient_id: int | None = None

    @property
    def allowed_mentions(self) -> dict | None:
        return self.payload.get("allowed_mentions")

    def __repr__(self) -> str:
        bits = [self.kind, f"id={self.message_id}"] + (["ephemeral"] if self.ephemeral else [])
        bits += [] if self.recipient_id is None else [f"dm={self.recipient_id}"]
        if self.content:
            bits.append(repr(self.content[:60]))
        return f"<Output {' '.join(bits)} custom_ids={self.custom_ids()}>"
