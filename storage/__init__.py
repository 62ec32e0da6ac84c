"""Storage: the only code that talks to the database (SQLite through aiosqlite)."""

from .errors import ChannelBusy, GameNotFound, GameQuarantined, StorageError, VersionConflict, WrongStatus
from .records import Deadline, GameRecord, Seat, Table, TableMessages
from .store import Store

__all__ = ["ChannelBusy", "Deadline", "GameNotFound", "GameQuarantined", "GameRecord", "Seat", "StorageError",
           "Store", "Table", "TableMessages", "VersionConflict", "WrongStatus"]
