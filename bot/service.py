"""The game service: every table change and every decision, from any front-end, goes through here.

check who acts -> take the channel's lock -> load -> engine apply -> storage
commit -> answer. Free of Discord and of wording: refusals are `Notice` codes
that each front-end words in its reader's language. Used by the Discord bot
and the terminal game alike.
"""

from __future__ import annotations

import asyncio
import secrets
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from engine import Event, apply, new_game, player_view, to_act
from engine.actions import ActionModel
from engine.ai import ComputerPlayer
from engine.state import GameState
from storage import ChannelBusy, GameQuarantined, GameRecord, Seat, Store, Table, TableMessages, VersionConflict

MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass(frozen=True)
class Notice:
    """What to tell the person who asked, as a code with parameters (bot/wording/notices.py words it)."""

    code: str
    params: dict = field(default_factory=dict)


@dataclass
class Outcome:
    """What one request did; `notice` (a refusal) is for the requesting person only."""

    ok: bool
    notice: Notice | None = None
    record: GameRecord | None = None
    events: list[Event] = field(default_factory=list)
    previous_to_act: list[str] = field(default_factory=list)


def refuse(code: str, record: GameRecord | None = None, **params) -> Outcome:
    return Outcome(False, Notice(code, params), record)


def decision_key(state: GameState) -> str:
    """Names the decision a panel was built for, so a stale button is recognised.

    A turn-based decision lasts one move. A secret simultaneous choice lasts
    until everyone has chosen, though others' choices add moves meanwhile.
    """
    if state.phase in ("initial_purchase", "round_end_purchase"):
        return f"buy{state.round}"
    if state.phase == "showdown":
        return f"show{state.round}.{state.noble}"
    return str(state.moves)


