"""The public side of a table: the table message, "your move" pings and reminders, the final standings.

Within Discord's limits by design: the table is drawn by its one owner (drawer.py),
and posts go out as public follow-ups of the latest player interaction in the
channel while its token lives (Discord does not count those against the bot's
global limit), else as paced channel messages. A ping notifies exactly the
players who newly must act, as each asked (`/augsburg seat notify`): a mention, a
direct message as well, or nothing. Pings carry no buttons (nothing live is left
behind), and are deleted once their decision is made (ping_messages.py). A player who
is watching (their panel follows the game and they used it within `watch`
seconds) sees their decision there: their ping is put off by `watch` seconds and
goes out only if they have not decided by then (service/pings.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from engine import spectator_view
from storage import Deadline, GameRecord

from ..picture.story import Stories
from ..service import GameService, Outcome
from ..wording import ENGLISH, Words, clock, end, notices, phases, words
from ..wording.history import move_lines
from . import threads
from .drawer import TableDrawer
from .embeds import lobby_embed, standings_embed, table_embed
from .live import LivePanels
from .pacing import Pacing
from .payload import channel_of
from .people import NOBODY, extras, mention, notify, people
from .pictures import Pictures
from .ping_messages import PingMessages
from .quiet import to_ping_now
from .tokens import followup
from .told import Told
from .widgets import RematchButton, lobby_view, table_view, view_of

log = logging.getLogger(__name__)
LOG_LINES = 8  # lines of the log on the table
LOG_MOVES = 16  # moves read back for them
TOKEN_LIFE = 14 * 60.0  # an interaction's token lives 15 minutes; a follow-up needs it alive
WATCH_SECONDS = 300.0  # how recently a player must have used their panel to be watching it


def _words(record: GameRecord) -> Words:
    """The table's language: its public messages are in it (each player's own messages: in theirs)."""
    return words(record.table.lang)


class Presenter:
    def __init__(self, client: discord.Client, service: GameService, table_delay: float = 1.0,
                 pacing: Pacing | None = None, pictures: Pictures | None = None, watch: float = WATCH_SECONDS):
        self.client = client
        self.service = service
        self.pacing = pacing or Pacing()
        self.delay = table_delay  # a burst of moves within it: one table edit, one ping
        self.pings = PingMessages(client, service, self.pacing)  # each kept until its decision is made
        self.drawer = TableDrawer(client, service, self.pacing, self.looks, table_delay, ping=self._ping,
                                  standings=self._standings, sweep=self.pings.sweep, slot=lambda: self.pictures.slot(),
                                  gone=lambda r: self.service.seats.channel_gone(r.channel_id, r.id))
        self._followups: dict[int, tuple[str, float]] = {}  # per channel: the latest token, until when it lives
        self.told = Told()  # whom a ping told of which decision: never twice
        self.live = LivePanels(client, service, self._lost)  # players' private panels that follow the game
        self.watch = watch
        self.pictures = pictures or Pictures()  # the table as a picture, on the table message
        self.stories = Stories()  # each open game's, as far as it was told (only the moves since are read)
        self.pictures.story = lambda record: self.stories.tell(record, self.service.games.history)

    async def close(self) -> None:
        await self.drawer.close()
        await self.live.close()
        self.pictures.close()

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    def remember(self, interaction: discord.Interaction) -> None:
        """The latest player interaction in a channel: its token can post there for 15 minutes."""
        expires = interaction.created_at.timestamp() + TOKEN_LIFE
        self._followups[channel_of(interaction)] = (interaction.token, expires)

    async def post(self, channel_id: int, content: str, users: Sequence[str] = (),
                   embed: discord.Embed = discord.utils.MISSING, nonce: str | None = None, must: bool = False,
                   view: discord.ui.View | None = None) -> discord.Message | None:
        """A public message naming (and notifying) exactly `users`, within the channel's pace: a follow-up
        if a token lives (free of the global limit), else a channel message. With a `nonce`, always a
        channel message: Discord then keeps a repeat (after a restart) from appearing twice. A channel that
        refuses the bot's posts is logged and skipped, unless the post `must` be made (then it raises)."""
        mentions, buttons = notify(list(users)) if users else NOBODY, view or discord.utils.MISSING
        await self.pacing.turn(channel_id, counted=False)
        token, expires = self._followups.get(channel_id, (None, 0.0))
        if nonce is None and token is not None and discord.utils.utcnow().timestamp() < expires:
            try:
                hook = followup(self.client, token)
                return self.pings.through_token(await hook.send(content, embed=embed, allowed_mentions=mentions,
                                                                wait=True, view=buttons), token, expires)
            except discord.HTTPException:
                self._followups.pop(channel_id, None)  # expired or gone: the channel it is
        await self.pacing.global_turn()
        try:
            return await threads.unarchiving(self.client, channel_id, lambda: self.channel(channel_id).send(
                content, embed=embed, allowed_mentions=mentions, **extras(view, nonce)))
        except discord.Forbidden as refused:  # the channel's settings, not the game: what was done stands
            if must:
                raise  # tried again later
            log.warning("may not post in channel %s: %s", channel_id, refused.text)
            return None

    # --- the table

    async def show_move(self, outcome: Outcome) -> None:
        """After a move: soon a ping for whoever newly must act, the table, and the standings at the end."""
        self.changed(outcome)

    def changed(self, outcome: Outcome) -> None:
        """The game changed: announce it. Who had to act before (`outcome.previous_to_act`) was told already;
        but the mover, due again, is told of their next decision as anyone newly due is."""
        record = outcome.record
        assert record is not None
        due = set(outcome.due.people) - (set(outcome.previous_to_act) - {outcome.player})
        self.drawer.want(record, due)
        self.live.follow(record)

    def refresh(self, record: GameRecord) -> None:
        self.drawer.want(record)
        self.live.follow(record)

    def recover(self, record: GameRecord) -> None:
        """A change that was never announced (Discord failed, or a restart came first): announce it now,
        pinging everyone due; unless a round is under way (a slow one, under heavy load), which will."""
        if not self.drawer.busy(record.id):
            self.drawer.want(record, again=True)

    def backlog(self, game_id: int) -> float:
        """Seconds, at most, until a round under way for this game keeps its promise: the drawings waiting for
        their turn at the pictures' pace (0: no round under way)."""
        return self.drawer.waiting(game_id) * self.pictures.pace

    def look(self, record: GameRecord) -> None:
        """Someone looks at the game: a table left stale (a restart between a move and its drawing) is redrawn."""
        if self.drawer.stale(record):
            self.drawer.want(record)

    async def table_exists(self, record: GameRecord) -> bool:
        """Whether the table message is still there (someone may have deleted it); asked only when needed,
        by drawing it (reading it back would need the permission to read the channel's history)."""
        if record.messages.table is None:
            return False  # (asked only once it has one)
        await self.pacing.turn(record.channel_id)
        try:
            await threads.edit_table(self.client, record.channel_id, record.messages.table, lambda: self.looks(record))
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True  # cannot tell (no access to its history, Discord busy): post no second table
        return True

    async def ensure_table(self, record: GameRecord) -> None:
        """Someone looks at an open game: post its table again if it was deleted (nobody could join or
        open their hand from it otherwise)."""
        if not record.open:
            return
        try:
            if record.messages.table is not None and await self.table_exists(record):
                return
            await self.pacing.turn(record.channel_id)
            message = await threads.send_table(self.client, record.channel_id, lambda: self.looks(record))
            await self.service.games.set_messages(record, table=message.id,
                                            drawn=record.version if record.state is not None else None)
        except discord.HTTPException as exc:
            log.warning("could not post the table of game %s again (%s %s)", record.id, exc.status, exc.text)

    async def looks(self, record: GameRecord, slotted: bool = False) \
            -> tuple[discord.Embed, discord.ui.View | None, list[discord.File]]:
        """The table message: its embed, its buttons and its picture (none in the lobby). The files replace
        the message's attachments when it is edited, so pictures never pile up. `slotted`: see Pictures.slot."""
        embed = await self.embed(record)
        if record.status == "lobby":
            return embed, lobby_view(_words(record), record.id, record.table, self.service.editions.editions()), []
        picture = await self.pictures.table(_words(record), record, slotted=slotted)
        files = [] if picture is None else [picture.file()]
        if picture is not None:
            picture.show_in(embed)
        return embed, table_view(_words(record), record.id) if record.status == "active" else None, files

    async def embed(self, record: GameRecord) -> discord.Embed:
        """The table as everybody may see it: the lobby, the game with its latest log lines, or its end."""
        if record.state is None:
            return lobby_embed(_words(record), record)
        moves = await self.service.games.history(record, record.state.moves - LOG_MOVES)
        w = _words(record)
        who = people(w, record.table)
        ed = record.state.edition
        latest = [line for m in moves for line in move_lines(w, m, who, None, ed=ed)][-LOG_LINES:]
        due, back = await self.service.games.clock(record)
        return table_embed(w, record, spectator_view(record.state), latest, due, back)

    # --- telling who must act

    async def _ping(self, record: GameRecord, due: set[str]) -> None:
        """One ping for whoever became due in a burst of moves and is not watching; a ping put off for those
        watching (they see their decision on their panel), owed if they have not decided in `watch` seconds."""
        due = self.told.not_yet(record, due)
        due = await to_ping_now(self, record, due)  # outside their hours: later; with a daily word: not at all
        watching = {p for p in due if self.live.watching(record.id, p, self.watch)}
        if watching:
            await self.service.pings.put_off(record, watching, self.service.clock.now() + self.watch)
        if due - watching:
            await self.ping_now(record, due - watching)

    def _lost(self, record: GameRecord, player: str) -> None:
        """A due player's panel could not be redrawn: they are no longer watching, so their ping goes now."""
        self.drawer.want(record, {player})

    async def ping_now(self, record: GameRecord, due: set[str]) -> None:
        """Ping these players now, as each asked to be told; then any ping put off for them is owed no more."""
        await self._send_ping(record, sorted(due, key=record.table.players.index))
        await self.service.pings.pinged(record, due)
        self.told.pinged(record, due)

    async def _send_ping(self, record: GameRecord, due: list[str]) -> None:
        how = {p: await self.service.settings.notify(p) for p in due}
        mentioned = [p for p in due if how[p] != "none"]
        if not mentioned:
            return
        w, state = _words(record), record.state
        assert state is not None, "pinged: a started game"
        status = phases.status(w, spectator_view(state), people(w, record.table).plain())
        link = self.table_link(record)
        text = notices.your_move(w, [mention(p) for p in mentioned], status) + f"\n{link}"
        await self.pings.posted(record, await self.post(record.channel_id, text[:2000], mentioned), mentioned)
        for player in (p for p in mentioned if how[p] == "dm"):  # a DM: in its reader's language
            mine = await self.reader(player)
            mine_status = phases.status(mine, spectator_view(state), people(mine, record.table).plain())
            await self.direct(player, clock.dm_your_move(mine, mine_status, link))

    async def reader(self, player: str) -> Words:
        """A player's language for their direct messages: their client's when they last chose how to be told."""
        return words((await self.service.settings.of(player)).get("lang", "en"))

    def table_link(self, record: GameRecord) -> str:
        return f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/{record.messages.table}"

    async def direct(self, player: str, text: str, nonce: str | None = None) -> None:
        """A direct message; if the player's DMs are closed, they are told so once, at their next visit."""
        try:
            user = self.client.get_user(int(player)) or await self.client.fetch_user(int(player))
            await user.send(text[:2000], allowed_mentions=NOBODY, **extras(nonce=nonce))
        except discord.Forbidden:
            await self.service.settings.note_dm_failed(player)
        except discord.HTTPException:
            log.warning("could not send a direct message to %s", player)

    async def remind(self, deadline: Deadline, record: GameRecord) -> None:
        """Time is running out for a player who has not decided yet."""
        how = await self.service.settings.notify(deadline.player)
        if how == "none":
            return
        timeout = deadline.payload.get("timeout", deadline.due_at)
        said = clock.reminder(_words(record), mention(deadline.player), timeout)
        await self.pings.posted(record, await self.post(record.channel_id, said, [deadline.player]), [deadline.player])
        if how == "dm":
            # The nonce makes Discord refuse a second copy should a restart repeat this reminder.
            nonce = f"r{deadline.game_id}.{int(deadline.due_at)}"[-25:]
            mine = await self.reader(deadline.player)
            await self.direct(deadline.player, clock.dm_reminder(mine, timeout, self.table_link(record)), nonce)

    async def _standings(self, record: GameRecord) -> int | None:
        """Post a finished game's standings; their message id. The nonce names the game, so Discord shows
        them once even if a restart repeats the post."""
        over, prestige = await self.service.games.final_tally(record)
        if over is None:
            return None
        humans = [p for p in over.winners if not record.table.is_computer(p)]
        w = _words(record)
        embed = standings_embed(w, record, over, prestige, await self.service.ratings.changes(record.id))
        again = view_of(RematchButton(record.id, end.rematch_button(w))) if record.table.humans() else None
        message = await self.post(record.channel_id, end.standings(w, over, people(w, record.table))[:2000],
                                  humans, embed, nonce=f"augsburg-end-{record.id}"[-25:], must=True, view=again)
        assert message is not None, "a post that must be made raises rather than give None"
        return message.id

    # --- announcements

    async def ended(self, record: GameRecord, by: discord.abc.User | None = None) -> None:
        """A cancelled or abandoned game: say who cancelled it; the table then shows how it ended."""
        if by is not None:
            await self.post(record.channel_id, notices.cancelled_by(_words(record), by.mention))
        self.refresh(record)

    async def explain_quarantined(self, channel_id: int, game_id: int) -> None:
        await self.post(channel_id, notices.quarantined(ENGLISH, game_id))  # its language cannot be read
