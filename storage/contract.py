"""The storage contract: what the game service needs from storage, one Protocol per concern.

A `Store` (store.py) holds one object per concern: `games` (GameStore), `log` (GameLog: the moves
and what they caused), `deadlines`, `settings`, `records`, `ratings` and `leases`. Each backend (SQLite,
PostgreSQL) provides them all; the service is handed the store, the scheduler only its deadlines,
the lease keeper only its lease. The types they speak (records.py, stats.py, errors.py) are all the
front-ends ever import from storage.

Every write is one transaction: all of it is stored, or (an error raised) none of it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from engine import Event, GameState

from . import skill
from .errors import GameNotPlayable, GameQuarantined
from .lease import Lease
from .ownership import Ownership
from .ratings import RatedRow, Season
from .records import Actor, Deadline, DeadlinePlan, GameRecord, LogEntry, LoggedMove, Table, TableMessages
from .reliability import Reliability
from .stats import BoardRow, GameSummary, PlayerStats


class GameStore(Protocol):
    """Games per channel (at most one open, lobby or active, per channel). Every change of a game is
    checked against the version its writer read: VersionConflict, nothing written, if it moved since."""

    async def open_lobby(self, guild_id: int, channel_id: int, table: Table,
                         parent_id: int | None = None) -> GameRecord:
        """ChannelBusy if the channel has an open game (also when another writer opened one just now).
        `parent_id`: the channel whose thread `channel_id` is."""

    async def create_game(self, guild_id: int, channel_id: int, table: Table, state: GameState) -> GameRecord: ...
    async def update_lobby(self, game_id: int, expected_version: int, table: Table) -> GameRecord: ...

    async def start_game(self, game_id: int, expected_version: int, table: Table, state: GameState, *,
                         log: Sequence[LogEntry] = (), deadlines: DeadlinePlan | None = None,
                         announce_at: float | None = None) -> GameRecord: ...

    async def commit_action(self, game_id: int, expected_version: int, player: str, action: dict[str, Any],
                            state: GameState, *, events: Sequence[Event] = (), actor: Actor = "player",
                            table: Table | None = None, log: Sequence[LogEntry] = (),
                            deadlines: DeadlinePlan | None = None, keep_table: Table | None = None,
                            keep_messages: TableMessages | None = None,
                            announce_at: float | None = None) -> GameRecord:
        """The move, its events, the state it made, the table's events and deadlines; if it ends the game,
        the game's end and results too: one transaction, appended to the game's hash chain."""

    async def update_table(self, game_id: int, expected_version: int, table: Table, *, log: Sequence[LogEntry] = (),
                           deadlines: DeadlinePlan | None = None, announce_at: float | None = None) -> GameRecord: ...

    async def finish_game(self, game_id: int, expected_version: int, status: str = "finished", *,
                          table: Table | None = None, log: Sequence[LogEntry] = (),
                          announce_at: float | None = None) -> GameRecord:
        """'finished', 'cancelled' or 'abandoned'; results only for a game played to its end."""

    async def set_messages(self, game_id: int, messages: TableMessages, settled: int | None = None) -> None:
        """The bot's message bookkeeping (no version bump); `settled`: announced up to this version."""

    async def load_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's open game, verified (repaired from its log, or GameQuarantined)."""

    async def load_game(self, game_id: int) -> GameRecord: ...
    async def last_game(self, channel_id: int) -> GameRecord | None: ...
    async def active_games(self) -> tuple[list[GameRecord], list[GameQuarantined | GameNotPlayable]]: ...
    async def open_channels(self) -> list[tuple[int, int, int]]: ...
    async def count_open(self) -> int: ...

    async def seated_games(self, player: str) -> list[GameRecord]:
        """Every open game in any server where `player` has a seat they have not left, newest first (issue 43);
        read only, whichever process's shard each game is."""


class GameLog(Protocol):
    """What each game leaves behind, read back."""

    async def action_log(self, game_id: int) -> list[tuple[str, Any]]: ...
    async def played(self, game_id: int) -> list[tuple[str, Any, str]]:
        """(player, action, actor) per move: what undo weighs."""

    async def moves_since(self, game_id: int, after: int, version: int | None = None) -> list[LoggedMove]: ...
    async def moves_since_decision(self, game_id: int, player: str,
                                   version: int | None = None) -> list[LoggedMove]: ...
    def kept_since_decision(self, game_id: int, player: str, version: int) -> list[LoggedMove] | None: ...
    async def notes(self, game_id: int) -> list[tuple[str, str]]: ...
    async def export_game(self, game_id: int) -> dict[str, Any]: ...


