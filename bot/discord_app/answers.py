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

Every answer to an interaction goes through here, and so do Discord's two
surprises. Discord may do what was asked and lose its reply (a 5xx): discord.py
sends the request again, and a second first answer gets 40060 "already
acknowledged". The first one stands, so the answer goes on through the token,
shown again in "@original" (`_taken`). An interaction Discord no longer takes
answers for (its token past 15 minutes: 50027; unknown: 10062) gets none: one
warning line (`_gone`), and what the handler did stands.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from typing import Any, Concatenate, ParamSpec

import discord
from discord import app_commands

from .choices import filtered

log = logging.getLogger(__name__)
MISSING = discord.utils.MISSING
DEFER_AFTER = 2.0  # seconds after Discord created an interaction before its answer is deferred (it allows 3)
ACKNOWLEDGED = 40060  # "Interaction has already been acknowledged"
GONE = {50027: "its token has expired", 10062: "Discord no longer knows the interaction"}
Kind = discord.InteractionResponseType
P = ParamSpec("P")
Value = str | int | float  # what an autocomplete suggestion fills in (Discord's kinds of option)
# An answer to an interaction; it gives its message id (None: not the interaction's "@original", or not sent).
Answer = Callable[Concatenate[discord.Interaction, P], Coroutine[Any, Any, int | None]]


class _Answer:
    __slots__ = ("edits", "public", "lock", "filled", "what", "gone", "over")

    def __init__(self, edits: bool, public: bool = False, what: str = "an interaction"):
        self.edits = edits
        self.public = public  # the answer is a public message (a new table)
        self.lock = asyncio.Lock()  # the late defer and the handler's answer never both answer first
        self.filled = False  # a "thinking" defer has been replaced by the answer
        self.what = what  # what is being answered (a handler's name), for the log
        self.gone = False  # Discord takes no more answers to it
        self.over = False  # its handler has finished: a late defer has nothing left to announce


def _state(interaction: discord.Interaction) -> _Answer:
    state = interaction.extras.get("answer")
    if state is None:
        state = interaction.extras["answer"] = _Answer(edits=False)
    assert isinstance(state, _Answer), "extras['answer'] is only ever set here"
    return state


def _taken(interaction: discord.Interaction, error: discord.HTTPException, kind: Kind) -> bool:
    """Whether `error` says our first answer (of `kind`) stands already: Discord took an earlier try of it
    and lost its reply, and discord.py sent it again. Then it is noted as done, as discord.py would have."""
    if error.code != ACKNOWLEDGED:
        return False
    log.info("the answer to %s in channel %s was taken before its reply was lost",
             _state(interaction).what, interaction.channel_id)
    interaction.response._response_type = kind  # discord.py's own note of it: is_done() reads it
    return True


def _gone(interaction: discord.Interaction, error: discord.HTTPException, what: str) -> bool:
    """Whether `error` says Discord takes no more answers to the interaction; if so, say so in one line."""
    reason = GONE.get(error.code)
    if reason is None:
        return False
    state = _state(interaction)
    state.gone = True
    log.warning("%s to %s in channel %s could not be sent: %s (%s %s)",
                what, state.what, interaction.channel_id, reason, error.status, error.code)
    return True


def _delivered(what: str) -> Callable[[Answer[P]], Answer[P]]:
    """An answer Discord no longer takes is dropped (None) after one warning line naming `what` it was:
    the player sees their move on the table and in their next panel."""
    def wrap(func: Answer[P]) -> Answer[P]:
        @functools.wraps(func)
        async def deliver(interaction: discord.Interaction, /, *args: P.args, **kwargs: P.kwargs) -> int | None:
            if _state(interaction).gone:
                return None
            try:
                return await func(interaction, *args, **kwargs)
            except discord.HTTPException as error:
                if not _gone(interaction, error, what):
                    raise
                return None
        return deliver
    return wrap


def _edits(interaction: discord.Interaction, state: _Answer) -> bool:
    return state.edits and interaction.message is not None


