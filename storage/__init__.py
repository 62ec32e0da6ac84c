"""Storage: the only code that talks to the database (SQLite through aiosqlite)."""

from .errors import ChannelBusy, GameNotFound, GameQuarantined, StorageError, VersionConflict, WrongStatus
from .store import Deadline, GameRecord, Store

__all__ = ["ChannelBusy", "Deadline", "GameNotFound", "GameQuarantined", "GameRecord", "StorageError", "Store",
           "VersionConflict", "WrongStatus"]
