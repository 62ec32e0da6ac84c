"""The game service: every table change and every decision, from any front-end, goes through here.

check who acts -> take the channel's lock -> load -> engine apply -> storage
commit -> answer. Free of Discord and of wording: refusals are `Notice` codes
that each front-end words in its reader's language. Used by the Discord bot
and the terminal game alike. One mixin per concern: lobby.py (seats before
the game), moves.py (decisions, computers, the clock), seats.py (leaving,
stand-ins, coming back), ahead.py (auction decisions settled ahead), away.py (time away), pings.py (pings put off),
undo.py (taking a decision back).

The service is the front-ends' one door into storage: they open it with
`GameService.open(url)`, read and change games through it, and are handed
only what the storage contract types (records, the records' queries).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from dataclasses import replace

from engine.editions import Library
from storage import Deadline, GameRecord, LoggedMove, Store, TableMessages
from storage.contract import DeadlineStore, RecordStore

from ..scheduler import Clock, SystemClock
from ..turns import Timing, computers_due, plan, tracked
from .ahead import AheadMixin
from .away import AwayMixin
from .cache import GameCache
from .core import MAX_PLAYERS, MIN_PLAYERS, Notice, Outcome, decision_key, refuse
from .export import export_game
from .lease import LeaseKeeper
from .lobby import LobbyMixin
from .moves import MovesMixin
from .pings import PingsMixin
from .seats import SeatsMixin
from .thinking import Thinkers
from .undo import UndoMixin

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "GameService", "Notice", "Outcome", "Thinkers", "Timing", "decision_key",
           "refuse"]
NOTIFY_CHOICES = ("channel", "dm", "none")
HEADS_UP_CHOICES = ("off", "dm", "channel")  # channel: a line that pings nobody


class GameService(LobbyMixin, MovesMixin, SeatsMixin, AheadMixin, AwayMixin, PingsMixin, UndoMixin):
    def __init__(self, store: Store, clock: Clock | None = None, timing: Timing | None = None,
                 thinkers: Thinkers | None = None, deal_seed: int | None = None):
        self.store = store
        self.deal_seed = deal_seed  # None (production): every deal unpredictable; see lobby.deal_seed
        self.clock = clock or SystemClock()
        self.timing = timing or Timing()
        self.thinkers = thinkers or Thinkers()  # where heavy computer players think (thinking.py)
        # Told the earliest new deadline after every write that planned some (the scheduler).
        self.on_deadlines: Callable[[float | None], None] = lambda earliest: None
        # One lock per channel with a game in flight; a lock nobody holds or waits for is freed.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._games = GameCache()  # the open game per channel

    @classmethod
    async def open(cls, database: str, clock: Clock | None = None, timing: Timing | None = None,
                   thinkers: Thinkers | None = None, retry_seconds: float | None = None,
                   deal_seed: int | None = None, editions: Library | None = None) -> GameService:
        """The service on the database at `database` (a DATABASE_URL or a SQLite file), opened and migrated;
        `retry_seconds`: how long PostgreSQL is waited for when out of reach; `editions`: what games are
        played with (default: the shipped ones)."""
        store = await Store.open(database, retry_seconds=retry_seconds, editions=editions)
        return cls(store, clock, timing, thinkers, deal_seed)

    async def close(self) -> None:
        self.thinkers.close()
        await self.store.close()

    @property
    def where(self) -> str:
        """The database, as an operator names it."""
        return self.store.where

    @property
    def kind(self) -> str:
        return self.store.kind

    @property
    def editions(self) -> Library:
        """The editions this service offers new tables and loads games with."""
        return self.store.editions

    @property
    def deadlines(self) -> DeadlineStore:
        """For the one scheduler, which fires them."""
        return self.store.deadlines

    @property
    def records(self) -> RecordStore:
        """Statistics, the leaderboard, ended games: read-only queries."""
        return self.store.records

    def lease_keeper(self, seconds: float, on_lost, shards=None) -> LeaseKeeper:
        """What holds this database (`shards`: these of Discord's shards) for the process while it serves
        (see lease.py)."""
        return LeaseKeeper(self.store.leases, self.store.where, seconds, on_lost, shards)

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def current(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (raises GameQuarantined for a damaged one)."""
        record = self._games.get(channel_id)
        if record is None:
            record = await self.store.games.load_channel(channel_id)
            if record is not None and self.store.ownership.owns(record.guild_id):  # only this process's shards
                self._games.put(record)
        return record

    def cached(self, channel_id: int) -> GameRecord | None:
        return self._games.get(channel_id)

    def cached_version(self, channel_id: int) -> tuple[int, int] | None:
        """(game id, version) of the channel's open game, if it is in memory (cheap)."""
        return self._games.version(channel_id)

    def _keep(self, record: GameRecord) -> GameRecord:
        if record.open and self.store.ownership.owns(record.guild_id):
            self._games.put(record)
        else:
            self._games.drop(record.channel_id)
            self.thinkers.forget(record.id)
        return record

    def _plan(self, record: GameRecord, new_table, new_state=None, restart: frozenset = frozenset()):
        """The game's deadlines once its table (and state) change."""
        state = new_state or record.state
        before = tracked(record.state, record.table)
        after = tracked(state, new_table)
        return plan(record.id, before, after, set(restart), new_table, self.timing, self.clock.now(),
                    computers_due(state, new_table))

    def _planned(self, deadlines=None, announce_at: float | None = None) -> None:
        earliest = [t for t in (deadlines.earliest if deadlines else None, announce_at) if t is not None]
        if earliest:
            self.on_deadlines(min(earliest))

    def _announce_at(self) -> float | None:
        """When a change written now is announced again unless the bot says it has been (see Timing)."""
        after = self.timing.announce_after
        return None if after is None else self.clock.now() + after

    async def set_messages(self, record: GameRecord, settled: int | None = None,
                           **changes) -> tuple[TableMessages, GameRecord]:
        """Change a game's message bookkeeping (`table=`, `drawn=`, `standings=`) on top of its newest record;
        `settled`: the version up to which everything has been announced (its promise is dropped).

        Under the channel's lock, so a move landing meanwhile is neither undone nor undoes this.
        Returns the bookkeeping as it was just before, and the updated record.
        """
        async with self.lock(record.channel_id):
            latest = self._games.get(record.channel_id)
            if latest is not None and latest.id == record.id:
                record = latest
            messages = record.messages.model_copy(update=changes)
            await self.store.games.set_messages(record.id, messages, settled)
            updated = replace(record, messages=messages)
            if latest is not None and latest.id == record.id:
                self._games.put(updated)
            return record.messages, updated

    # --- reading games, ended ones too

    async def game(self, game_id: int) -> GameRecord:
        """Any stored game, verified (GameNotFound, GameQuarantined)."""
        return await self.store.games.load_game(game_id)

    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The channel's most recent game, open or ended."""
        return await self.store.games.last_game(channel_id)

    async def open_channels(self) -> list[tuple[int, int, int]]:
        """(game id, guild id, channel id) of every open game."""
        return await self.store.games.open_channels()

    async def since_last_move(self, record: GameRecord, player: str) -> list[LoggedMove]:
        """What happened in the game since `player` last decided for themselves."""
        log = self.store.log
        return await log.moves_since(record.id, await log.last_decision(record.id, player))

    async def history(self, record: GameRecord, after: int = -1) -> list[LoggedMove]:
        """The game's moves after move `after` (-1: all of them, the deal included)."""
        return await self.store.log.moves_since(record.id, after)

    async def export(self, record: GameRecord) -> dict:
        """The game as its export file holds it (export.py)."""
        return await export_game(self.store.log, record)

    async def timeouts(self, record: GameRecord) -> dict[str, float]:
        """When each player on the clock runs out of time."""
        return {d.player: d.due_at for d in await self.store.deadlines.deadlines_of(record.id) if d.kind == "timeout"}

    async def postpone(self, deadline: Deadline, until: float) -> bool:
        return await self.store.deadlines.postpone_deadline(deadline, until)

    # --- facts about the deployment (e.g. the commands last synced)

    async def fact(self, key: str) -> str | None:
        return await self.store.settings.meta(key)

    async def set_fact(self, key: str, value: str) -> None:
        await self.store.settings.set_meta(key, value)

    # --- a server's own settings

    async def threads_default(self, guild_id: int) -> bool:
        """Whether `/augsburg new` opens its table in a new thread unless told otherwise."""
        return bool((await self.store.settings.guild_settings(guild_id)).get("threads"))

    async def set_threads_default(self, guild_id: int, threads: bool) -> None:
        settings = await self.store.settings.guild_settings(guild_id)  # the others as they are
        await self.store.settings.set_guild_settings(guild_id, settings | {"threads": threads})

    # --- a player's own settings (across games), each change merged atomically

    async def notify_setting(self, user: int | str) -> str:
        return (await self.store.settings.player_settings(str(user))).get("notify", "channel")

    async def player_settings(self, user: int | str) -> dict:
        return await self.store.settings.player_settings(str(user))

    async def set_notify(self, user: int | str, how: str, lang: str = "en") -> Outcome:
        """How to tell a player it is their move; `lang`: the language of their direct messages."""
        if how not in NOTIFY_CHOICES:
            return refuse("unknown_choice")
        await self.store.settings.merge_player_settings(str(user), {"notify": how, "dm_failed": False, "lang": lang})
        return Outcome(True)

    async def heads_up_setting(self, user: int | str) -> str:
        """Whether to tell a player, quietly, that they bid next after the one now on the clock."""
        return (await self.store.settings.player_settings(str(user))).get("heads_up", "off")

    async def set_heads_up(self, user: int | str, how: str, lang: str = "en") -> Outcome:
        if how not in HEADS_UP_CHOICES:
            return refuse("unknown_choice")
        await self.store.settings.merge_player_settings(str(user), {"heads_up": how, "lang": lang})
        return Outcome(True)

    async def note_dm_failed(self, user: str) -> None:
        """A DM could not be delivered: the player is told once, privately, at their next visit."""
        await self.store.settings.merge_player_settings(user, {"dm_failed": True, "dm_failed_told": False},
                                                        when={"dm_failed": False})

    async def take_dm_notice(self, user: int | str) -> bool:
        """Whether to tell this player now that their DMs failed (True once per failure)."""
        return await self.store.settings.merge_player_settings(str(user), {"dm_failed_told": True},
                                                               when={"dm_failed": True, "dm_failed_told": False})
