"""Public threads of the guild's text channels, and the bot's permissions in each channel.

As on Discord: ``POST /channels/{id}/threads`` (no message) with ``type`` 11 opens a public thread (a
channel of type 11 whose ``parent_id`` is the text channel, named 1-100 characters, ``auto_archive_duration``
one of 60, 1440, 4320, 10080 minutes) and sends THREAD_CREATE; it needs Create Public Threads in the
parent (403 50013 without). A thread is a channel for the message routes and for interactions (its
``channel`` object carries ``parent_id`` and ``thread_metadata``; the guild is the parent's); a bot message
in it needs Send Messages in Threads. An archived thread (:meth:`Threads.archive_thread`, as Discord does
after ``auto_archive_duration`` without activity) refuses the bot's new messages and edits with 400 50083
"Thread is archived" until ``PATCH /channels/{id}`` with ``archived: false`` (which needs no more than Send
Messages in Threads while the thread is not locked); it stays a channel (``GET /channels/{id}`` finds it)
but leaves GUILD_CREATE's ``threads``, which lists active threads only. :meth:`Threads.delete_thread` plays
a moderator deleting it: its messages go, requests naming it get 404 10003, and THREAD_DELETE is sent.

The bot's permissions: every channel grants all channel permissions (``app_permissions`` of each
interaction says so) unless a test takes some away with :meth:`Threads.deny` (a thread has its parent's).
Interaction callbacks and follow-ups are not affected by either (they need no permission).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from .errors import DiscordError, invalid_form
from .records import RecordedRequest, StoredMessage
from .routes import route

PUBLIC_THREAD = 11
ARCHIVE_MINUTES = (60, 1440, 4320, 10080)


class Threads:
    """Mixin for :class:`~support.model.DiscordModel`: threads by id, and the bot's denied permissions."""

    next_id: Callable[[], int]
    emit: Callable[[str, dict], None]
    is_text_channel: Callable[[int], bool]
    guild_of: Callable[[int], int]
    _by_channel: dict[int, dict[int, StoredMessage]]

    def __init__(self) -> None:
        super().__init__()
        self.threads: dict[int, dict] = {}  # thread id -> {parent_id, name, owner_id, archived, locked, minutes}
        self.denied: dict[int, int] = {}  # text channel id -> permission bits the bot lacks there

    # ------------------------------------------------------------------ what a test does

    def deny(self, channel_id: int, *flags: str) -> None:
        """Take these permissions (discord.py flag names) from the bot in a text channel and its threads."""
        self.denied[int(channel_id)] = self.denied.get(int(channel_id), 0) | discord.Permissions(
            **dict.fromkeys(flags, True)).value

    def bot_permissions(self, channel_id: int) -> discord.Permissions:
        parent = self.threads.get(int(channel_id), {}).get("parent_id", int(channel_id))
        return discord.Permissions(discord.Permissions.all_channel().value & ~self.denied.get(parent, 0))

    def open_thread(self, parent_id: int, name: str, owner_id: int, minutes: int = 10080) -> dict:
        """A public thread of text channel ``parent_id`` (what the route does; THREAD_CREATE is sent)."""
        thread_id = self.next_id()
        self.threads[thread_id] = {"parent_id": int(parent_id), "name": name, "owner_id": owner_id,
                                   "archived": False, "locked": False, "minutes": minutes}
        self.emit("THREAD_CREATE", {**self.thread_payload(thread_id), "newly_created": True})
        return self.thread_payload(thread_id)

    def archive_thread(self, thread_id: int, *, archived: bool = True) -> None:
        """Discord archives an idle thread (or a moderator does): THREAD_UPDATE is sent."""
        self.threads[int(thread_id)]["archived"] = archived
        self.emit("THREAD_UPDATE", self.thread_payload(thread_id))

    def delete_thread(self, thread_id: int, *, tell: bool = True) -> None:
        """A moderator deletes a thread: its messages go, it is unknown from now on, THREAD_DELETE (with ``tell``)."""
        thread = self.threads.pop(int(thread_id))
        for msg in self._by_channel.pop(int(thread_id), {}).values():
            msg.deleted = True
        if tell:
            self.emit("THREAD_DELETE", {"id": str(thread_id), "guild_id": str(self.guild_of(thread["parent_id"])),
                                        "parent_id": str(thread["parent_id"]), "type": PUBLIC_THREAD})

    # ------------------------------------------------------------------ what the model asks

    def is_thread(self, channel_id: int) -> bool:
        return int(channel_id) in self.threads

    def active_threads(self, guild_id: int) -> list[dict]:
        """GUILD_CREATE's ``threads``: the guild's threads that are not archived."""
        return [self.thread_payload(t) for t, v in self.threads.items()
                if not v["archived"] and self.guild_of(v["parent_id"]) == guild_id]

    def thread_payload(self, thread_id: int) -> dict:
        thread = self.threads[int(thread_id)]
        return {
            "id": str(thread_id), "type": PUBLIC_THREAD, "guild_id": str(self.guild_of(thread["parent_id"])),
            "parent_id": str(thread["parent_id"]), "owner_id": str(thread["owner_id"]), "name": thread["name"],
            "last_message_id": None, "rate_limit_per_user": 0, "flags": 0, "message_count": 0,
            "member_count": 1, "total_message_sent": 0,
            "thread_metadata": {"archived": thread["archived"], "locked": thread["locked"],
                                "auto_archive_duration": thread["minutes"],
                                "archive_timestamp": "2024-01-01T00:00:00+00:00"},
        }

    def check_send(self, channel_id: int) -> None:
        """Refuse a bot message (new or edited) where Discord would: an archived thread, or no permission."""
        perms = self.bot_permissions(channel_id)
        thread = self.threads.get(int(channel_id))
        if thread is not None and thread["archived"]:
            raise DiscordError(400, 50083, "Thread is archived")
        if self.is_text_channel(channel_id) or thread is not None:
            allowed = perms.send_messages_in_threads if thread is not None else perms.send_messages
            if not (allowed and perms.view_channel):
                raise DiscordError(403, 50013, "Missing Permissions")


