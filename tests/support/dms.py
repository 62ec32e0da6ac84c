"""Direct messages: one DM channel per user, and users who accept no DMs from the bot.

As on Discord, a bot opens its DM channel with a user by ``POST /users/@me/channels``
``{"recipient_id": id}`` (discord.py: ``User.send``, ``Member.send``, ``create_dm``) and gets the same
channel back every time; it then uses the ordinary channel message routes (``routes``), validated like
any other message. A DM channel has no guild: its messages carry no ``guild_id``, reach a bot as message
events only with the DIRECT_MESSAGES intent, and can be seen by their recipient only
(:meth:`DirectMessages.dm_messages`), never in ``channel_messages``.

:meth:`DirectMessages.close_dms` plays a user who does not accept DMs from the bot (privacy settings, or
they blocked it): opening the channel still succeeds, as on Discord, but each new message in it is
refused with 403 / 50007 "Cannot send messages to this user" (discord.py raises ``discord.Forbidden``
with ``.code == 50007``); so is every message to a bot user. Like any 4xx by Discord's rules the refusal
is listed in ``problems``, so ``assert_no_errors`` fails until the test clears it (``problems.clear()``,
after asserting it); closing a Harness fails only on refused bodies (50035, 50006, 40005), not on it. Edits and
deletes of messages already in the DM still go through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import payloads
from .errors import DiscordError, invalid_form
from .payloads import FakeUser
from .records import RecordedRequest, StoredMessage
from .routes import route


class DirectMessages:
    """Mixin for :class:`~support.model.DiscordModel`: DM channels by user, and closed DMs."""

    users: dict[int, FakeUser]
    user: Callable[[int], FakeUser]
    next_id: Callable[[], int]
    messages_in: Callable[[int], dict[int, StoredMessage]]
    threads: dict[int, dict]
    thread_payload: Callable[[int], dict]

    def __init__(self) -> None:
        super().__init__()
        self.dm_channels: dict[int, int] = {}  # user id -> the id of the bot's DM channel with them
        self._dm_users: dict[int, int] = {}  # and back: DM channel id -> user id
        self.closed_dms: set[int] = set()

    def close_dms(self, user_id: int) -> None:
        """From now on the user accepts no DMs from the bot: new messages to their DM get 403 / 50007."""
        self.closed_dms.add(self.user(user_id).id)

    def open_dms(self, user_id: int) -> None:
        """Undo :meth:`close_dms`."""
        self.closed_dms.discard(self.user(user_id).id)

    def open_dm(self, user: FakeUser) -> int:
        """The id of the DM channel with ``user``, created on first use: one stable channel per user."""
        if user.id not in self.dm_channels:
            self.dm_channels[user.id] = self.next_id()
            self._dm_users[self.dm_channels[user.id]] = user.id
        return self.dm_channels[user.id]

    def dm_recipient(self, channel_id: int) -> FakeUser | None:
        """The user a DM channel is with; None if ``channel_id`` is no DM channel."""
        user_id = self._dm_users.get(int(channel_id))
        return None if user_id is None else self.users[user_id]

    def dm_messages(self, user_id: int) -> dict[int, StoredMessage]:
        """Live messages in the user's DMs with the bot, as the user sees them there, oldest first."""
        channel_id = self.dm_channels.get(self.user(user_id).id)
        return {} if channel_id is None else self.messages_in(channel_id)

    def channel_payload(self, channel_id: int) -> dict:
        """The channel object of a guild text channel, a thread or a DM channel."""
        if int(channel_id) in self.threads:
            return self.thread_payload(channel_id)
        recipient = self.dm_recipient(channel_id)
        return payloads.channel(self, channel_id) if recipient is None else payloads.dm_channel(channel_id, recipient)

    def check_dm_send(self, channel_id: int) -> None:
        """Refuse a new message to a user who accepts no DMs from the bot (or is a bot), as Discord does."""
        recipient = self.dm_recipient(channel_id)
        if recipient is not None and (recipient.id in self.closed_dms or recipient.bot):
            raise DiscordError(403, 50007, "Cannot send messages to this user")


@route("POST", "/users/@me/channels")
def create_dm(fake: Any, req: RecordedRequest) -> dict:
    raw = (req.json or {}).get("recipient_id")
    if raw is None:
        raise invalid_form([("recipient_id", "This field is required")])
    if not str(raw).isdigit():
        raise invalid_form([("recipient_id", f'Value "{raw}" is not snowflake.')])
    user = fake.users.get(int(raw))
    if user is None:
        # A well-formed id of no user the bot can DM gets 400 / 50033 "Invalid Recipient(s)" (JSON error
        # codes, https://discord.com/developers/docs/topics/opcodes-and-status-codes#json; reported for
        # such ids in discord/discord-api-docs#8274 and bwmarrin/discordgo#953), not 10013 Unknown User.
        raise DiscordError(400, 50033, "Invalid Recipient(s)")
    return payloads.dm_channel(fake.open_dm(user), user)
