"""The public side of a table: the table message, "your move" pings and reminders, the final standings.

Table edits are coalesced per channel (a burst of moves becomes one edit, for
Discord's rate limits). A ping notifies exactly the players who newly must act,
as each asked (`/augsburg notify`): a mention in the channel, a direct message
as well, or nothing. A ping stays until everyone it named has acted; then its
button is removed, so no live button is left behind, and it stays in their
Mentions inbox.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import defaultdict

import discord

from engine import spectator_view, to_act
from storage import Deadline, GameQuarantined, GameRecord, Ping

from ..service import GameService, Outcome
from ..wording import ENGLISH, clock, end, notices, phases
from ..wording.history import move_lines
from .embeds import lobby_embed, standings_embed, table_embed
from .people import NOBODY, mention, notify, people
from .tasks import ChannelTasks
from .widgets import lobby_view, table_view

log = logging.getLogger(__name__)
LOG_LINES = 8  # lines of the log on the table
LOG_MOVES = 16  # moves read back for them


class Presenter:
    def __init__(self, client: discord.Client, service: GameService, table_delay: float = 1.0):
        self.client = client
        self.service = service
        self.store = service.store
        self.table_delay = table_delay
        self.w = ENGLISH  # the table's language
        self._redraws = ChannelTasks()
        self._notifying: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def close(self) -> None:
        await self._redraws.close()

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    # --- the table

    async def show_move(self, outcome: Outcome) -> None:
        """After a move: redraw the table (at once when the game has ended), then tell who is due."""
        record = outcome.record
        if not record.open:
            await self.draw_table(record)
        else:
            self.refresh(record.channel_id)
        await self.notify(record, outcome.previous_to_act, outcome.events)

    def refresh(self, channel_id: int) -> None:
        """Redraw the table soon; a burst of moves becomes one edit."""
        self._redraws.start(channel_id, lambda: self._redraw_later(channel_id))

    async def _redraw_later(self, channel_id: int) -> None:
        await asyncio.sleep(self.table_delay)
        self._redraws.release(channel_id)  # a move from now on is drawn by a redraw of its own
        record = self.service.cached(channel_id)
        try:
            if record is not None:
                await self.draw_table(record)
        except Exception:
            log.exception("could not redraw the table in channel %s", channel_id)

    async def embed(self, record: GameRecord) -> discord.Embed:
        """The table as everybody may see it: the lobby, the game with its latest log lines, or its end."""
        if record.state is None:
            return lobby_embed(self.w, record)
        moves = await self.store.moves_since(record.id, record.state.moves - LOG_MOVES)
        who = people(self.w, record.table)
        latest = [line for m in moves for line in move_lines(self.w, m, who, None)][-LOG_LINES:]
        due = {d.player: d.due_at for d in await self.store.deadlines_of(record.id) if d.kind == "timeout"}
        return table_embed(self.w, record, spectator_view(record.state), latest, due)

    async def draw_table(self, record: GameRecord) -> GameRecord:
        """Edit the table message (buttons only while the table is open); post it again if it was deleted."""
        embed = await self.embed(record)
        if record.status == "lobby":
            view = lobby_view(self.w, record.id, record.table.turn_seconds)
        else:
            view = table_view(self.w, record.id) if record.status == "active" else None
        channel = self.channel(record.channel_id)
        if record.messages.table:
            try:
                await channel.get_partial_message(record.messages.table).edit(embed=embed, view=view)
                return record
            except discord.NotFound:
                pass
        message = await channel.send(embed=embed, view=view, allowed_mentions=NOBODY)
        _, record = await self.service.set_messages(record, table=message.id)
        return record

    # --- telling who must act

    async def notify(self, record: GameRecord, before: list[str], events=()) -> None:
        """Clean up answered pings and ping whoever newly must act; at the end, post the standings.

        One channel at a time, so two moves in quick succession never lose track of a ping.
        """
        lock = self._notifying.get(record.channel_id)
        if lock is None:
            lock = self._notifying[record.channel_id] = asyncio.Lock()
        async with lock:
            latest = self.service.cached(record.channel_id)
            if latest is not None and latest.id == record.id:
                record = latest
            due = [] if not record.open else [p for p in to_act(record.state) if not record.table.computer_plays(p)]
            pings = await self._clear_answered(record, due)
            over = next((e for e in events if e.type == "game_over"), None)
            if over is not None:
                await self._standings(record, over)
            fresh = [p for p in due if p not in before and not any(p in ping.waiting for ping in pings)]
            if fresh:
                ping = await self._ping(record, fresh)
                pings = [*pings, ping] if ping is not None else pings
            if pings != list(record.messages.pings):
                await self.service.set_messages(record, pings=tuple(pings))

    async def _clear_answered(self, record: GameRecord, due: list[str]) -> list[Ping]:
        """Keep the pings someone still waits on; take the button off the others."""
        kept = []
        for ping in record.messages.pings:
            waiting = tuple(p for p in ping.waiting if p in due)
            if waiting:
                kept.append(Ping(message=ping.message, waiting=waiting))
                continue
            try:
                await self.channel(record.channel_id).get_partial_message(ping.message).edit(view=None)
            except discord.HTTPException:
                pass  # deleted by someone: nothing left to clean
        return kept

    async def _ping(self, record: GameRecord, fresh: list[str]) -> Ping | None:
        how = {p: await self.service.notify_setting(p) for p in fresh}
        mentioned = [p for p in fresh if how[p] != "none"]
        if not mentioned:
            return None
        status = phases.status(self.w, spectator_view(record.state), people(self.w, record.table).plain())
        text = notices.your_move(self.w, " ".join(mention(p) for p in mentioned), status)
        message = await self.channel(record.channel_id).send(
            text[:2000], view=table_view(self.w, record.id), allowed_mentions=notify(mentioned)
        )
        for player in (p for p in mentioned if how[p] == "dm"):
            await self._direct(player, clock.dm_your_move(self.w, status, message.jump_url))
        return Ping(message=message.id, waiting=tuple(mentioned))

    async def _direct(self, player: str, text: str, nonce: str | None = None) -> None:
        """A direct message; if the player's DMs are closed, they are told so once, at their next visit."""
        try:
            user = self.client.get_user(int(player)) or await self.client.fetch_user(int(player))
            await user.send(text[:2000], allowed_mentions=NOBODY, **({"nonce": nonce} if nonce else {}))
        except discord.Forbidden:
            await self.service.note_dm_failed(player)
        except discord.HTTPException:
            log.warning("could not send a direct message to %s", player)

    async def remind(self, deadline: Deadline, record: GameRecord) -> None:
        """Time is running out for a player who has not decided yet."""
        how = await self.service.notify_setting(deadline.player)
        if how == "none":
            return
        # The nonce makes Discord refuse a second copy should a restart repeat this reminder.
        nonce = f"r{deadline.game_id}.{int(deadline.due_at)}"[-25:]
        timeout = deadline.payload.get("timeout", deadline.due_at)
        text = clock.reminder(self.w, mention(deadline.player), timeout)
        await self.channel(record.channel_id).send(text, allowed_mentions=notify([deadline.player]), nonce=nonce)
        if how == "dm":
            link = f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/{record.messages.table}"
            await self._direct(deadline.player, clock.dm_reminder(self.w, timeout, link), nonce)

    async def _standings(self, record: GameRecord, over) -> None:
        prestige: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for move in await self.store.moves_since(record.id, -1):
            for e in move.entries:
                if e.type == "prestige_gained":
                    prestige[e.player][e.reason] += e.amount
        humans = [p for p in over.winners if not record.table.is_computer(p)]
        embed = standings_embed(self.w, record, spectator_view(record.state), over, prestige)
        text = end.standings(self.w, over, people(self.w, record.table))
        await self.channel(record.channel_id).send(text[:2000], embed=embed, allowed_mentions=notify(humans))

    # --- announcements

    async def ended(self, record: GameRecord, by: discord.abc.User | None = None) -> None:
        """A cancelled or abandoned game: say so, draw the table without buttons, clean up the pings."""
        if by is not None:
            await self.channel(record.channel_id).send(notices.cancelled_by(self.w, by.mention),
                                                       allowed_mentions=NOBODY)
        await self.draw_table(record)
        await self.notify(record, [])

    async def explain_quarantined(self, lost: GameQuarantined) -> None:
        await self.channel(lost.channel_id).send(notices.quarantined(self.w, lost.game_id), allowed_mentions=NOBODY)