@contextlib.asynccontextmanager
async def answering(interaction: discord.Interaction, edits: bool = False, public: bool = False,
                    what: str = "an interaction") -> AsyncIterator[None]:
    """Run a handler (`what`: its name); if it has not answered DEFER_AFTER seconds after Discord created the
    interaction, defer its answer."""
    interaction.extras["answer"] = _Answer(edits, public, what)
    timer = asyncio.get_running_loop().call_later(
        defer_in(interaction), lambda: asyncio.ensure_future(_late(interaction)))
    try:
        yield
    finally:
        timer.cancel()
        let_go(interaction)


def let_go(interaction: discord.Interaction) -> None:
    """Break the reference cycles discord.py builds around an interaction once it has been answered.

    The interaction and its `response` refer to each other, and so do the interaction and its cached
    "@original" message. Each cycle holds the whole interaction (its member, user, clicked message with
    its embeds and components, its handler's state) until a garbage collection finds it: under load most
    of what the young collections walked, and what made them pause the bot for 50 ms and more. Without the
    cycles it all goes as soon as the last task lets go of the interaction. The response keeps its own
    note of what was sent (`is_done()` still answers), so nothing answers twice."""
    _state(interaction).over = True
    interaction._original_response = None
    response = getattr(interaction, "_cs_response", None)  # (discord.py makes it on first use)
    if response is not None:
        response._parent = None  # (nothing answers through it any more)


def defer_in(interaction: discord.Interaction) -> float:
    """Seconds left until the answer must be deferred. Discord's 3 s count from the interaction's creation
    (its id's time), not from when the handler starts: under load an interaction can wait in the gateway's
    stream and the event loop's queue for a second or more first. A clock that disagrees with Discord's by
    more than DEFER_AFTER is not trusted: then the handler gets the whole DEFER_AFTER."""
    waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    if not 0.0 <= waited <= DEFER_AFTER + 1.0:
        return DEFER_AFTER
    return max(0.0, DEFER_AFTER - waited)


async def _late(interaction: discord.Interaction) -> None:
    if _state(interaction).gone:
        return
    try:
        await acknowledge(interaction)
    except discord.HTTPException as error:
        log.warning("could not defer a slow answer in channel %s (%s %s)",
                    interaction.channel_id, error.status, error.code)


async def acknowledge(interaction: discord.Interaction) -> None:
    """Tell Discord the answer is coming (nothing if answered already). Raises if Discord cannot be reached
    or no longer knows the interaction (then no answer is tried after it)."""
    state = _state(interaction)
    async with state.lock:
        if state.over or interaction.response.is_done():
            return
        edits = _edits(interaction, state)
        try:
            if edits:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=not state.public, thinking=True)
        except discord.HTTPException as error:
            if not _taken(interaction, error, Kind.deferred_message_update if edits else Kind.deferred_channel_message):
                state.gone = state.gone or error.code in GONE
                raise


@_delivered("a private answer")
async def send(interaction: discord.Interaction, content: str = MISSING, *, view: discord.ui.View | None = MISSING,
               embed: discord.Embed | None = MISSING, files: list[discord.File] = MISSING,
               file: discord.File = MISSING, allowed_mentions: discord.AllowedMentions = MISSING) -> int | None:
    """A new private message: the answer, or (once answered) a private follow-up. The answer's message id
    when it is the interaction's "@original" (which its token can edit later), else None. `files` (or one
    `file`): its attachments; `allowed_mentions`: whom it may notify (the bot's default: nobody); `view`,
    `embed` None: none."""
    if file is not MISSING:
        files = [file]
    state = _state(interaction)
    # A new message takes no None for these in discord.py's types (and a view of None fails once it is sent).
    new_view, new_embed = view if view is not None else MISSING, embed if embed is not None else MISSING

    async def into_original() -> int:
        return (await interaction.edit_original_response(content=content, view=view, embed=embed,
                                                         attachments=files, allowed_mentions=allowed_mentions)).id

    async with state.lock:
        if not interaction.response.is_done():
            try:
                sent = await interaction.response.send_message(content, view=new_view, embed=new_embed, files=files,
                                                               ephemeral=True, allowed_mentions=allowed_mentions)
                return getattr(sent, "message_id", None)
            except discord.HTTPException as error:
                if not _taken(interaction, error, Kind.channel_message):
                    raise
            return await into_original()  # it stands there already: shown again, and its id learnt
        elif interaction.response.type == Kind.deferred_channel_message and not state.filled:
            state.filled = True  # the loading message becomes the answer
            return await into_original()
        else:
            await interaction.followup.send(content, view=new_view, embed=new_embed, files=files, ephemeral=True,
                                            allowed_mentions=allowed_mentions)
            return None


