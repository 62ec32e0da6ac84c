"""The storage of one bot: a database (SQLite or PostgreSQL, picked by its URL) and the objects of the
storage contract (contract.py) on it, one per concern, each handed on by itself to whoever needs it.

    store = await Store.open("sqlite:///augsburg.sqlite3")      # or a path, or postgresql://...
    await store.games.commit_action(...)
    scheduler = Scheduler(store.deadlines, ...)
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Any

from engine.editions import Library

from .contract import LeaseStore
from .deadlines import Deadlines
from .games import Games
from .history import GameLog
from .ownership import Ownership
from .ratings import Ratings
from .recent import RecentMoves
from .settings import Settings
from .sql import Database
from .stats import Records
from .url import DatabaseURL


class Store:
    """Games and their log, deadlines, settings, records and the lease of one database."""

    def __init__(self, db: Database, url: DatabaseURL, leases: LeaseStore, editions: Library | None = None):
        self.db = db
        self.url = url
        # The editions games may be loaded and replayed with: a game whose edition is not among them is refused.
        self.editions = editions or Library()
        # The shards this process claimed (through `leases`): every game write is fenced by them, and the
        # scheduler and start-up read only their games (ownership.py). Nothing is fenced before a claim.
        self.ownership: Ownership = leases.ownership
        # Each game's newest moves, kept as they are written and read back from memory (recent.py).
        self.recent = RecentMoves()
        self.games = Games(db, self.editions, self.ownership, self.recent)
        self.log = GameLog(db, self.recent)
        self.deadlines = Deadlines(db, self.ownership)
        self.settings = Settings(db)
        self.records = Records(db)
        self.ratings = Ratings(db)  # the skill ratings and seasons (issue 46)
        self.leases = leases  # the backend's: the lease rows behind its own locks (sqlite/lease.py, postgres/lease.py)

    @classmethod
    async def open(cls, where: str | Path, *, retry_seconds: float | None = None, editions: Library | None = None,
                   catch_up: bool = True, pool_size: int | None = None, **options: Any) -> Store:
        """The database at `where`: a DATABASE_URL (`sqlite:///file`, `postgresql://...`) or a SQLite file's
        path; created and migrated to the latest schema as needed. `retry_seconds`: how long PostgreSQL is
        waited for when out of reach (SQLite is a file: nothing to wait for); `editions`: what games are loaded
        with (default: the shipped ones); `catch_up`: rate the finished games not rated yet (ratings.py; only
        a test looking at a half-rated database says no); `pool_size`: PostgreSQL's connections for writes
        (default: postgres/database.py's; SQLite writes in one thread). `options` go to the backend."""
        url = DatabaseURL.parse(where)
        if url.kind == "postgresql":
            from .postgres import open_postgres  # asyncpg is loaded only for a PostgreSQL database

            if retry_seconds is not None:
                options["retry_seconds"] = retry_seconds
            if pool_size is not None:
                options["max_size"] = pool_size
            db, leases = await open_postgres(url, **options)
        else:
            from .sqlite import open_sqlite

            db, leases = await open_sqlite(url, **options)
        store = cls(db, url, leases, editions)
        try:
            if catch_up and options.get("migrate_to") is None:  # (an older schema, for a test: no ratings yet)
                await store.ratings.catch_up()  # games finished before ratings existed (or by an older version)
        except BaseException:
            await store.close()
            raise
        return store

    @property
    def kind(self) -> str:
        return self.url.kind

    @property
    def where(self) -> str:
        """The database as an operator names it, without a password."""
        return self.url.shown

    @property
    def path(self) -> str | None:
        """The SQLite file (None on PostgreSQL)."""
        return self.url.path

    async def close(self) -> None:
        await self.leases.close()
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()
