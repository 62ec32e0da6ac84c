"""The service's core: what every request that changes a game needs, owned in one place.

The channel's lock (one request at a time per channel), the cache of open games, the versioned commit of a
move or a change of seats with the game's deadlines after it, and the planning of those deadlines. Each
concern of the service (lobby.py, decisions.py, seats.py, ...) is an object built over this core's public
methods; none reaches into another.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence

from engine import apply, only_action, to_act
from engine.actions import ActionModel
from engine.game import Applied
from engine.state import GameState
from engine.undo import final_reason
from storage import (
    Actor,
    DeadlinePlan,
    GameRecord,
    Seat,
    StorageUnavailable,
    Store,
    Table,
    TableEvent,
    VersionConflict,
)

from .automatic import automatic, lapsed
from .cache import GameCache
from .clock import Clock
from .observing import Observer, decided_by
from .outcome import Outcome, refuse
from .settings import HoursBook
from .turns import Timing, computers_due, newly_clocked, plan, tracked
from .where import working_in


class Core:
    def __init__(self, store: Store, clock: Clock, timing: Timing):
        self.store = store
        self.clock = clock
        self.timing = timing
        self.hours = HoursBook(store.settings, clock)  # each person's hours: their clock runs inside them
        # Told the earliest new deadline after every write that planned some (the scheduler).
        self.on_deadlines: Callable[[float | None], None] = lambda earliest: None
        # Told the id of a game that leaves the cache for good (it ended): what was kept for it may go.
        self.on_closed: Callable[[int], None] = lambda game_id: None
        # One lock per channel with a game in flight; a lock nobody holds or waits for is freed.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._games = GameCache()  # the open game per channel
        self.observer = Observer()  # who watches from above (the metrics): nobody unless told

    # --- the channel's lock and its open game

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def busy(self) -> bool:
        """Whether any channel's lock is held (a request is applying or committing a change)."""
        return any(lock.locked() for lock in list(self._locks.values()))

    async def current(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (raises GameQuarantined for a damaged one)."""
        record = self._games.get(channel_id)
        if record is None:
            record = await self.store.games.load_channel(channel_id)
            if record is not None and self.store.ownership.owns(record.guild_id):  # only this process's shards
                self._games.put(record)
        if record is not None:
            working_in(game=record.id)  # for this task's log lines
        return record

    def cached(self, channel_id: int) -> GameRecord | None:
        return self._games.get(channel_id)

    def phases(self) -> dict[str, int]:
        """How many open games in memory are in each phase (the operator's metrics)."""
        return dict(self._games.phases())

    def held(self) -> tuple[int, int, int]:
        """(games parsed, games kept as text, the bytes of that text) of the open games in memory (cache.py)."""
        return self._games.held()

    def cached_version(self, channel_id: int) -> tuple[int, int] | None:
        """(game id, version) of the channel's open game, if it is in memory (cheap)."""
        return self._games.version(channel_id)

    def keep(self, record: GameRecord) -> GameRecord:
        """A record just written: kept while the game is open here, else let go."""
        if record.open and self.store.ownership.owns(record.guild_id):
            self._games.put(record)
        else:
            self._games.drop(record.channel_id)
            self.on_closed(record.id)
        return record

    def hold(self, channel_id: int) -> None:
        """Keep the channel's game parsed until `release`: the bot moves in it in a moment (cache.py)."""
        self._games.hold(channel_id)

    def release(self, channel_id: int) -> None:
        self._games.release(channel_id)

    def forget(self, channel_id: int) -> None:
        """Drop the channel's game from memory (another process wrote it, or a write failed): the next request
        reads what is stored."""
        self._games.drop(channel_id)

    async def deciding(self, channel_id: int, game_id: int, user: int | str,
                       work: Callable[[GameRecord, str], Awaitable[Outcome]]) -> Outcome:
        """Under the channel's lock, `work(record, player)` for a seated person who may decide in game
        `game_id`; else the polite refusal (the game is over or another, not started, no seat, left)."""
        async with self.lock(channel_id):
            record = await self.current(channel_id)
            player = str(user)
            refused = cannot_decide(record, game_id, player)
            if refused is not None or record is None:
                return refused or refuse("game_gone")
            return await work(record, player)

    # --- writing (under the channel's lock)

    async def decide(self, record: GameRecord, player: str, action: ActionModel) -> Outcome:
        """A person's own decision: their seat is theirs again (a stand-in, time away end with it), the move
        is committed, and, if it was a choice of theirs that hid nothing, offered to be taken back (`undo`)."""
        assert record.state is not None, "a decision needs a game"
        table, entries = back_to_seat(record.table, player)
        outcome = await self.move(record, player, action, "player", table, entries)
        new = outcome.record
        if outcome.ok and new is not None and new.state is not None and final_reason(outcome.events) is None \
                and only_action(record.state, player) != action:
            outcome.undo = new.state.moves
        return outcome

    async def move(self, record: GameRecord, player: str, action: ActionModel, actor: Actor, table: Table,
                   log: Sequence[TableEvent]) -> Outcome:
        """Apply and commit one move; the engine's refusal, changing nothing, if it is not legal."""
        assert record.state is not None, "a move needs a game"
        result = apply(record.state, player, action)
        if not isinstance(result, Applied):
            return refuse(result.code, record, **result.params)
        return await self.commit(record, player, action, result, actor, table, log)

    async def commit(self, record: GameRecord, player: str, action: ActionModel, result: Applied, actor: Actor,
                     table: Table, log: Sequence[TableEvent]) -> Outcome:
        """Commit a move the engine applied (`result`) with the game's deadlines after it."""
        state = record.state
        assert state is not None, "a move needs a game"
        table = lapsed(table, result.state, player if state.phase == "auction" else None)
        deadlines = await self.plan(record, table, result.state, restart=frozenset({player}))
        announce = self.announce_at()
        started = time.perf_counter()
        try:
            new = await self.store.games.commit_action(
                record.id, record.version, player, action.to_json_dict(), result.state, events=result.events,
                actor=actor, table=table if table is not record.table else None, log=list(log), deadlines=deadlines,
                keep_table=record.table, keep_messages=record.messages, announce_at=announce,
            )
        except VersionConflict:
            # Another process wrote first: drop our copy so the next click sees the truth.
            self.forget(record.channel_id)
            return refuse("raced")
        except StorageUnavailable:
            # The database stayed out of reach (storage retried meanwhile): nothing of the move was stored, and
            # the player is told so; our copy is dropped, so the next click reads what is stored.
            self.forget(record.channel_id)
            return refuse("not_stored")
        self.observer.committed(*decided_by(actor, record.table, player), self.store.kind,
                                time.perf_counter() - started)
        self.planned(deadlines, announce)
        return Outcome(True, record=self.keep(new), events=list(result.events), previous_to_act=to_act(state),
                       player=player, actor=actor, action=action)

    async def change_seats(self, record: GameRecord, table: Table, log: Sequence[TableEvent],
                           restart: str | None = None) -> Outcome:
        """Commit a change of seats during play with the deadlines after it (`restart`: that player's clock
        starts anew)."""
        deadlines = await self.plan(record, table, restart=frozenset() if restart is None else frozenset({restart}))
        announce = self.announce_at()
        try:
            new = await self.store.games.update_table(record.id, record.version, table, log=list(log),
                                                      deadlines=deadlines, announce_at=announce)
        except VersionConflict:
            self.forget(record.channel_id)
            return refuse("raced")
        self.planned(deadlines, announce)
        return Outcome(True, record=self.keep(new))

    async def end(self, record: GameRecord, status: str, table: Table | None = None,
                  log: Sequence[TableEvent] = ()) -> Outcome:
        """End an open game ('cancelled', 'abandoned'), announced as any change."""
        announce = self.announce_at()
        new = await self.written(record, self.store.games.finish_game(record.id, record.version, status, table=table,
                                                                      log=list(log), announce_at=announce))
        if isinstance(new, Outcome):
            return new
        self.planned(None, announce)
        return Outcome(True, record=new)

    async def written(self, record: GameRecord, write: Awaitable[GameRecord]) -> GameRecord | Outcome:
        """A version-checked write of `record`'s game: the record written (kept), or the refusal "raced" when
        another process wrote first (nothing of this one is stored; our copy is dropped, so the next request
        reads what is)."""
        try:
            return self.keep(await write)
        except VersionConflict:
            self.forget(record.channel_id)
            return refuse("raced")

    # --- deadlines

    async def plan(self, record: GameRecord, new_table: Table, new_state: GameState | None = None,
                   restart: frozenset[str] = frozenset()) -> DeadlinePlan:
        """The game's deadlines once its table (and state) change (a new clock counts inside its person's hours)."""
        state = new_state or record.state
        before = tracked(record.state, record.table)
        made = automatic(state, new_table)
        after = tracked(state, new_table, made)
        hours = await self.hours.of_all(newly_clocked(before, after, set(restart), new_table))
        return plan(record.id, before, after, set(restart), new_table, self.timing, self.clock.now(),
                    computers_due(state, new_table, made), hours)

    def planned(self, deadlines: DeadlinePlan | None = None, announce_at: float | None = None) -> None:
        """Deadlines were written: the scheduler looks again if one comes before what it sleeps until."""
        earliest = [t for t in (deadlines.earliest if deadlines else None, announce_at) if t is not None]
        if earliest:
            self.on_deadlines(min(earliest))

    def announce_at(self) -> float | None:
        """When a change written now is announced again unless the bot says it has been (see Timing)."""
        after = self.timing.announce_after
        return None if after is None else self.clock.now() + after


def cannot_decide(record: GameRecord | None, game_id: int, player: str) -> Outcome | None:
    """Why `player` cannot decide anything in game `game_id` (the channel's game is `record`), or None: the
    game is over or another, it has not started, they have no seat, or they left it."""
    if record is None or record.id != game_id:
        return refuse("game_gone")
    if record.status != "active":
        return refuse("not_started", record)
    seat = record.table.seat(player)
    if seat is None:
        return refuse("not_seated", record)
    if seat.left:
        return refuse("seat_left", record)
    return None


def own_seat(record: GameRecord, player: str) -> Seat | Outcome:
    """The person's seat in this game, or the polite refusal: no seat of theirs, or they have left it for
    good."""
    seat = record.table.seat(player)
    if seat is None or seat.kind != "human":
        return refuse("not_seated", record)
    if seat.left:
        return refuse("seat_left", record)
    return seat


def back_to_seat(table: Table, player: str) -> tuple[Table, list[TableEvent]]:
    """A click of theirs gives a person their seat back: from a stand-in, a run of timeouts, time away.
    The table afterwards, and what the log says of it."""
    seat = table.seat(player)
    if seat is None or not (seat.stand_in or seat.streak or seat.away_until is not None):
        return table, []
    said = seat.stand_in or seat.away_until is not None
    return (table.with_seat(player, stand_in=False, streak=0, away_until=None),
            [TableEvent(what="returned", player=player)] if said else [])


def playing(record: GameRecord | None, game_id: int) -> GameRecord | Outcome:
    """The channel's game if it is game `game_id` and under way, else the refusal."""
    if record is None or record.id != game_id:
        return refuse("game_gone")
    if record.status != "active":
        return refuse("not_started", record)
    return record


__all__ = ["Core", "back_to_seat", "cannot_decide", "own_seat", "playing"]
