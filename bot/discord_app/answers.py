"""Answering an interaction within Discord's 3 seconds, whatever the database or Discord is doing.

Discord drops an interaction that is not answered within 3 s ("This interaction
failed"). Each handler runs under `answering`: if it has not answered after
DEFER_AFTER seconds (a slow database, a slow Discord), the interaction is
deferred (a loading state) and the answer follows on its token, which lives 15
minutes. A move is acknowledged *before* it is applied (`acknowledge`): if
Discord cannot be reached then, nothing is applied, so nobody is told "failed"
about a move that was made.

`edits`: the answer replaces the message that was clicked (a panel, the lobby);
otherwise it is a new private message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

log = logging.getLogger(__name__)
MISSING = discord.utils.MISSING
DEFER_AFTER = 2.0  # seconds of work before an answer is deferred (Discord allows 3)


class _Answer:
    __slots__ = ("edits", "public", "lock", "filled")

    def __init__(self, edits: bool, public: bool = False):
        self.edits = edits
        self.public = public  # the answer is a public message (a new table)
        self.lock = asyncio.Lock()  # the late defer and the handler's answer never both answer first
        self.filled = False  # a "thinking" defer has been replaced by the answer


def _state(interaction: discord.Interaction) -> _Answer:
    state = interaction.extras.get("answer")
    if state is None:
        state = interaction.extras["answer"] = _Answer(edits=False)
    return state


def _edits(interaction: discord.Interaction, state: _Answer) -> bool:
    return state.edits and interaction.message is not None


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction, edits: bool = False, public: bool = False):
    """Run a handler; if it has not answered after DEFER_AFTER seconds, defer its answer."""
    interaction.extras["answer"] = _Answer(edits, public)
    timer = asyncio.get_running_loop().call_later(
        DEFER_AFTER, lambda: asyncio.ensure_future(_late(interaction)))
    try:
        yield
    finally:
        timer.cancel()


async def _late(interaction: discord.Interaction) -> None:
    try:
        await acknowledge(interaction)
    except discord.HTTPException:
        log.warning("could not defer a slow answer in channel %s", interaction.channel_id)


async def acknowledge(interaction: discord.Interaction) -> None:
    """Tell Discord the answer is coming (nothing if answered already). Raises if Discord cannot be reached."""
    state = _state(interaction)
    async with state.lock:
        if interaction.response.is_done():
            return
        if _edits(interaction, state):
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=not state.public, thinking=True)


async def send(interaction: discord.Interaction, content: str = MISSING, *, view: discord.ui.View = MISSING,
               embed: discord.Embed = MISSING, files: list[discord.File] = MISSING, file: discord.File = MISSING,
               allowed_mentions: discord.AllowedMentions = MISSING) -> int | None:
    """A new private message: the answer, or (once answered) a private follow-up. The answer's message id
    when it is the interaction's "@original" (which its token can edit later), else None. `files` (or one
    `file`): its attachments; `allowed_mentions`: whom it may notify (the bot's default: nobody)."""
    if file is not MISSING:
        files = [file]
    state = _state(interaction)
    async with state.lock:
        if not interaction.response.is_done():
            sent = await interaction.response.send_message(content, view=view, embed=embed, files=files,
                                                           ephemeral=True, allowed_mentions=allowed_mentions)
            return getattr(sent, "message_id", None)
        elif interaction.response.type == discord.InteractionResponseType.deferred_channel_message \
                and not state.filled:
            state.filled = True  # the loading message becomes the answer
            return (await interaction.edit_original_response(content=content, view=view, embed=embed,
                                                             attachments=files,
                                                             allowed_mentions=allowed_mentions)).id
        else:
            await interaction.followup.send(content, view=view, embed=embed, files=files, ephemeral=True,
                                            allowed_mentions=allowed_mentions)
            return None


async def post(interaction: discord.Interaction, *, embed: discord.Embed, view: discord.ui.View,
               files: list[discord.File] = MISSING) -> int:
    """A public answer (a new table); its message id."""
    state = _state(interaction)
    async with state.lock:
        if not interaction.response.is_done():
            await interaction.response.send_message(embed=embed, view=view, files=files)
        else:
            state.filled = True
            await interaction.edit_original_response(embed=embed, view=view, attachments=files)
    return (await interaction.original_response()).id


async def update(interaction: discord.Interaction, content: str | None = MISSING, *,
                 view: discord.ui.View | None = MISSING, embed: discord.Embed | None = MISSING,
                 attachments: list[discord.File] = MISSING) -> int | None:
    """Replace the clicked message (a typed command, which has none, gets a new private message); the
    message id of the answer when it is the interaction's "@original", else None."""
    state = _state(interaction)
    if interaction.message is None:
        return await send(interaction, content, view=view if view is not None else MISSING,
                          embed=embed if embed is not None else MISSING, files=attachments)
    async with state.lock:
        if not interaction.response.is_done():
            await interaction.response.edit_message(content=content, view=view, embed=embed, attachments=attachments)
            return interaction.message.id
        elif interaction.response.type == discord.InteractionResponseType.deferred_message_update:
            await interaction.edit_original_response(content=content, view=view, embed=embed, attachments=attachments)
            return interaction.message.id
        else:  # deferred as a new message (a late defer of a handler that did not say it edits)
            state.filled = True
            return (await interaction.edit_original_response(content=content, view=view, embed=embed,
                                                             attachments=attachments)).id
