"""What each slash command, button and menu does.

Every handler answers its interaction exactly once: after the service's commit,
with a polite ephemeral message on any refusal, and never lets an exception
reach Discord (`guarded`). `game_here` is the one check of "the game in this
channel" that every handler goes through.
"""

from __future__ import annotations

import functools
import logging

import discord

from engine import legal_actions, player_view, spectator_view
from storage import GameQuarantined, GameRecord, Seat

from .. import codes
from ..service import GameService, Notice, Outcome
from ..wording import ENGLISH, People, moves, notices, rules
from ..wording import log as words_log
from .computers import ComputerRunner
from .embeds import lobby_embed, table_embed
from .panels import panel
from .people import people
from .presenter import Presenter
from .widgets import CancelButton, lobby_view, table_view, view_of

log = logging.getLogger(__name__)
MISSING = discord.utils.MISSING
UNNAMED = People(name=str)  # for notices about a game that is not there


def guarded(func):
    """Log any error with its channel; the player gets a short apology, never a traceback."""

    @functools.wraps(func)
    async def wrapper(self, interaction: discord.Interaction, *args):
        try:
            return await func(self, interaction, *args)
        except Exception:
            log.exception("error in %s (channel %s, args %s)", func.__name__, interaction.channel_id, args)
            await say(interaction, notices.sorry(ENGLISH))

    return wrapper


async def say(interaction: discord.Interaction, text: str, view: discord.ui.View = MISSING) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, view=view, ephemeral=True)
    else:
        await interaction.response.send_message(text, view=view, ephemeral=True)


