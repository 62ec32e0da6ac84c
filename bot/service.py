"""The game service: every decision of every button or command goes through here.

check who acts -> take the channel's lock -> load -> engine apply -> storage
commit -> answer. Discord-free, so the rules of the table are tested without it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from engine import apply, new_game, to_act
from engine.actions import ActionModel
from engine.events import Event
from engine.state import GameState
from storage import ChannelBusy, GameQuarantined, GameRecord, Store, VersionConflict

from . import texts

log = logging.getLogger(__name__)

MIN_PLAYERS, MAX_PLAYERS = 2, 5
LOG_LINES = 8


@dataclass
class Outcome:
    """What one request did. `message` is for the requesting user only (ephemeral)."""

    ok: bool
    message: str = ""
    record: GameRecord | None = None
    events: list[Event] = field(default_factory=list)
    previous_to_act: list[str] = field(default_factory=list)


def refuse(message: str, record: GameRecord | None = None) -> Outcome:
    return Outcome(False, message, record)


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
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._games: dict[int, GameRecord] = {}  # open game per channel

    def lock(self, channel_id: int) -> asyncio.Lock:
        return self._locks[channel_id]

    async def restore(self) -> tuple[list[GameRecord], list[GameQuarantined]]:
        games, lost = await self.store.active_games()
        self._games = {g.channel_id: g for g in games}
        return games, lost

    async def current(self, channel_id: int) -> GameRecord | None:
        record = self._games.get(channel_id)
        if record is None:
            record = await self.store.load_channel(channel_id)
            if record is not None:
                self._games[channel_id] = record
        return record

    def cached(self, channel_id: int) -> GameRecord | None:
        return self._games.get(channel_id)

    def _keep(self, record: GameRecord) -> GameRecord:
        if record.status in ("lobby", "active"):
            self._games[record.channel_id] = record
        else:
            self._games.pop(record.channel_id, None)
        return record

    # --- the lobby

    async def open_table(self, guild_id: int, channel_id: int, host: int, host_name: str) -> Outcome:
        async with self.lock(channel_id):
            try:
                existing = await self.current(channel_id)
            except GameQuarantined:
                existing = None
            if existing is not None:
                return refuse("This channel already has a game. Finish or cancel it before opening a new table.")
            setup = {"host": str(host), "seats": [str(host)], "names": {str(host): host_name}}
            try:
                record = await self.store.open_lobby(guild_id, channel_id, setup)
            except ChannelBusy:
                return refuse("This channel already has a game. Finish or cancel it before opening a new table.")
            return Outcome(True, "Table opened.", self._keep(record))

    async def _lobby(self, channel_id: int, game_id: int) -> GameRecord | Outcome:
        record = await self.current(channel_id)
        if record is None or record.id != game_id:
            return refuse("This table is closed; open a new one with `/augsburg new`.")
        if record.status != "lobby":
            return refuse("This game has already started.")
        return record

    async def _edit_lobby(self, channel_id: int, game_id: int, edit) -> Outcome:
        """Change the seats of an open table. `edit(setup)` returns a refusal, or (new setup, message)."""
        async with self.lock(channel_id):
            record = await self._lobby(channel_id, game_id)
            if isinstance(record, Outcome):
                return record
            result = edit(dict(record.setup))
            if isinstance(result, str):
                return refuse(result, record)
            setup, message = result
            record = await self.store.update_lobby(record.id, record.version, setup)
            return Outcome(True, message, self._keep(record))

    async def join(self, channel_id: int, game_id: int, user: int, name: str) -> Outcome:
        def edit(setup: dict):
            if str(user) in setup["seats"]:
                return "You already have a seat at this table."
            if len(setup["seats"]) >= MAX_PLAYERS:
                return f"The table is full ({MAX_PLAYERS} players)."
            seats, names = [*setup["seats"], str(user)], {**setup["names"], str(user): name}
            return {**setup, "seats": seats, "names": names}, "You joined the table."

        return await self._edit_lobby(channel_id, game_id, edit)

    async def leave(self, channel_id: int, game_id: int, user: int) -> Outcome:
        def edit(setup: dict):
            if str(user) not in setup["seats"]:
                return "You are not seated at this table."
            if setup["host"] == str(user):
                return "The host cannot leave; use `/augsburg cancel` to close the table."
            return {**setup, "seats": [s for s in setup["seats"] if s != str(user)]}, "You left the table."

        return await self._edit_lobby(channel_id, game_id, edit)

    async def add_computer(self, channel_id: int, game_id: int, user: int) -> Outcome:
        """The host fills a free seat with a computer player."""

        def edit(setup: dict):
            if setup["host"] != str(user):
                return "Only the host can add computer players."
            if len(setup["seats"]) >= MAX_PLAYERS:
                return f"The table is full ({MAX_PLAYERS} players)."
            number = next(n for n in range(1, MAX_PLAYERS + 1) if f"ai{n}" not in setup["seats"])
            seats = [*setup["seats"], f"ai{number}"]
            names = {**setup["names"], f"ai{number}": f"Computer {number}"}
            return {**setup, "seats": seats, "names": names}, "A computer player joined the table."

        return await self._edit_lobby(channel_id, game_id, edit)

    async def start(self, channel_id: int, game_id: int, user: int) -> Outcome:
        async with self.lock(channel_id):
            record = await self._lobby(channel_id, game_id)
            if isinstance(record, Outcome):
                return record
            setup = dict(record.setup)
            if setup["host"] != str(user):
                return refuse("Only the host can start the game.", record)
            if not MIN_PLAYERS <= len(setup["seats"]) <= MAX_PLAYERS:
                return refuse(f"A game needs {MIN_PLAYERS} to {MAX_PLAYERS} players.", record)
            seed = secrets.randbits(62)
            players = list(setup["seats"])
            state, events = new_game(players, seed=seed)
            setup.update(players=players, seed=seed, start_player=None)
            record = await self.store.start_game(record.id, record.version, setup, state)
            return Outcome(True, "The game has started.", self._keep(record), events)

    async def cancel(self, channel_id: int, user: int, can_manage: bool) -> Outcome:
        async with self.lock(channel_id):
            record = await self.current(channel_id)
            if record is None:
                return refuse("There is no game in this channel.")
            if record.setup.get("host") != str(user) and not can_manage:
                return refuse("Only the host or someone who can manage this channel can cancel the game.", record)
            record = await self.store.finish_game(record.id, record.version, "cancelled")
            return Outcome(True, "The game was cancelled.", self._keep(record))

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
                return refuse("That game is over or was cancelled; these buttons no longer work.")
            if record.status != "active":
                return refuse("The game has not started yet.", record)
            player = str(user)
            state = record.state
            if player not in record.setup["players"]:
                return refuse("You are not playing in this game.", record)
            if key is not None and key != decision_key(state):
                return refuse("That decision has already been taken; here is what you can do now.", record)
            if callable(action):
                try:
                    action = action(state, player)
                except (ValueError, IndexError, KeyError):
                    return refuse("That choice no longer matches your cards; here is what you can do now.", record)
            result = apply(state, player, action)
            if not result.ok:
                return refuse(result.reason, record)
            try:
                ui = with_log(record, result.events)
                new = await self.store.commit_action(
                    record.id, record.version, player, action.to_json_dict(), result.state, ui
                )
            except VersionConflict:
                # Another process wrote first: drop our copy so the next click sees the truth.
                self._games.pop(channel_id, None)
                return refuse("Someone acted at the same moment; please try again.")
            if new.state.phase == "game_over":
                new = await self.store.finish_game(new.id, new.version)
            return Outcome(True, "", self._keep(new), result.events, to_act(state))

    async def set_ui(self, record: GameRecord, ui: dict) -> GameRecord:
        await self.store.set_ui(record.id, ui)
        updated = replace(record, ui=ui)
        if self._games.get(record.channel_id) is record:
            self._games[record.channel_id] = updated
        return updated


def with_log(record: GameRecord, events: list[Event]) -> dict:
    """The table's bookkeeping with the public log lines of `events` appended (the last few kept)."""
    names = name_lookup(record)
    lines = [line for e in events if e.public and (line := texts.public_line(e, names))]
    return {**record.ui, "log": (record.ui.get("log", []) + lines)[-LOG_LINES:]}


def is_computer(player: str) -> bool:
    return player.startswith("ai")


def name_lookup(record: GameRecord):
    names = record.setup.get("names", {})
    return lambda pid: names.get(pid, pid)
