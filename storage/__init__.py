"""Storage: the only code that talks to the database (SQLite through aiosqlite)."""

from .errors import (
    ChannelBusy,
    GameNotFound,
    GameNotPlayable,
    GameQuarantined,
    StorageError,
    VersionConflict,
    WrongStatus,
)
from .lease import Lease, LeaseHeld
from .records import (
           LOG,
           Ahead,
           Deadline,
           DeadlinePlan,
           GameRecord,
           LogEntry,
           LoggedMove,
                  Seat,
           Table,
           TableEvent,
           TableMessages,
)
from .stats import MIN_GAMES, BoardRow, GameSummary, PlayerStats
from .store import Store

__all__ = ["LOG", "MIN_GAMES", "Ahead", "BoardRow", "GameSummary", "PlayerStats", "ChannelBusy",
           "Deadline", "DeadlinePlan", "GameNotFound", "GameNotPlayable", "GameQuarantined", "GameRecord",
           "Lease", "LeaseHeld", "LogEntry", "LoggedMove", "Seat", "StorageError", "Store", "Table", "TableEvent",
           "TableMessages", "VersionConflict", "WrongStatus"]
