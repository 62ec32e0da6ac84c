"""The guild's text channels and who sees which message where.

One channel by default (``channel_id``); a load run asks for many: ``channel_ids=[...]`` or ``channels=N``
(ids spaced ``1 << 32`` apart from ``channel_id``, so they meet no user, guild or application id). The
first is the default channel: ``channel_messages``, slash commands without ``channel_id=``, the guild's
system channel. Messages are indexed by channel as they are created, so ``messages_in`` costs the size
of one channel, not of the whole history.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import payloads
from .errors import HarnessError
from .records import StoredMessage

CHANNEL_STRIDE = 1 << 32


def plan_channels(first: int, ids: Iterable[int] | None, count: int) -> list[int]:
    """The guild's text channel ids: ``ids`` as given, else ``count`` of them starting at ``first``."""
    if ids is None:
        if count < 1:
            raise ValueError("a guild needs at least one text channel")
        return [first + CHANNEL_STRIDE * i for i in range(count)]
    planned = [int(i) for i in ids]
    if not planned or len(set(planned)) != len(planned):
        raise ValueError(f"channel_ids must be distinct and not empty: {planned}")
    return planned


NONCE_MINUTES = 5  # how long Discord remembers an enforced nonce ("a few minutes")


class Channels:
    """Mixin for :class:`~support.model.DiscordModel`: the text channels and the message queries."""

    channel_id: int
    messages: dict[int, StoredMessage]
    threads: dict[int, dict]
    thread_payload: Callable[[int], dict]
    delete_thread: Callable[..., None]

    def __init__(self) -> None:
        super().__init__()
        self.channel_ids: list[int] = []
        self.guild_ids: list[int] = []  # the first is the default guild
        self._guild_of: dict[int, int] = {}  # channel -> its guild
        self._positions: dict[int, int] = {}
        self._by_channel: dict[int, dict[int, StoredMessage]] = {}
        self._nonces: dict[tuple[int, str], tuple[StoredMessage, float]] = {}

    def set_channels(self, ids: list[int], guild_id: int, more_guilds: dict[int, Iterable[int]]) -> None:
        """The default guild's channels ``ids``; ``more_guilds``: other guilds, each with its channels."""
        self.guild_ids = [guild_id, *more_guilds]
        self._guild_of = {cid: guild_id for cid in ids}
        for other, channels in more_guilds.items():
            self._guild_of.update((int(cid), int(other)) for cid in channels)
        self.channel_ids = list(self._guild_of)
        if len(self.channel_ids) != len(ids) + sum(len(list(c)) for c in more_guilds.values()):
            raise ValueError("every channel belongs to one guild")
        self._positions = {cid: i for i, cid in enumerate(self.channel_ids)}
        self.channel_id = ids[0]

    def guild_of(self, channel_id: int) -> int:
        """The guild of a text channel or of a thread (the default guild for any other id)."""
        thread = self.threads.get(int(channel_id))
        if thread is not None:
            channel_id = thread["parent_id"]
        return self._guild_of.get(int(channel_id), self.guild_ids[0] if self.guild_ids else 0)

    def channels_of(self, guild_id: int) -> list[int]:
        return [cid for cid in self.channel_ids if self._guild_of[cid] == guild_id]

    def delete_channel(self, channel_id: int, *, tell: bool = True) -> None:
        """A server admin deletes a text channel: its messages go, requests naming it get 404 10003, and
        (with ``tell``; else as if the bot was away) the bot gets CHANNEL_DELETE, which needs only GUILDS."""
        payload = payloads.channel(self, channel_id)
        del self._positions[int(channel_id)]
        self.channel_ids.remove(int(channel_id))
        self._guild_of.pop(int(channel_id), None)
        for msg in self._by_channel.pop(int(channel_id), {}).values():
            msg.deleted = True
        for thread in [t for t, v in self.threads.items() if v["parent_id"] == int(channel_id)]:
            self.delete_thread(thread, tell=False)  # its threads go with it; Discord tells of the channel only
        if tell:
            self.emit("CHANNEL_DELETE", payload)

    def nonced_message(self, channel_id: int, nonce: str | int | None) -> StoredMessage | None:
        """The message sent with this nonce in this channel within Discord's few minutes, if any."""
        found = self._nonces.get((channel_id, str(nonce))) if nonce is not None else None
        if found is None or self.now() - found[1] > NONCE_MINUTES * 60 or found[0].deleted:
            return None
        return found[0]

    def remember_nonce(self, channel_id: int, nonce: str | int | None, msg: StoredMessage) -> None:
        if nonce is not None:
            self._nonces[(channel_id, str(nonce))] = (msg, self.now())

    def is_text_channel(self, channel_id: int) -> bool:
        return int(channel_id) in self._positions

    def text_channel(self, channel_id: int | None) -> dict:
        """The channel object of a guild text channel (default: the first) or thread; HarnessError for any other id."""
        channel_id = self.channel_id if channel_id is None else int(channel_id)
        if channel_id in self.threads:
            return self.thread_payload(channel_id)
        if channel_id not in self._positions:
            raise HarnessError(f"{channel_id} is no text channel of the guild; it has {len(self.channel_ids)}")
        return payloads.channel(self, channel_id)

    def channel_position(self, channel_id: int) -> int:
        return self._positions[int(channel_id)]

    def index_message(self, msg: StoredMessage) -> None:
        self._by_channel.setdefault(msg.channel_id, {})[msg.id] = msg

    # ------------------------------------------------------------------ what users see

    def live_messages(self, keep: Callable[[StoredMessage], bool]) -> dict[int, StoredMessage]:
        """Live (not deleted) messages that ``keep`` accepts, oldest first (id -> message)."""
        return {i: m for i, m in sorted(self.messages.items()) if not m.deleted and keep(m)}

    def messages_in(self, channel_id: int) -> dict[int, StoredMessage]:
        """Live public messages in one channel (a guild text channel or a DM), oldest first."""
        found = self._by_channel.get(int(channel_id), {})
        return {i: m for i, m in found.items() if not m.deleted and not m.ephemeral}

    def posted_in(self, channel_id: int | None = None) -> dict[int, StoredMessage]:
        """Every public message ever posted in one channel (default: the guild's default channel), those
        deleted since too, oldest first: what was said, where ``messages_in`` is what is still there."""
        found = self._by_channel.get(int(channel_id or self.channel_id), {})
        return {i: m for i, m in found.items() if not m.ephemeral}

    @property
    def channel_messages(self) -> dict[int, StoredMessage]:
        """Live public messages in the guild's default channel, oldest first (id -> message); never DMs."""
        return self.messages_in(self.channel_id)

    def ephemeral_messages(self, user_id: int) -> dict[int, StoredMessage]:
        """Live ephemeral messages only ``user_id`` can see, oldest first."""
        return self.live_messages(lambda m: m.ephemeral and m.owner_id == user_id)

    def visible_messages(self, user_id: int) -> dict[int, StoredMessage]:
        """Everything ``user_id`` can see: every channel, their ephemeral messages and their DMs, oldest first."""
        return self.live_messages(lambda m: m.owner_id in (None, user_id))

    def message(self, message_id: int) -> StoredMessage:
        return known(self.messages, message_id, "message")

    def find_message(
        self, custom_id: str | None = None, *, label: str | None = None, user_id: int | None = None
    ) -> StoredMessage:
        """The newest live message (visible to ``user_id`` if given) with a matching component;
        ``custom_id`` matches exactly, or as a prefix when it ends with ':'."""
        pool = self.live_messages(lambda m: True) if user_id is None else self.visible_messages(user_id)
        for msg in reversed(pool.values()):
            if msg.has(custom_id, label=label, prefix=True):
                return msg
        raise HarnessError(f"no live message with custom_id={custom_id!r} label={label!r}")


def known(table: dict, key: Any, what: str) -> Any:
    try:
        return table[int(key)]
    except KeyError:
        raise HarnessError(f"unknown {what}: {key}") from None
