"""Reading games: the channel's open game, any stored game, a game's log, and what a front-end shows of a
game (showing.py); and the bot's bookkeeping of a game's messages, written under the channel's lock."""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from engine.events import GameOver
from storage import Deadline, GameRecord, LoggedMove, TableMessages

from .core import Core
from .export import export_game
from .showing import Decision, Due, decision_of, due_of, panel_marks
from .turns import next_up

RECORDS_KEPT = 256  # the games asked about last: who is due, worked out once per record


class Held(NamedTuple):
    """What memory holds of the open games (Games.held): bounded, each part filling as games are played."""

    parsed: int  # games kept parsed (the ones in play: cache.py)
    cooled: int  # games kept as JSON text
    cooled_bytes: int  # that text's
    recent_games: int  # games whose newest moves are kept (storage/recent.py)
    recent_rows: int
    recent_bytes: int  # about: weighed in a sample


@dataclass(frozen=True)
class _Known:
    """Who is due, worked out for one record (the very object: records are never changed in place, cache.py)."""

    record: GameRecord
    due: Due


class Games:
    def __init__(self, core: Core):
        self.core = core
        # Who is due: the presenter, the pings and the live panels ask it a few times per move about the same
        # record object (the cache shares it, and a record is never changed in place): worked out once per
        # record, found by its identity. One record per game, the one asked about last: the one before it is
        # asked no more, and keeping it kept its parsed state alive for the garbage collector to walk.
        self._known: OrderedDict[int, _Known] = OrderedDict()  # by game id

    async def current(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (raises GameQuarantined for a damaged one, GameNotPlayable for one whose
        edition this bot lacks)."""
        return await self.core.current(channel_id)

    def cached(self, channel_id: int) -> GameRecord | None:
        """The channel's open game if it is in memory (no database read)."""
        return self.core.cached(channel_id)

    def cached_version(self, channel_id: int) -> tuple[int, int] | None:
        """(game id, version) of the channel's open game, if it is in memory (cheap)."""
        return self.core.cached_version(channel_id)

    def hold(self, channel_id: int) -> None:
        """Keep the channel's game parsed until `release`: the bot is about to move in it (the computers' turns,
        a moment apart), and would otherwise parse it again for each."""
        self.core.hold(channel_id)

    def release(self, channel_id: int) -> None:
        self.core.release(channel_id)

    async def game(self, game_id: int) -> GameRecord:
        """Any stored game, verified (GameNotFound, GameQuarantined)."""
        return await self.core.store.games.load_game(game_id)

    async def last_game(self, channel_id: int) -> GameRecord | None:
        """The channel's most recent game, open or ended."""
        return await self.core.store.games.last_game(channel_id)

    def phases(self) -> dict[str, int]:
        """How many open games in memory are in each phase ("lobby" before the start)."""
        return self.core.phases()

    def held(self) -> Held:
        """What memory holds of the open games, for the operator (the monitor, the metrics)."""
        parsed, cooled, text = self.core.held()
        games, rows, recent = self.core.store.recent.held()
        return Held(parsed, cooled, text, games, rows, recent)

    async def open_channels(self) -> list[tuple[int, int, int]]:
        """(game id, guild id, channel id) of every open game."""
        return await self.core.store.games.open_channels()

    async def count_open(self) -> int:
        """How many games are open (counted, for the operator's gauge)."""
        return await self.core.store.games.count_open()

    # --- what a front-end shows

    def due(self, record: GameRecord | None) -> Due:
        """Who is due in the game now: the people to tell, the seats the bot moves."""
        if record is None:
            return due_of(record)
        known = self._known.get(record.id)
        if known is None or known.record is not record:
            known = self._known[record.id] = _Known(record, due_of(record))
        self._known.move_to_end(record.id)
        if len(self._known) > RECORDS_KEPT:
            self._known.popitem(last=False)
        return known.due

    @staticmethod
    def decision(record: GameRecord, player: str) -> Decision:
        """`player`'s part of the game now, as their panel shows it: their own, never another's. Worked out
        each time, not kept: under load 95% of them were asked once per record (a live panel asks whether to
        redraw from the state alone, panel_marks), and the ones kept, each with the player's whole view (some
        40 objects), were a fifth of what every young collection walked (docs/benchmarks.md, tenth session)."""
        return decision_of(record, player)

    @staticmethod
    def marks(record: GameRecord, player: str) -> tuple[object, ...]:
        """What `player`'s panel shows that is worth redrawing it for (showing.panel_marks)."""
        return panel_marks(record, player)

    @staticmethod
    def next_up(record: GameRecord, due: set[str]) -> str | None:
        """The person who bids after the one now on the clock (`due`), for the heads-up; None if none."""
        return next_up(record.state, record.table, due)

    # --- the log

    async def since_last_move(self, record: GameRecord, player: str) -> list[LoggedMove]:
        """What happened in the game since `player` last decided for themselves."""
        return await self.core.store.log.moves_since_decision(record.id, player, record.version)

    def kept_since_last_move(self, record: GameRecord, player: str) -> list[LoggedMove] | None:
        """`since_last_move` if memory holds it, else None (then ask `since_last_move`)."""
        return self.core.store.log.kept_since_decision(record.id, player, record.version)

    async def history(self, record: GameRecord, after: int = -1) -> list[LoggedMove]:
        """The game's moves after move `after` (-1: all of them, the deal included)."""
        return await self.core.store.log.moves_since(record.id, after, record.version)

    async def newest_history(self, record: GameRecord, moves: int) -> tuple[list[LoggedMove], bool]:
        """The game's last `moves` moves, and whether they are all of its history (`history`)."""
        return await self.core.store.log.newest_moves(record.id, moves, record.version)

    async def final_tally(self, record: GameRecord) -> tuple[GameOver | None, dict[str, dict[str, int]]]:
        """A finished game's end (None if its log has none) and each player's prestige by where it came from."""
        entries = [e for move in await self.history(record) for e in move.entries]
        over = next((e for e in reversed(entries) if isinstance(e, GameOver)), None)
        prestige: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for e in entries:
            if e.type == "prestige_gained":
                prestige[e.player][e.reason] += e.amount
        return over, prestige

    async def export(self, record: GameRecord) -> dict[str, Any]:
        """The game as its export file holds it (export.py)."""
        return await export_game(self.core.store.log, record)

    async def timeouts(self, record: GameRecord) -> dict[str, float]:
        """When each player on the clock runs out of time."""
        stored = await self.core.store.deadlines.deadlines_of(record.id)
        return {d.player: d.due_at for d in stored if d.kind == "timeout"}

    async def clock(self, record: GameRecord) -> tuple[dict[str, float], dict[str, float]]:
        """When each player on the clock runs out of time, and when the hours of each person due now and
        outside them begin (the table shows both)."""
        return await self.timeouts(record), await self.core.hours.outside(self.due(record).people)

    async def postpone(self, deadline: Deadline, until: float) -> bool:
        return await self.core.store.deadlines.postpone_deadline(deadline, until)

    # --- the bot's bookkeeping of its messages

    async def set_messages(self, record: GameRecord, settled: int | None = None,
                           **changes: Any) -> tuple[TableMessages, GameRecord]:
        """Change a game's message bookkeeping (`table=`, `drawn=`, `standings=`) on top of its newest record;
        `settled`: the version up to which everything has been announced (its promise is dropped).

        Under the channel's lock, so a move landing meanwhile is neither undone nor undoes this.
        Returns the bookkeeping as it was just before, and the updated record.
        """
        core = self.core
        async with core.lock(record.channel_id):
            latest = core.cached(record.channel_id)
            if latest is not None and latest.id == record.id:
                record = latest
            messages = record.messages.model_copy(update=changes)
            await core.store.games.set_messages(record.id, messages, settled)
            updated = replace(record, messages=messages)
            if latest is not None and latest.id == record.id:
                core.keep(updated)
            return record.messages, updated