class Handlers:
    def __init__(self, service: GameService, presenter: Presenter, computers: ComputerRunner):
        self.service = service
        self.presenter = presenter
        self.computers = computers
        self.w = ENGLISH  # the reader's language

    def notice(self, notice: Notice, record: GameRecord | None = None) -> str:
        who = people(self.w, record.table) if record is not None else UNNAMED
        return notices.notice(self.w, notice.code, notice.params, who)

    async def moved(self, outcome: Outcome, table_drawn: bool = False) -> None:
        """The public side of a move, once its player has their answer: table, pings, computers."""
        if table_drawn:
            await self.presenter.ping(outcome.record, outcome.previous_to_act, outcome.events)
        else:
            await self.presenter.show_move(outcome)
        self.computers.schedule(outcome.record.channel_id)

    async def game_here(self, interaction: discord.Interaction, *, game_id: int | None = None,
                        active: bool = False, seated: bool = False) -> GameRecord | None:
        """The game in this channel as the request needs it, or None after telling the user why not."""
        try:
            record = await self.service.current(interaction.channel_id)
        except GameQuarantined as exc:
            await say(interaction, notices.quarantined(self.w, exc.game_id))
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
            return record
        await say(interaction, self.notice(Notice(code), record))
        return None

    # --- the table

    @guarded
    async def new_table(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            await say(interaction, self.notice(Notice("server_only")))
            return
        host = Seat(id=str(interaction.user.id), name=interaction.user.display_name)
        outcome = await self.service.open_table(interaction.guild_id, interaction.channel_id, host)
        if not outcome.ok:
            await say(interaction, self.notice(outcome.notice))
            return
        record = outcome.record
        await interaction.response.send_message(embed=lobby_embed(self.w, record), view=lobby_view(self.w, record.id))
        message = await interaction.original_response()
        await self.service.set_messages(record, table=message.id)

    @guarded
    async def lobby_click(self, interaction: discord.Interaction, game_id: int, what: str) -> None:
        user, channel = interaction.user, interaction.channel_id
        if what == "join":
            outcome = await self.service.join(channel, game_id, Seat(id=str(user.id), name=user.display_name))
        elif what == "leave":
            outcome = await self.service.leave(channel, game_id, user.id)
        elif what == "ai":
            outcome = await self.service.add_computer(channel, game_id, user.id)
        else:
            outcome = await self.service.start(channel, game_id, user.id)
        if not outcome.ok:
            await say(interaction, self.notice(outcome.notice, outcome.record))
            return
        record = outcome.record
        if record.status == "lobby":
            await interaction.response.edit_message(embed=lobby_embed(self.w, record),
                                                    view=lobby_view(self.w, record.id))
            return
        # Started: the lobby message becomes the table, with the opening events in its log.
        record = self.service.cached(channel) or record
        await interaction.response.edit_message(embed=table_embed(self.w, record, spectator_view(record.state)),
                                                view=table_view(self.w, record.id))
        await self.moved(Outcome(True, record=record, events=outcome.events), table_drawn=True)

    @guarded
    async def cancel_request(self, interaction: discord.Interaction) -> None:
        record = await self.game_here(interaction)
        if record is not None:
            button = CancelButton(record.id, notices.cancel_button(self.w))
            await say(interaction, notices.cancel_question(self.w), view_of(button))

    @guarded
    async def cancel_confirmed(self, interaction: discord.Interaction, game_id: int) -> None:
        if await self.game_here(interaction, game_id=game_id) is None:
            return
        manage = bool(interaction.permissions and interaction.permissions.manage_channels)
        outcome = await self.service.cancel(interaction.channel_id, interaction.user.id, manage)
        if not outcome.ok:
            await say(interaction, self.notice(outcome.notice, outcome.record))
            return
        await interaction.response.edit_message(content=notices.cancelled(self.w), view=None)
        await self.presenter.cancelled(outcome.record, interaction.user)

    # --- information

    @guarded
    async def show_status(self, interaction: discord.Interaction) -> None:
        record = await self.game_here(interaction)
        if record is not None:
            embed = (lobby_embed(self.w, record) if record.status == "lobby"
                     else table_embed(self.w, record, spectator_view(record.state)))
            await interaction.response.send_message(embed=embed, ephemeral=True)

    @guarded
    async def show_rules(self, interaction: discord.Interaction, topic: str | None) -> None:
        topics = [topic] if topic else rules.TOPICS
        body = "\n\n".join(f"**{rules.topic_title(self.w, t)}**\n{rules.topic(self.w, t)}" for t in topics)
        await say(interaction, body[:2000])

    @guarded
    async def show_help(self, interaction: discord.Interaction) -> None:
        general = rules.commands(self.w)
        try:
            record = await self.service.current(interaction.channel_id)
        except GameQuarantined:
            record = None
        player = str(interaction.user.id)
        if record is None or record.status != "active" or player not in record.table.players:
            await say(interaction, general)
            return
        options = legal_actions(record.state, player)
        view = player_view(record.state, player)
        lines = moves.commands(self.w, options, view) if options else [notices.nothing_to_do(self.w)]
        await say(interaction, "\n".join([notices.what_you_can_do(self.w), *lines, "", general]))

    # --- playing

    @guarded
    async def show_panel(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        record = await self.game_here(interaction, game_id=game_id, active=True, seated=True)
        if record is not None:
            content, view = panel(self.w, record, interaction.user.id)
            await interaction.response.send_message(content, view=view, ephemeral=True)

    @guarded
    async def act_click(self, interaction: discord.Interaction, game_id: int, key: str, code: str) -> None:
        try:
            action = codes.decode(code)
        except ValueError:
            await say(interaction, self.notice(Notice("not_ours")))
            return
        await self._act(interaction, game_id, key, action)

    @guarded
    async def act_select(self, interaction: discord.Interaction, game_id: int, key: str, kind: str,
                         values: list[str]) -> None:
        if kind == "pick":
            try:
                action = codes.decode(values[0])
            except (ValueError, IndexError):
                await say(interaction, self.notice(Notice("not_ours")))
                return
            await self._act(interaction, game_id, key, action)
            return
        # Reveal and purchase: show the selection (with the running total) and a confirm button.
        record = await self.game_here(interaction, game_id=game_id, active=True, seated=True)
        if record is None:
            return
        try:
            chosen = [int(v) for v in values]
        except ValueError:
            await say(interaction, self.notice(Notice("not_ours")))
            return
        content, view = panel(self.w, record, interaction.user.id, selection=(kind, chosen))
        await interaction.response.edit_message(content=content, view=view)

    @guarded
    async def typed(self, interaction: discord.Interaction, code: str) -> None:
        """A decision typed as a slash command: the same action code and service call as its button."""
        record = await self.game_here(interaction, active=True, seated=True)
        if record is None:
            return
        try:
            action = codes.decode(code)
        except ValueError:
            note = notices.warning(self.w, self.notice(Notice("unknown_choice")))
            content, view = panel(self.w, record, interaction.user.id, note)
            await interaction.response.send_message(content, view=view, ephemeral=True)
            return
        await self._act(interaction, record.id, None, action)

    async def _act(self, interaction: discord.Interaction, game_id: int, key: str | None, action) -> None:
        outcome = await self.service.act(interaction.channel_id, game_id, interaction.user.id, key, action)
        record = outcome.record
        player = str(interaction.user.id)
        if record is None or record.state is None or player not in record.table.players:
            await say(interaction, self.notice(outcome.notice, record))
            return
        if outcome.ok:
            note = notices.done(self.w, words_log.lines(self.w, [e for e in outcome.events if e.to == player],
                                                        people(self.w, record.table), player))
        else:
            note = notices.warning(self.w, self.notice(outcome.notice, record))
        if record.status == "finished":
            content, view = f"{note}\n{notices.game_over_here(self.w)}", None
        else:
            content, view = panel(self.w, record, interaction.user.id, note)
        # A click redraws the panel it came from; a typed command answers with a fresh private panel.
        if interaction.type == discord.InteractionType.application_command:
            await interaction.response.send_message(content, view=view or MISSING, ephemeral=True)
        else:
            await interaction.response.edit_message(content=content, view=view)
        if outcome.ok:
            await self.moved(outcome)

