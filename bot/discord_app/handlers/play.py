"""Playing: the private panel (with what happened since your last move), buttons, menus, typed decisions."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

import discord
from discord import app_commands

from engine import LegalOption, View
from storage import GameRecord

from ...service import Notice, codes
from ...service.automatic import read_ahead
from ...service.decisions import Chosen
from ...wording import People, Words, moves, notices, words
from ...wording import log as words_log
from .. import answers, typed
from ..live import private_panel
from ..payload import channel_of
from ..people import people
from .base import Front, guarded, reader, refused, say

log = logging.getLogger(__name__)
Suggestion = app_commands.Choice[str | int | float]  # an autocomplete suggestion (discord.py's choice values)
Chooser = Callable[[Words, list[LegalOption], View, People], Sequence[tuple[str, str]] | Sequence[tuple[str, int]]]


class PlayHandlers:
    def __init__(self, front: Front):
        self.front, self.service, self.presenter = front, front.service, front.presenter

    @guarded
    async def show_panel(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        record = await self.front.game_here(interaction, game_id=game_id, active=True, seated=True)
        if record is None:
            return
        player = str(interaction.user.id)
        # Memory usually answers both, with no turn of the loop: gathered as tasks they would each wait for
        # turns of a busy loop even then (under load tens of ms). What it cannot answer is read from the
        # database, both trips at once if both are needed (issue 44).
        known, kept = self.front.known_notes(player), self.service.games.kept_since_last_move(record, player)
        if known is None and kept is None:
            notes, moves = await asyncio.gather(self.front.private_notes(player),
                                                self.service.games.since_last_move(record, player))
        else:
            notes = known if known is not None else await self.front.private_notes(player)
            moves = kept if kept is not None else await self.service.games.since_last_move(record, player)
        content, view, embed = await private_panel(reader(), self.service, record, interaction.user.id,
                                                   "\n".join(notes), moves=moves)
        shown = await answers.send(interaction, content, view=view, embed=embed)
        self.presenter.live.remember(interaction, record, shown)  # it follows the game from now on

    @guarded(edits=True)
    async def act_click(self, interaction: discord.Interaction, game_id: int, key: str, code: str) -> None:
        try:
            action = codes.decode(code)
        except ValueError:
            await say(interaction, self.front.notice(Notice("not_ours")))
            return
        await self._act(interaction, game_id, key, action)

    @guarded(edits=True)
    async def act_select(self, interaction: discord.Interaction, game_id: int, key: str, kind: str,
                         values: list[str]) -> None:
        """A menu decides at once: a pick is one action; a lay-down or purchase names positions in the
        player's own hand or offer, read under the service's lock (a stale menu is refused there)."""
        try:
            if kind == "pick":
                action = codes.decode(values[0])
            else:
                action = codes.decode(codes.encode_positions(kind, [int(v) for v in values]))
        except (ValueError, IndexError):  # not what this menu could send: a forged or garbled choice
            record = await self.front.game_here(interaction, game_id=game_id, active=True, seated=True)
            if record is not None:
                note = notices.warning(reader(), self.front.notice(Notice("stale_choice"), record))
                content, view = self.front.panel(record, interaction.user.id, note)
                await answers.update(interaction, content, view=view)
            return
        await self._act(interaction, game_id, key, action)

    @guarded(edits=True)
    async def ahead(self, interaction: discord.Interaction, game_id: int, auction: str, code: str) -> None:
        """Deciding ahead (service/ahead.py): `code` names the choice ('p', 'c3', 'r4'); '' clears it. The
        panel it came from is redrawn with what is settled; nothing public changes."""
        ahead = read_ahead(code, auction) if code else None
        if code and ahead is None:
            await say(interaction, self.front.notice(Notice("not_ours")))
            return
        try:
            await answers.acknowledge(interaction)
        except discord.HTTPException:
            return  # Discord cannot be reached: nothing was set
        outcome = await self.service.ahead.settle(channel_of(interaction), game_id, interaction.user.id, auction,
                                                  ahead)
        record = outcome.record
        if record is None or record.state is None or str(interaction.user.id) not in record.table.players:
            await say(interaction, self.front.notice(refused(outcome), record))
            return
        if not outcome.ok:
            note = notices.warning(reader(), self.front.notice(refused(outcome), record))
        elif outcome.player is not None:  # the turn had come: made now
            mine = [e for e in outcome.events if e.to == str(interaction.user.id)]
            note = notices.done(reader(), words_log.lines(reader(), mine, people(reader(), record.table),
                                                        str(interaction.user.id), ed=record.state.edition))
        else:
            note = moves.ahead_done(reader(), None if ahead is None else moves.ahead_label(reader(), ahead.how,
                                                                                          ahead.cards))
        content, view = self.front.panel(record, interaction.user.id, note, outcome.undo) if record.open \
            else (note, None)
        self.presenter.live.remember(interaction, record, await answers.update(interaction, content, view=view))
        if outcome.ok and outcome.player is not None:
            await self.front.moved(outcome, interaction)

    async def suggest(self, interaction: discord.Interaction, current: str, pick: Chooser) -> list[Suggestion]:
        """Autocomplete from the typist's own legal actions only (only they see the suggestions)."""
        record = self.service.games.cached(channel_of(interaction))
        player = str(interaction.user.id)
        pairs: list[tuple[str, str | int]] = []
        if record is not None and record.status == "active" and player in record.table.players:
            decision = self.service.games.decision(record, player)
            if decision.options:
                w = words(interaction.locale)  # suggestions in the typist's language
                pairs = list(pick(w, list(decision.options), decision.view, people(w, record.table)))
        return await answers.suggest_matching(interaction, pairs, current)

    @guarded
    async def typed(self, interaction: discord.Interaction, code: str) -> None:
        """A decision typed as a slash command: the same action code and service call as its button."""
        record = await self.front.game_here(interaction, active=True, seated=True)
        if record is None:
            return
        try:
            action = codes.decode(code)
        except ValueError:
            await self._refuse_typed(interaction, record, Notice("unknown_choice"))
            return
        await self._act(interaction, record.id, None, action)

    @guarded
    async def typed_choice(self, interaction: discord.Interaction, command: str, text: str) -> None:
        """A typed command that picks one of its choices by what a person would type (typed.py): an
        ambiguous or unknown one is answered privately, changing nothing."""
        record = await self.front.game_here(interaction, active=True, seated=True)
        if record is None:
            return
        player = str(interaction.user.id)
        try:
            decision = self.service.games.decision(record, player)
            action = typed.read(reader(), command, text, list(decision.options), decision.view,
                                people(reader(), record.table))
        except ValueError:
            action = Notice("unknown_choice")
        if isinstance(action, Notice):
            await self._refuse_typed(interaction, record, action)
            return
        await self._act(interaction, record.id, None, action)

    async def _refuse_typed(self, interaction: discord.Interaction, record: GameRecord, notice: Notice) -> None:
        note = notices.warning(reader(), self.front.notice(notice, record))
        content, view = self.front.panel(record, interaction.user.id, note)
        await answers.send(interaction, content, view=view)

    async def _act(self, interaction: discord.Interaction, game_id: int, key: str | None, action: Chosen) -> None:
        """A decision: acknowledged before it is applied (if Discord cannot be reached, nothing is), then
        answered with the panel of what comes next."""
        try:
            await answers.acknowledge(interaction)
        except discord.HTTPException:
            log.warning("a decision in channel %s could not be acknowledged; it was not applied",
                        interaction.channel_id)
            return
        outcome = await self.service.decisions.act(channel_of(interaction), game_id, interaction.user.id, key, action)
        record = outcome.record
        player = str(interaction.user.id)
        if record is None or record.state is None or player not in record.table.players:
            await say(interaction, self.front.notice(refused(outcome), record))
            return
        if outcome.ok:
            mine = [e for e in outcome.events if e.to == player]
            note = notices.done(reader(), words_log.lines(reader(), mine, people(reader(), record.table), player,
                                                        ed=record.state.edition))
        else:
            note = notices.warning(reader(), self.front.notice(refused(outcome), record))
        if not record.open:
            content, view = f"{note}\n{notices.game_over_here(reader())}", None
        else:
            content, view = self.front.panel(record, interaction.user.id, note, outcome.undo)
        # A click redraws the panel it came from; a typed command answers with a fresh private panel.
        # Either then follows the game (live.py).
        if outcome.ok:
            try:
                # After one's own move nothing happened since it: the catch-up goes.
                shown = await answers.update(interaction, content, view=view, embed=None)
                self.presenter.live.remember(interaction, record, shown)
            except Exception:  # applied: never an apology, and its public side happens all the same
                log.exception("the answer to a move made in channel %s could not be sent", interaction.channel_id)
            await self.front.moved(outcome, interaction)
        else:
            self.presenter.live.remember(interaction, record, await answers.update(interaction, content, view=view))
