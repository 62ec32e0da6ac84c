"""The table: opening it, its seats and clock in the lobby, starting, and cancelling."""

from __future__ import annotations

import logging

import discord

from storage import GameRecord, Seat

from ...service import Notice, Outcome
from ...wording import end, names, notices
from ...wording.languages import language_of
from .. import answers, permissions, threads
from ..payload import channel_of
from ..people import NOBODY, mention
from ..widgets import CancelButton, table_view, view_of
from .base import Front, guarded, reader, record_of, refused, say

log = logging.getLogger(__name__)


class LobbyHandlers:
    def __init__(self, front: Front):
        self.front, self.service, self.presenter = front, front.service, front.presenter

    @guarded(public=True)
    async def new_table(self, interaction: discord.Interaction, thread: str | None = None,
                        min_reliability: int = 0) -> None:
        """`thread`: "yes" or "no" (a new thread of this channel for the table, or not; without it, as the
        server's setting says), "always" or "never" (the same, and from now on the server's setting)."""
        if interaction.guild_id is None:
            await say(interaction, self.front.notice(Notice("server_only")))
            return
        opens_thread = await self._opens_thread(interaction, interaction.guild_id, thread)
        if opens_thread is None:
            return
        lacking = permissions.flags(permissions.missing(interaction, opens_thread))
        if lacking:  # a table the bot could not keep going would strand its players
            w = reader()
            await say(interaction, notices.missing_permissions(w, [names.permission(w, f) for f in lacking]))
            return
        if thread in ("always", "never"):
            await self.service.settings.set_threads_default(interaction.guild_id, thread == "always")
        host = Seat(id=str(interaction.user.id), name=interaction.user.display_name)
        lang = language_of(interaction.guild_locale)  # the server's language, until the host picks one
        if opens_thread:
            await self._new_in_thread(interaction, interaction.guild_id, host, lang, min_reliability)
            return
        outcome = await self.service.lobby.open_table(interaction.guild_id, channel_of(interaction), host, lang=lang,
                                                parent_id=threads.parent_of(interaction),
                                                min_reliability=min_reliability)
        if not outcome.ok:
            if outcome.record is None or not await self._table_again(interaction, outcome.record):
                await say(interaction, self.front.notice(refused(outcome)))
            return
        record = record_of(outcome)
        embed, view, _ = await self.presenter.looks(record)  # a lobby: no picture yet
        message = await answers.post(interaction, embed=embed, view=view)
        await self.service.games.set_messages(record, table=message)

    async def _opens_thread(self, interaction: discord.Interaction, guild_id: int, thread: str | None) -> bool | None:
        """Whether the table opens in a new thread of this channel (None: refused, and the user told why)."""
        if thread in ("always", "never") and not (interaction.permissions and interaction.permissions.manage_guild):
            await say(interaction, self.front.notice_code("threads_default_not_allowed"))
            return None
        settings = self.service.settings
        asked = thread in ("yes", "always") if thread else await settings.threads_default(guild_id)
        if not asked or isinstance(interaction.channel, discord.Thread):
            return False  # used in a thread: the table opens in it
        if getattr(interaction.channel, "type", None) != discord.ChannelType.text:
            if thread is None:
                return False  # the server's setting, where no thread can open (a voice channel's chat)
            await say(interaction, self.front.notice_code("no_threads_here"))
            return None
        return True

    async def _new_in_thread(self, interaction: discord.Interaction, guild_id: int, host: Seat, lang: str,
                             min_reliability: int = 0) -> None:
        """The table in a new public thread of this channel; here, a line that links to it and pings nobody."""
        client, channel = self.presenter.client, channel_of(interaction)
        await self.presenter.pacing.turn(channel)
        thread_id = await threads.open_thread(client, channel, threads.thread_name(host.name))
        outcome = await self.service.lobby.open_table(guild_id, thread_id, host, lang=lang, parent_id=channel,
                                                      min_reliability=min_reliability)
        if not outcome.ok:
            await say(interaction, self.front.notice(refused(outcome), outcome.record))
            return
        record = record_of(outcome)
        await self.presenter.pacing.turn(thread_id)
        message = await threads.send_table(client, thread_id, lambda: self.presenter.looks(record))
        await self.service.games.set_messages(record, table=message.id)
        here = notices.table_in_thread(self.front.table_words(record), mention(host.id), thread_id)
        await answers.post(interaction, here,
                           allowed_mentions=NOBODY)

    @guarded(public=True)
    async def rematch(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        """The standings' Rematch button (or /augsburg rematch: the channel's last game): a table like the
        finished one, or, if one of its people opened that already, a seat at it."""
        if interaction.guild_id is None:
            await say(interaction, self.front.notice(Notice("server_only")))
            return
        if game_id is None:
            last = await self.service.games.last_game(channel_of(interaction))
            if last is None or last.status not in ("finished", "abandoned"):
                await say(interaction, self.front.notice(Notice("no_rematch"), last))
                return
            game_id = last.id
        lacking = permissions.flags(permissions.missing(interaction))
        if lacking:
            w = reader()
            await say(interaction, notices.missing_permissions(w, [names.permission(w, f) for f in lacking]))
            return
        person = Seat(id=str(interaction.user.id), name=interaction.user.display_name)
        outcome = await self.service.lobby.rematch(interaction.guild_id, channel_of(interaction), game_id, person,
                                             threads.parent_of(interaction))
        if not outcome.ok:
            await say(interaction, self.front.notice(refused(outcome), outcome.record))
            return
        record = record_of(outcome)
        if record.table.host != person.id:  # joined the rematch another player opened
            self.presenter.refresh(record)
            await say(interaction, self.front.notice_code("rematch_joined", record))
            return
        embed, view, _ = await self.presenter.looks(record)
        message = await answers.post(interaction, embed=embed, view=view)
        await self.service.games.set_messages(record, table=message)
        previous = await self.service.games.game(game_id)
        others = [p for p in previous.table.humans() if p != person.id]
        if others:
            w = self.front.table_words(record)
            await self.presenter.post(record.channel_id, end.rematch_invitation(w, mention(person.id),
                                                                                [mention(p) for p in others]),
                                      others)

    async def _table_again(self, interaction: discord.Interaction, record: GameRecord) -> bool:
        """The channel's table message was deleted: post it again as the answer (else nobody could join)."""
        if record.messages.table is not None and await self.presenter.table_exists(record):
            return False
        embed, view, files = await self.presenter.looks(record)
        message = await answers.post(interaction, embed=embed, view=view, files=files)
        await self.service.games.set_messages(record, table=message, drawn=record.version if record.state else None)
        return True

    @guarded(edits=True)
    async def lobby_click(self, interaction: discord.Interaction, game_id: int, what: str) -> None:
        user, channel = interaction.user, channel_of(interaction)
        if what == "join":
            outcome = await self.service.lobby.join(channel, game_id, Seat(id=str(user.id), name=user.display_name))
        elif what == "leave":
            outcome = await self.service.lobby.leave(channel, game_id, user.id)
        elif what == "ai":
            outcome = await self.service.lobby.add_computer(channel, game_id, user.id)
        elif what == "rmai":
            outcome = await self.service.lobby.remove_computer(channel, game_id, user.id)
        else:
            outcome = await self.service.lobby.start(channel, game_id, user.id)
        await self._lobby_changed(interaction, outcome)

    @guarded(edits=True)
    async def lobby_clock(self, interaction: discord.Interaction, game_id: int, values: list[str]) -> None:
        """The clock's menu: a time per decision, or the time away allowed ("away:7:play", "away:3:wait")."""
        channel, user = channel_of(interaction), interaction.user.id
        try:
            away = values[0].startswith("away:")
            _, days, how = values[0].split(":") if away else ("", "0", "")
            days_away, seconds = int(days), None if away else int(values[0]) or None
        except (ValueError, IndexError):
            await say(interaction, self.front.notice(Notice("not_ours")))
            return
        if away:
            outcome = await self.service.lobby.set_away_rule(channel, game_id, user, days_away, how == "wait")
        else:
            outcome = await self.service.lobby.set_turn_time(channel, game_id, user, seconds)
        await self._lobby_changed(interaction, outcome)

    @guarded(edits=True)
    async def lobby_language(self, interaction: discord.Interaction, game_id: int, values: list[str]) -> None:
        lang = values[0] if values else ""
        outcome = await self.service.lobby.set_language(channel_of(interaction), game_id, interaction.user.id, lang)
        await self._lobby_changed(interaction, outcome)

    @guarded(edits=True)
    async def lobby_edition(self, interaction: discord.Interaction, game_id: int, values: list[str]) -> None:
        edition = values[0] if values else ""
        outcome = await self.service.lobby.set_edition(channel_of(interaction), game_id, interaction.user.id, edition)
        await self._lobby_changed(interaction, outcome)

    @guarded(edits=True)
    async def lobby_level(self, interaction: discord.Interaction, game_id: int, values: list[str]) -> None:
        player, _, level = (values[0] if values else "").partition(":")
        outcome = await self.service.lobby.set_computer_level(channel_of(interaction), game_id, interaction.user.id,
                                                        player, level)
        await self._lobby_changed(interaction, outcome)

    async def _lobby_changed(self, interaction: discord.Interaction, outcome: Outcome) -> None:
        if not outcome.ok:
            await say(interaction, self.front.notice(refused(outcome), outcome.record))
            return
        record = record_of(outcome)
        if record.status == "lobby":
            embed, view, _ = await self.presenter.looks(record)
            await answers.update(interaction, embed=embed, view=view)
            return
        # Started: the lobby message becomes the table; then who must act is pinged.
        try:
            embed = await self.presenter.embed(record)
            # The picture if it is drawn at once; when many tables start together, the drawer adds it later.
            picture = await self.presenter.pictures.table_soon(self.front.table_words(record), record)
            files = [] if picture is None else [picture.file()]
            view = table_view(self.front.table_words(record), record.id)
            await answers.update(interaction, embed=picture.show_in(embed) if picture else embed, view=view,
                                 attachments=files)
            if picture is not None or not self.presenter.pictures.enabled:
                _, record = await self.service.games.set_messages(record, drawn=record.version)
        except Exception:  # started all the same: the table is drawn with the announcement
            log.exception("the table of game %s could not be shown at its start", record.id)
        await self.front.moved(Outcome(True, record=record, events=outcome.events), interaction)

    @guarded
    async def cancel_request(self, interaction: discord.Interaction) -> None:
        record = await self.front.game_here(interaction)
        if record is None:
            return
        manage = bool(interaction.permissions and interaction.permissions.manage_channels)
        if record.table.host != str(interaction.user.id) and not manage:  # say so now, not after a click
            await say(interaction, self.front.notice_code("cancel_not_allowed", record))
            return
        button = CancelButton(record.id, notices.cancel_button(reader()))
        await say(interaction, notices.cancel_question(reader()), view_of(button))

    @guarded(edits=True)
    async def cancel_confirmed(self, interaction: discord.Interaction, game_id: int) -> None:
        if await self.front.game_here(interaction, game_id=game_id) is None:
            return
        manage = bool(interaction.permissions and interaction.permissions.manage_channels)
        outcome = await self.service.lobby.cancel(channel_of(interaction), interaction.user.id, manage)
        if not outcome.ok:
            await say(interaction, self.front.notice(refused(outcome), outcome.record))
            return
        try:
            await answers.update(interaction, notices.cancelled(reader()), view=None)
        finally:
            await self.presenter.ended(record_of(outcome), by=interaction.user)


