"""The channel permissions the bot uses, in one place: checked when a table opens, asked for by the
README's invite link (tests/test_permissions.py checks the link against INVITE).

- View Channel: to see the channel and edit the table message in it;
- Send Messages (in a thread: Send Messages in Threads): the table posted again if it is deleted, and
  pings, reminders and the standings once no player's interaction is fresh enough to post them;
- Embed Links: the table and the standings are embeds;
- Create Public Threads: only for a table opened in a thread of its own (`/augsburg new thread:`), in the
  channel the thread opens in; the thread then needs what any thread needs. An archived thread is opened
  again by the bot when a deadline or a move needs it, which needs no more (the thread is not locked).

Nothing else: the bot edits only its own messages, never reads the channel's messages or history, and
mentions only the players it names (which needs no permission). Replies to interactions need none.
"""

from __future__ import annotations

import discord

CHANNEL = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
THREAD = discord.Permissions(view_channel=True, send_messages_in_threads=True, embed_links=True)
NEW_THREAD = THREAD | discord.Permissions(create_public_threads=True)
INVITE = CHANNEL | NEW_THREAD


def needed(in_thread: bool, opens_thread: bool = False) -> discord.Permissions:
    """What a table needs: in a channel, in a thread, or in a thread the bot opens for it (`opens_thread`)."""
    return NEW_THREAD if opens_thread else THREAD if in_thread else CHANNEL


def missing(interaction: discord.Interaction, opens_thread: bool = False) -> discord.Permissions:
    """What the bot lacks in the interaction's channel (nothing: Permissions.none()); `opens_thread`: for a
    table in a new thread of it (a thread has its channel's permissions)."""
    wanted = needed(isinstance(interaction.channel, discord.Thread), opens_thread)
    return discord.Permissions(wanted.value & ~interaction.app_permissions.value)


def flags(perms: discord.Permissions) -> list[str]:
    """The permissions among those the bot uses, by discord.py's flag names, in a fixed order
    (bot/wording/names.py names them for people)."""
    return [flag for flag in ORDER if getattr(perms, flag)]


ORDER = ("view_channel", "send_messages", "send_messages_in_threads", "create_public_threads", "embed_links")