@route("POST", "/channels/{channel_id}/threads")
def create_thread(fake: Any, req: RecordedRequest) -> dict:
    parent = int(req.params["channel_id"])
    if not fake.is_text_channel(parent):
        raise DiscordError(404, 10003, "Unknown Channel")
    body = req.json or {}
    name = str(body.get("name") or "")
    errors = []
    if not 1 <= len(name) <= 100:
        errors.append(("name", "Must be between 1 and 100 in length."))
    if body.get("type") != PUBLIC_THREAD:
        errors.append(("type", "The fake opens public threads (type 11) only."))
    minutes = body.get("auto_archive_duration", 4320)
    if minutes not in ARCHIVE_MINUTES:
        errors.append(("auto_archive_duration", f"Value must be one of {ARCHIVE_MINUTES}."))
    if errors:
        raise invalid_form(errors)
    perms = fake.bot_permissions(parent)
    if not (perms.create_public_threads and perms.view_channel):
        raise DiscordError(403, 50013, "Missing Permissions")
    return fake.open_thread(parent, name, fake.application_id, minutes)


@route("PATCH", "/channels/{channel_id}")
def edit_channel(fake: Any, req: RecordedRequest) -> dict:
    """Only a thread's ``archived`` (to false: Send Messages in Threads suffices while it is not locked)."""
    thread_id = int(req.params["channel_id"])
    thread = fake.threads.get(thread_id)
    if thread is None:
        raise DiscordError(404, 10003, "Unknown Channel")
    body = req.json or {}
    if set(body) - {"archived"}:
        raise DiscordError(400, 0, f"the fake edits a thread's archived flag only, not {sorted(body)}")
    perms = fake.bot_permissions(thread_id)
    if body.get("archived") is False and not (perms.send_messages_in_threads or perms.manage_threads):
        raise DiscordError(403, 50013, "Missing Permissions")
    fake.archive_thread(thread_id, archived=bool(body.get("archived")))
    return fake.thread_payload(thread_id)
