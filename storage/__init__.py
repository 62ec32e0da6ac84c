"""Storage: the only code that talks to the database (SQLite through aiosqlite, PostgreSQL through asyncpg).

`Store.open(url)` gives one object per concern of the storage contract (contract.py). The rest of this
package's names are the typed records, statistics and errors the contract speaks in; `ENTRY` reads and
writes one entry of a game's log as JSON data (an exported game's file). Backups and restore of a SQLite
database: storage.backups.
"""

from . import skill
from .errors import (
    ChannelBusy,
    DatabaseBusy,
    GameNotFound,
    GameNotPlayable,
    GameQuarantined,
    StorageError,
    StorageUnavailable,
    VersionConflict,
    WrongStatus,
)
from .lease import Lease, LeaseHeld
from .ownership import ShardLost
from .ratings import SEASON_MODES, RatedRow, Season
from .records import (
    ENTRY,
    LOG,
    OPEN,
    Actor,
    Ahead,
    Deadline,
    DeadlinePlan,
    GameRecord,
    LogEntry,
    LoggedMove,
    PingMessage,
    Seat,
    Table,
    TableEvent,
    TableMessages,
)
from .reliability import Reliability
from .stats import MIN_GAMES, STEADY, BoardRow, GameSummary, PlayerStats
from .store import Store

__all__ = ["ENTRY", "LOG", "MIN_GAMES", "STEADY", "SEASON_MODES", "Actor", "Ahead", "RatedRow", "Reliability", "Season",
           "BoardRow", "GameSummary", "PlayerStats",
           "ChannelBusy",
           "DatabaseBusy", "Deadline", "DeadlinePlan", "GameNotFound", "GameNotPlayable", "GameQuarantined",
           "GameRecord", "Lease", "LeaseHeld", "LogEntry", "LoggedMove", "OPEN", "PingMessage", "Seat", "ShardLost",
           "StorageError", "StorageUnavailable", "Store", "Table", "TableEvent", "TableMessages", "VersionConflict",
           "WrongStatus", "skill"]