class GameService:
    def __init__(self, store: Store):
        self.store = store
        # One lock per channel with a game in flight; a lock nobody holds or waits for is freed.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._games: dict[int, GameRecord] = {}  # the open game per channel

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def restore(self) -> tuple[list[GameRecord], list[GameQuarantined]]:
        games, lost = await self.store.active_games()
        self._games = {g.channel_id: g for g in games}
        return games, lost

    async def current(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (raises GameQuarantined for a damaged one)."""
        record = self._games.get(channel_id)
        if record is None:
            record = await self.store.load_channel(channel_id)
            if record is not None:
                self._games[channel_id] = record
        return record

    def cached(self, channel_id: int) -> GameRecord | None:
        return self._games.get(channel_id)

    def _keep(self, record: GameRecord) -> GameRecord:
        if record.open:
            self._games[record.channel_id] = record
        else:
            self._games.pop(record.channel_id, None)
        return record

    # --- the lobby

    async def open_table(self, guild_id: int, channel_id: int, host: Seat) -> Outcome:
        async with self.lock(channel_id):
            try:
                existing = await self.current(channel_id)
            except GameQuarantined:
                existing = None
            if existing is not None:
                return refuse("channel_busy")
            try:
                record = await self.store.open_lobby(guild_id, channel_id, Table(host=host.id, seats=(host,)))
            except ChannelBusy:
                return refuse("channel_busy")
            return Outcome(True, record=self._keep(record))

    async def _lobby(self, channel_id: int, game_id: int) -> GameRecord | Outcome:
        """The channel's table if it is still gathering players (call under the lock), else a refusal."""
        record = await self.current(channel_id)
        if record is None or record.id != game_id:
            return refuse("table_closed")
        if record.status != "lobby":
            return refuse("already_started", record)
        return record

    async def _change_seats(self, channel_id: int, game_id: int, change: Callable[[Table], list[Seat] | Notice]):
        """Change the seats of an open table; `change(table)` returns the new seats or a refusal."""
        async with self.lock(channel_id):
            record = await self._lobby(channel_id, game_id)
            if isinstance(record, Outcome):
                return record
            seats = change(record.table)
            if isinstance(seats, Notice):
                return Outcome(False, seats, record)
            record = await self.store.update_lobby(record.id, record.version, record.table.with_seats(seats))
            return Outcome(True, record=self._keep(record))

    async def join(self, channel_id: int, game_id: int, seat: Seat) -> Outcome:
        def change(table: Table):
            if table.seat(seat.id) is not None:
                return Notice("already_seated")
            if len(table.seats) >= MAX_PLAYERS:
                return Notice("table_full", {"most": MAX_PLAYERS})
            return [*table.seats, seat]

        return await self._change_seats(channel_id, game_id, change)

    async def leave(self, channel_id: int, game_id: int, user: int | str) -> Outcome:
        def change(table: Table):
            if table.seat(str(user)) is None:
                return Notice("not_at_table")
            if table.host == str(user):
                return Notice("host_cannot_leave")
            return [s for s in table.seats if s.id != str(user)]

        return await self._change_seats(channel_id, game_id, change)

    async def add_computer(self, channel_id: int, game_id: int, user: int | str) -> Outcome:
        """The host fills a free seat with a computer player."""

        def change(table: Table):
            if table.host != str(user):
                return Notice("host_only_computers")
            if len(table.seats) >= MAX_PLAYERS:
                return Notice("table_full", {"most": MAX_PLAYERS})
            taken = {s.id for s in table.seats}
            number = next(n for n in range(1, MAX_PLAYERS + 1) if f"ai{n}" not in taken)
            return [*table.seats, Seat(id=f"ai{number}", kind="computer", number=number)]

        return await self._change_seats(channel_id, game_id, change)

    async def start(self, channel_id: int, game_id: int, user: int | str, seed: int | None = None) -> Outcome:
        async with self.lock(channel_id):
            record = await self._lobby(channel_id, game_id)
            if isinstance(record, Outcome):
                return record
            table = record.table
            if table.host != str(user):
                return refuse("host_only_start", record)
            if not MIN_PLAYERS <= len(table.seats) <= MAX_PLAYERS:
                return refuse("players_needed", record, least=MIN_PLAYERS, most=MAX_PLAYERS)
            table = table.model_copy(update={"seed": secrets.randbits(62) if seed is None else seed})
            state, events = new_game(table.players, seed=table.seed)
            record = await self.store.start_game(record.id, record.version, table, state,
                                                 record.messages.logged(events))
            return Outcome(True, record=self._keep(record), events=events)

    async def cancel(self, channel_id: int, user: int | str, can_manage: bool) -> Outcome:
        async with self.lock(channel_id):
            record = await self.current(channel_id)
            if record is None:
                return refuse("no_game")
            if record.table.host != str(user) and not can_manage:
                return refuse("cancel_not_allowed", record)
            record = await self.store.finish_game(record.id, record.version, "cancelled")
            return Outcome(True, record=self._keep(record))

    # --- playing

    async def act(
        self,
        channel_id: int,
        game_id: int,
        user: int | str,
        key: str | None,
        action: ActionModel | Callable[[GameState, str], ActionModel],
    ) -> Outcome:
        """Apply one player's decision. `key` is the decision the button was made for (None: a typed command).

        `action` may be a function of the current state and player, for choices named by position
        (the 2nd and 5th offered card), which are read under the lock.
        """
        async with self.lock(channel_id):
            record = await self.current(channel_id)
            if record is None or record.id != game_id:
                return refuse("game_gone")
            if record.status != "active":
                return refuse("not_started", record)
            player = str(user)
            state = record.state
            if player not in record.table.players:
                return refuse("not_seated", record)
            if key is not None and key != decision_key(state):
                return refuse("stale_decision", record)
            if callable(action):
                try:
                    action = action(state, player)
                except (ValueError, IndexError, KeyError):
                    return refuse("stale_choice", record)
            result = apply(state, player, action)
            if not result.ok:
                return refuse(result.code, record, **result.params)
            try:
                new = await self.store.commit_action(
                    record.id, record.version, player, action.to_json_dict(), result.state,
                    record.messages.logged(result.events),
                )
            except VersionConflict:
                # Another process wrote first: drop our copy so the next click sees the truth.
                self._games.pop(channel_id, None)
                return refuse("raced")
            return Outcome(True, record=self._keep(new), events=result.events, previous_to_act=to_act(state))

    async def play_computer(self, channel_id: int) -> Outcome | None:
        """Let the first computer player due in this channel move; None when no computer is due.

        It decides from its own view only; if a human moved meanwhile, its decision is refused as stale.
        """
        record = self.cached(channel_id)
        if record is None or record.status != "active":
            return None
        due = [p for p in to_act(record.state) if record.table.is_computer(p)]
        if not due:
            return None
        player = due[0]
        seed = record.table.seed + record.table.players.index(player)  # each seat plays its own way
        action = ComputerPlayer(seed).decide(player_view(record.state, player))
        return await self.act(channel_id, record.id, player, decision_key(record.state), action)

    async def set_messages(self, record: GameRecord, **changes) -> tuple[TableMessages, GameRecord]:
        """Change message ids of a game's bookkeeping (`table=`, `ping=`), on top of its newest record.

        Under the channel's lock, so a move landing meanwhile is neither undone nor undoes this.
        Returns the bookkeeping as it was just before, and the updated record.
        """
        async with self.lock(record.channel_id):
            latest = self._games.get(record.channel_id)
            if latest is not None and latest.id == record.id:
                record = latest
            messages = record.messages.model_copy(update=changes)
            await self.store.set_messages(record.id, messages)
            updated = replace(record, messages=messages)
            if latest is not None and latest.id == record.id:
                self._games[record.channel_id] = updated
            return record.messages, updated