class DeadlineStore(Protocol):
    """Durable timers. Dropping or postponing one is a claim: it happens only if the row is still due
    when the caller read it, so of two schedulers exactly one wins."""

    async def set_deadline(self, game_id: int, player: str, kind: str, due_at: float,
                           payload: dict[str, Any] | None = None) -> None: ...
    async def clear_deadlines(self, game_id: int, player: str | None = None, kind: str | None = None) -> int: ...
    async def deadlines(self, due_before: float | None = None, limit: int | None = None) -> list[Deadline]:
        """Those of open games (and announcements) of this process's shards, with people's own (game id 0,
        no channel) in the process of shard 0; earliest first."""

    async def set_person_deadline(self, user: str, kind: str, due_at: float | None) -> None:
        """A person's own deadline, keyed by them and its kind (their daily word): set, or (None) gone."""

    async def count_pending(self) -> int: ...
    async def deadlines_of(self, game_id: int) -> list[Deadline]: ...
    async def drop_deadline(self, deadline: Deadline) -> bool: ...
    async def postpone_deadline(self, deadline: Deadline, until: float) -> bool: ...


class SettingsStore(Protocol):
    """Each player's settings (merged atomically), each server's, and facts about the deployment."""

    async def player_settings(self, user_id: str) -> dict[str, Any]: ...
    async def merge_player_settings(self, user_id: str, changes: dict[str, Any],
                                    when: dict[str, bool] | None = None) -> bool: ...
    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...
    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None: ...
    async def meta(self, key: str) -> str | None: ...
    async def set_meta(self, key: str, value: str) -> None: ...


class RecordStore(Protocol):
    """Results written when games end, read by index."""

    async def player_stats(self, player: str, guild_id: int | None = None) -> PlayerStats: ...
    async def player_name(self, player: str, guild_id: int | None = None) -> str: ...
    async def leaderboard(self, guild_id: int, offset: int = 0, limit: int = 10,
                          steady: bool = False) -> tuple[list[BoardRow], int]: ...
    async def computer_totals(self, guild_id: int) -> tuple[int, int]: ...
    async def recent_games(self, guild_id: int, channel_id: int | None = None, before: int | None = None,
                           limit: int = 10) -> list[GameSummary]:
        """The server's ended games, or one channel's and its threads', newest first."""
    async def game_summary(self, game_id: int) -> GameSummary | None: ...


class RatingStore(Protocol):
    """The skill ratings (written with each game's end), the seasons, each person's reliability."""

    async def catch_up(self) -> int: ...
    async def board(self, guild_id: int, season: str = "", offset: int = 0,
                    limit: int = 10) -> tuple[list[RatedRow], int]: ...
    async def rating(self, player: str, guild_id: int = 0, season: str = "") -> RatedRow | None: ...
    async def rated_games(self, guild_id: int | None = None) -> list[tuple[int, int]]: ...
    async def seasons(self, guild_id: int) -> list[Season]: ...
    async def season_now(self, guild_id: int, now: float | None = None) -> str: ...
    async def season_mode(self, guild_id: int) -> str: ...
    async def start_season(self, guild_id: int, now: float | None = None) -> str: ...
    async def set_season_mode(self, guild_id: int, mode: str, now: float | None = None) -> None: ...
    async def reliability(self, player: str) -> Reliability: ...
    async def changes(self, game_id: int) -> dict[str, tuple[skill.Rating, skill.Rating]]: ...


class LeaseStore(Protocol):
    """Which process serves which of the bot's Discord shards: a row per shard, its holder renewing a
    heartbeat; claimed all or none (lease.py). `ownership` is what game writes are fenced with (ownership.py)."""

    ownership: Ownership

    async def lease(self) -> Lease | None: ...
    async def leases(self) -> list[Lease]: ...

    async def live_lease(self) -> Lease | None:
        """A lease a live process holds."""

    async def take_lease(self, holder: str, pid: int, host: str, seconds: float, now: float | None = None, *,
                         shards: Iterable[int] = (0,), count: int = 1) -> Lease:
        """LeaseHeld if another live process holds one of `shards`, or counts the shards otherwise."""

    async def renew_lease(self, holder: str, now: float | None = None) -> bool:
        """False if a shard is no longer `holder`'s."""

    async def release_lease(self, holder: str) -> bool: ...

    async def close(self) -> None:
        """Let go of what the lease holds besides its rows (a lock file, a connection), at the store's close."""