@_delivered("the table")
async def post(interaction: discord.Interaction, content: str = MISSING, *, embed: discord.Embed = MISSING,
               view: discord.ui.View | None = MISSING, files: list[discord.File] = MISSING,
               allowed_mentions: discord.AllowedMentions = MISSING) -> int | None:
    """A public answer (a new table, or the link to it); its message id (None: Discord no longer takes an
    answer). `view` None: no buttons (a table that has none)."""
    state = _state(interaction)
    async with state.lock:
        if not interaction.response.is_done():
            try:  # (discord.py's send_message takes no None for a view: no view is MISSING there)
                await interaction.response.send_message(content, embed=embed, files=files,
                                                        view=view if view is not None else MISSING,
                                                        allowed_mentions=allowed_mentions)
            except discord.HTTPException as error:
                if not _taken(interaction, error, Kind.channel_message):
                    raise
            else:
                return (await interaction.original_response()).id
        state.filled = True  # into the loading message, or shown again where it stands already
        return (await interaction.edit_original_response(content=content, embed=embed, view=view, attachments=files,
                                                         allowed_mentions=allowed_mentions)).id


@_delivered("the answer")
async def update(interaction: discord.Interaction, content: str | None = MISSING, *,
                 view: discord.ui.View | None = MISSING, embed: discord.Embed | None = MISSING,
                 attachments: list[discord.File] = MISSING) -> int | None:
    """Replace the clicked message (a typed command, which has none, gets a new private message); the
    message id of the answer when it is the interaction's "@original", else None."""
    state = _state(interaction)
    if interaction.message is None:
        return await send(interaction, content if content is not None else MISSING,
                          view=view if view is not None else MISSING, embed=embed if embed is not None else MISSING,
                          files=attachments)
    async with state.lock:
        if not interaction.response.is_done():
            try:
                await interaction.response.edit_message(content=content, view=view, embed=embed,
                                                        attachments=attachments)
                return interaction.message.id
            except discord.HTTPException as error:
                if not _taken(interaction, error, Kind.message_update):
                    raise
            # the clicked message shows it already: shown again through the token, as after a defer
            await interaction.edit_original_response(content=content, view=view, embed=embed, attachments=attachments)
            return interaction.message.id
        elif interaction.response.type == Kind.deferred_message_update:
            await interaction.edit_original_response(content=content, view=view, embed=embed, attachments=attachments)
            return interaction.message.id
        else:  # deferred as a new message (a late defer of a handler that did not say it edits)
            state.filled = True
            return (await interaction.edit_original_response(content=content, view=view, embed=embed,
                                                             attachments=attachments)).id


async def suggest(interaction: discord.Interaction,
                  choices: list[app_commands.Choice[Value]]) -> list[app_commands.Choice[Value]]:
    """Autocomplete suggestions, sent here (not left to discord.py) so their answer meets Discord's surprises
    as every other does. Returns the empty list discord.py then has nothing to send for."""
    try:
        await interaction.response.autocomplete(choices)
    except discord.HTTPException as error:
        if not _taken(interaction, error, Kind.autocomplete_result):
            if not _gone(interaction, error, "suggestions"):
                raise
            interaction.response._response_type = Kind.autocomplete_result  # nothing more to send
    let_go(interaction)  # (discord.py only asks the response whether it is done, after this)
    return []


async def suggest_matching(interaction: discord.Interaction, pairs: Iterable[tuple[str, Value]],
                           current: str) -> list[app_commands.Choice[Value]]:
    """The (name, value) pairs matching what was typed so far, sent as the autocomplete answer."""
    return await suggest(interaction, [app_commands.Choice(name=n, value=v)
                                       for n, v in filtered(pairs, current)])
