"""What every handler shares: answering politely, the one guard for "the game in this channel",
and the public side of a change (table, pings, computers)."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Any, Concatenate, ParamSpec, TypeVar, overload

import discord

from storage import GameNotPlayable, GameQuarantined, GameRecord, ShardLost, StorageUnavailable

from ...service import GameService, Notice, Outcome
from ...service.where import working_in
from ...wording import ENGLISH, People, Words, clock, notices, words
from .. import answers
from ..answers import answering
from ..computers import ComputerRunner
from ..panels import panel
from ..people import people
from ..presenter import Presenter

log = logging.getLogger(__name__)
READER: ContextVar[Words] = ContextVar("reader", default=ENGLISH)  # the language of whoever is answered
MISSING = discord.utils.MISSING
UNNAMED = People(name=str)  # for notices about a game that is not there
S = TypeVar("S")  # the feature's handlers (LobbyHandlers, …)
P = ParamSpec("P")
# A handler: a method of a feature's handlers, answering an interaction (widgets.py and the cog call them).
HandlerMethod = Callable[Concatenate[S, discord.Interaction, P], Coroutine[Any, Any, None]]


@overload
def guarded(func: HandlerMethod[S, P], /) -> HandlerMethod[S, P]: ...
@overload
def guarded(*, edits: bool = False, public: bool = False) -> Callable[[HandlerMethod[S, P]], HandlerMethod[S, P]]: ...


def guarded(func: HandlerMethod[S, P] | None = None, /, *, edits: bool = False, public: bool = False) \
        -> HandlerMethod[S, P] | Callable[[HandlerMethod[S, P]], HandlerMethod[S, P]]:
    """Answer within Discord's 3 s (answers.py; `edits`: the answer replaces the clicked message), and log
    any error with its channel: the player gets a short apology, never a traceback."""
    if func is None:
        def guard(handler: HandlerMethod[S, P]) -> HandlerMethod[S, P]:
            return _guarded(handler, edits, public)
        return guard
    return _guarded(func, edits, public)


def _guarded(func: HandlerMethod[S, P], edits: bool, public: bool) -> HandlerMethod[S, P]:
    name = func.__name__

    @functools.wraps(func)
    async def wrapper(self: S, interaction: discord.Interaction, /, *args: P.args, **kwargs: P.kwargs) -> None:
        READER.set(words(interaction.locale))  # this task's private answers: in the clicker's language
        guild, shards = interaction.guild_id, interaction.client.shard_count or 1
        working_in(guild=guild, channel=interaction.channel_id,  # for this task's log lines
                   shard=(guild >> 22) % shards if guild is not None else None)
        async with answering(interaction, edits, public, name):
            try:
                return await func(self, interaction, *args, **kwargs)
            except ShardLost:  # another process owns this guild's shard now: it answers; this one is stopping
                log.warning("not answering %s in channel %s: its shard is another process's now", name,
                            interaction.channel_id)
            except StorageUnavailable:  # the database stayed out of reach: nothing was changed
                log.warning("the database is out of reach (%s, channel %s)", name, interaction.channel_id)
                with contextlib.suppress(discord.HTTPException):
                    await say(interaction, notices.notice(READER.get(), "not_stored", {}, UNNAMED))
            except Exception:
                log.exception("error in %s (channel %s, args %s)", name, interaction.channel_id, args)
                interaction.extras["failed"] = True  # for whoever counts them (the operator's metrics)
                with contextlib.suppress(discord.HTTPException):
                    await say(interaction, notices.sorry(READER.get()))

    return wrapper


async def say(interaction: discord.Interaction, text: str, view: discord.ui.View = MISSING,
              embed: discord.Embed = MISSING) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    await answers.send(interaction, text, view=view, embed=embed)


def reader() -> Words:
    """The language of the person being answered (their Discord client's)."""
    return READER.get()


def refused(outcome: Outcome) -> Notice:
    """A refused request's notice: every refusal carries one (service/outcome.py `refuse`)."""
    assert outcome.notice is not None, "a refused request carries its notice"
    return outcome.notice


def record_of(outcome: Outcome) -> GameRecord:
    """The game a granted request changed: every granted request about a game carries it."""
    assert outcome.record is not None, "a granted request about a game carries its game"
    return outcome.record


class Front:
    """What the handlers of every feature share: the service, the public side of a change (the presenter,
    the computers), the reader's language, and the one guard of "the game in this channel"."""

    def __init__(self, service: GameService, presenter: Presenter, computers: ComputerRunner):
        self.service = service
        self.presenter = presenter
        self.computers = computers

    @property
    def w(self) -> Words:
        """The language of the person being answered (their Discord client's)."""
        return READER.get()

    @staticmethod
    def table_words(record: GameRecord) -> Words:
        """The language of the table's public messages, chosen by its host."""
        return words(record.table.lang)

    def notice(self, notice: Notice, record: GameRecord | None = None) -> str:
        who = people(self.w, record.table) if record is not None else UNNAMED
        return notices.notice(self.w, notice.code, notice.params, who)

    def panel(self, record: GameRecord, user: int | str, note: str = "",
              undo: int | None = None) -> tuple[str, discord.ui.View]:
        """A person's private panel (panels.py) in the reader's language, from their decision as the service
        shows it."""
        return panel(self.w, record, self.service.games.decision(record, str(user)), note, undo)

    def notice_code(self, code: str, record: GameRecord | None = None) -> str:
        return self.notice(Notice(code), record)

    async def moved(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """The public side of a move, once its player has their answer: pings, table, standings, computers.

        All of it happens in the background, promised in the move's own write (drawer.py), so nothing
        here can turn the player's answer into an apology. `interaction`: the player's, already answered;
        its token carries the public posts (pings).
        """
        record = record_of(outcome)
        try:
            if interaction is not None:
                self.presenter.remember(interaction)
            self.presenter.changed(outcome)
            if outcome.due.any_computer:
                self.computers.schedule(record.channel_id)
        except Exception:
            log.exception("could not set the public side of a move going (channel %s)", record.channel_id)

    async def seats_changed(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """After a seat changed hands: the table and the computers (nobody newly due to ping)."""
        # Nobody newly due: everyone due now counts as due before.
        await self.moved(Outcome(True, record=outcome.record, previous_to_act=list(outcome.due.acting)), interaction)

    async def game_here(self, interaction: discord.Interaction, *, game_id: int | None = None,
                        active: bool = False, seated: bool = False) -> GameRecord | None:
        """The game in this channel as the request needs it, or None after telling the user why not.

        A seated player whose seat a computer stands in for, or who is on time away, is back by asking anything.
        """
        channel = interaction.channel_id  # (always one: see payload.channel_of; without one, no game is here)
        try:
            record = await self.service.games.current(channel) if channel is not None else None
        except GameQuarantined as exc:
            await say(interaction, notices.quarantined(self.w, exc.game_id))
            return None
        except GameNotPlayable as exc:
            await say(interaction, notices.not_playable(self.w, exc.game_id, exc.edition))
            return None
        if game_id is not None and (record is None or record.id != game_id):
            code = "game_gone"  # a button of a game that has ended
        elif record is None:
            code = "no_game"
        elif active and record.status != "active":
            code = "not_started"
        elif seated and str(interaction.user.id) not in record.table.players:
            code = "not_seated"
        else:
            self.presenter.look(record)
            return await self._welcome_back(record, str(interaction.user.id)) if seated else record
        await say(interaction, self.notice(Notice(code), record))
        return None

    async def _welcome_back(self, record: GameRecord, player: str) -> GameRecord:
        seat = record.table.seat(player)
        assert seat is not None, "welcomed back: a seated player"
        if not seat.stand_in and seat.away_until is None:  # any click of theirs ends a time away too
            return record
        outcome = await self.service.seats.reclaim(record.channel_id, player)
        if outcome.ok:
            await self.seats_changed(outcome)
            return record_of(outcome)
        return record

    def known_notes(self, player: str) -> list[str] | None:
        """`private_notes` if memory answers them (nothing to tell), else None (then ask `private_notes`)."""
        return [] if self.service.settings.no_dm_notice(player) else None

    async def private_notes(self, player: str) -> list[str]:
        """Things to tell a player once, at their next visit (a DM that could not be delivered)."""
        return [clock.dm_failed(self.w)] if await self.service.settings.take_dm_notice(player) else []
