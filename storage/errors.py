"""Typed errors the bot can explain to a channel."""

from __future__ import annotations


class StorageError(Exception):
    pass


class ChannelBusy(StorageError):
    """The channel already has an open game (lobby or active)."""

    def __init__(self, channel_id: int, game_id: int):
        super().__init__(f"channel {channel_id} already has an open game ({game_id})")
        self.channel_id = channel_id
        self.game_id = game_id


class VersionConflict(StorageError):
    """Someone else wrote the game first: reload and try again. Nothing was written."""

    def __init__(self, game_id: int, expected: int):
        super().__init__(f"game {game_id} is no longer at version {expected}")
        self.game_id = game_id
        self.expected = expected


class GameNotFound(StorageError):
    def __init__(self, game_id: int):
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class WrongStatus(StorageError):
    def __init__(self, game_id: int, status: str, wanted: str):
        super().__init__(f"game {game_id} is {status}, not {wanted}")
        self.game_id = game_id
        self.status = status


class GameNotPlayable(StorageError):
    """This program cannot play the stored game now: its edition is not here (or has other values now), or it
    follows a rules version this code does not play. Nothing is changed: it is loaded again once it can be."""

    def __init__(self, game_id: int, channel_id: int, reason: str, edition: str | None = None):
        super().__init__(f"game {game_id} in channel {channel_id} cannot be played here: {reason}")
        self.game_id = game_id
        self.channel_id = channel_id
        self.reason = reason
        self.edition = edition  # the id of the edition it needs, when that is what is missing


class GameQuarantined(StorageError):
    """The stored game is damaged beyond repair; it is kept for inspection but not loaded."""

    def __init__(self, game_id: int, channel_id: int, reason: str):
        super().__init__(f"game {game_id} in channel {channel_id} is quarantined: {reason}")
        self.game_id = game_id
        self.channel_id = channel_id
        self.reason = reason


class StorageUnavailable(StorageError):
    """The database could not be reached (PostgreSQL restarting, the network gone) for longer than the
    retries wait. Nothing was written by the call that raised it."""


class DatabaseBusy(StorageUnavailable):
    """Another process has held the SQLite file's write lock longer than the busy timeout (stopped or frozen
    in the middle of a write). Nothing was written."""


class UniqueViolation(StorageError):
    """A unique index refused a row (each backend raises this for its own driver's error)."""


class CommitUncertain(StorageUnavailable):
    """The connection was lost while the database committed: the transaction may or may not have landed.
    A version-checked game write finds out which by reading the game again (games.py)."""
