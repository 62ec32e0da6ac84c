"""The game service: every table change and every decision, from any front-end, goes through here.

check who acts -> take the channel's lock -> load -> engine apply -> storage commit -> answer. Free of
Discord and of wording: refusals are `Notice` codes that each front-end words in its reader's language, and
what a front-end shows after a change comes with its `Outcome` (who is due, each person's decision).

Objects over one core (core.py: the channel's lock, the cache of open games, the commit, the deadlines),
one per concern, each reached as an attribute of the service:

    games      reading games, their logs, what a front-end shows of them (games.py, showing.py)
    lobby      the table before the game: seats, computers, clock, language, edition, start, cancel
    decisions  decisions: a person's own, the computers', the bot's for a person, the clock's
    seats      leaving, a stand-in by the host, coming back, a deleted channel
    ahead      auction decisions settled ahead
    away       time away
    pings      pings put off while a person watches their panel
    pinged     the pings' messages, kept until the decision they are about is made (pinged.py)
    undo       taking a decision back
    settings   each person's and each server's settings (their hours too), facts about the deployment
    mine       every game of a person's in every server, and their daily word (mine.py)
    ratings    skill ratings, the computer levels' marks, seasons and reliability (ratings.py)

The table's rules live beside them: turns.py (the clock), automatic.py (moves the bot makes for a person),
codes.py (actions as short codes), choices.py (options as a front-end groups them). The service is the
front-ends' one door into storage: they open it with `GameService.open(url)`, and are handed only what the
storage contract types (records, the records' queries).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.editions import Library
from storage import Store
from storage.contract import DeadlineStore, RecordStore

from .ahead import DecidingAhead
from .away import TimeAway
from .clock import Clock, SystemClock
from .core import Core
from .decisions import Decisions
from .games import Games
from .lease import LeaseKeeper, ShardClaim, Stop
from .lobby import Lobby
from .mine import Mine, MyGame
from .observing import Observer
from .outcome import MAX_PLAYERS, MIN_PLAYERS, Notice, Outcome, refuse
from .pinged import Pinged
from .pings import Pings
from .ratings import Ratings
from .seats import Seats
from .settings import Settings
from .showing import Decision, Due, decision_key
from .thinking import Thinkers
from .turns import Timing
from .undo import Undo

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "Decision", "Due", "GameService", "MyGame", "Notice", "Observer", "Outcome",
           "Thinkers", "Timing", "decision_key", "refuse"]


class GameService:
    """The one door: an object per concern over one core."""

    def __init__(self, store: Store, clock: Clock | None = None, timing: Timing | None = None,
                 thinkers: Thinkers | None = None, deal_seed: int | None = None):
        self.core = core = Core(store, clock or SystemClock(), timing or Timing())
        self.games = Games(core)
        self.lobby = Lobby(core, deal_seed)
        self.decisions = Decisions(core, thinkers or Thinkers())
        self.seats = Seats(core)
        self.ahead = DecidingAhead(core)
        self.away = TimeAway(core)
        self.pings = Pings(core)
        self.pinged = Pinged(core)
        self.undo = Undo(core)
        self.settings = Settings(store.settings, core.hours, core.clock)
        self.mine = Mine(core, self.settings)
        self.ratings = Ratings(core)
        core.on_closed = lambda game_id: self.decisions.thinkers.forget(game_id)

    @classmethod
    async def open(cls, database: str, clock: Clock | None = None, timing: Timing | None = None,
                   thinkers: Thinkers | None = None, retry_seconds: float | None = None,
                   deal_seed: int | None = None, editions: Library | None = None,
                   pool_size: int | None = None) -> GameService:
        """The service on the database at `database` (a DATABASE_URL or a SQLite file), opened and migrated;
        `retry_seconds`: how long PostgreSQL is waited for when out of reach; `editions`: what games are
        played with (default: the shipped ones); `pool_size`: PostgreSQL's connections for writes."""
        store = await Store.open(database, retry_seconds=retry_seconds, editions=editions, pool_size=pool_size)
        return cls(store, clock, timing, thinkers, deal_seed)

    async def close(self) -> None:
        self.decisions.thinkers.close()
        await self.core.store.close()

    @property
    def clock(self) -> Clock:
        return self.core.clock

    @property
    def timing(self) -> Timing:
        return self.core.timing

    @property
    def where(self) -> str:
        """The database, as an operator names it."""
        return self.core.store.where

    @property
    def kind(self) -> str:
        return self.core.store.kind

    @property
    def editions(self) -> Library:
        """The editions this service offers new tables and loads games with."""
        return self.core.store.editions

    @property
    def deadlines(self) -> DeadlineStore:
        """For the one scheduler, which fires them."""
        return self.core.store.deadlines

    @property
    def records(self) -> RecordStore:
        """Statistics, the leaderboard, ended games: read-only queries."""
        return self.core.store.records

    async def reachable(self) -> bool:
        """Whether the database answers now (a read of the lease: cheap; the operator's /readyz)."""
        try:
            await self.core.store.leases.lease()
        except Exception:
            return False
        return True

    def busy(self) -> bool:
        """Whether a request holds a channel's lock now (a move being applied or committed)."""
        return self.core.busy()

    def observe(self, observer: Observer) -> None:
        """Tell `observer` of every move committed and every computer's thinking (the operator's metrics)."""
        self.core.observer = observer

    def on_deadlines(self, told: Callable[[float | None], None]) -> None:
        """Tell `told` the earliest new deadline after every write that planned some (the scheduler wakes)."""
        self.core.on_deadlines = told

    def lease_keeper(self, seconds: float, on_lost: Stop,
                     shards: ShardClaim | None = None) -> LeaseKeeper:
        """What holds this database (`shards`: these of Discord's shards) for the process while it serves
        (see lease.py)."""
        return LeaseKeeper(self.core.store.leases, self.core.store.where, seconds, on_lost, shards)
