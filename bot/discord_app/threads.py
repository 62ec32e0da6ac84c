"""A table in a thread of its own: opening the thread, and opening it again once Discord has archived it.

A game in a thread is keyed by the thread as any game is by its channel; only two things differ. The bot
opens the thread (public, in the channel `/augsburg new` was used in, named after the table, archived by
Discord only after the longest idle time it allows), and Discord archives an idle thread all the same (a
slow game, a 72-hour clock): an archived thread refuses the bot's messages and edits (50083) until it is
unarchived, which a bot allowed to send messages in threads may do while the thread is not locked. So
every message or edit the bot makes in a game's channel goes through `unarchiving`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

import discord

log = logging.getLogger(__name__)
ARCHIVED = 50083  # Discord: "Thread is archived"
ARCHIVE_MINUTES: Final = 10080  # a week without a message before Discord archives it: the longest it allows
NAME_LIMIT = 100  # Discord's limit on a thread's name
T = TypeVar("T")


def thread_name(host: str) -> str:
    """The table's name, which the thread carries: the game and its host."""
    return f"Augsburg 1520 — {host}"[:NAME_LIMIT]


def parent_of(interaction: discord.Interaction) -> int | None:
    """The channel whose thread the interaction was used in (None: not in a thread). A game there keeps it,
    so that channel's history lists the game too."""
    channel = interaction.channel
    return channel.parent_id if isinstance(channel, discord.Thread) else None


async def open_thread(client: discord.Client, channel_id: int, name: str) -> int:
    """A new public thread of text channel `channel_id` for a table; its id."""
    data = await client.http.start_thread_without_message(
        channel_id, name=name, auto_archive_duration=ARCHIVE_MINUTES, type=discord.ChannelType.public_thread.value,
        reason="a table of Augsburg 1520")
    return int(data["id"])


async def unarchiving(client: discord.Client, channel_id: int, attempt: Callable[[], Awaitable[T]]) -> T:
    """`attempt()` (a message or an edit in the game's channel); if the channel is a thread Discord has
    archived, unarchive it and attempt once more. `attempt` makes its request afresh each time (files are
    read by the first)."""
    try:
        return await attempt()
    except discord.HTTPException as exc:
        if exc.code != ARCHIVED:
            raise
    log.info("unarchiving thread %s: its game needs it", channel_id)
    await client.http.edit_channel(channel_id, archived=False, reason="its game goes on")
    return await attempt()


TableMessage = tuple[discord.Embed, discord.ui.View | None, list[discord.File]]  # its embed, buttons and files
Looks = Callable[[], Awaitable[TableMessage]]


async def send_table(client: discord.Client, channel_id: int, looks: Looks) -> discord.Message:
    """Post a table (`looks`: its embed, buttons and files, made afresh for each attempt) in the game's channel."""
    async def send() -> discord.Message:
        embed, view, files = await looks()
        return await client.get_partial_messageable(channel_id).send(
            embed=embed, view=view if view is not None else discord.utils.MISSING, files=files,
            allowed_mentions=discord.AllowedMentions.none())

    return await unarchiving(client, channel_id, send)


async def edit_table(client: discord.Client, channel_id: int, message_id: int, looks: Looks) -> discord.Message:
    """Redraw a table message in the game's channel."""
    async def edit() -> discord.Message:
        embed, view, files = await looks()
        message = client.get_partial_messageable(channel_id).get_partial_message(message_id)
        return await message.edit(embed=embed, view=view, attachments=files)

    return await unarchiving(client, channel_id, edit)
