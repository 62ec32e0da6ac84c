"""Each backend held to the storage contract by the type checker, not only by the tests: a backend whose
database, transaction, dialect or lease stops fitting its Protocol (sql.py, contract.py) — a method removed,
renamed, or given another signature — fails `mypy storage`, and so does a concern (games, the log,
deadlines, settings, records) that stops fitting the contract the service is written against.

Nothing here runs (the imports are for the type checker only: asyncpg stays unloaded on SQLite).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from . import contract
    from .deadlines import Deadlines
    from .games import Games
    from .history import GameLog
    from .postgres.database import PostgresDatabase, PostgresDialect
    from .postgres.database import _Connection as PostgresTransaction
    from .postgres.lease import AdvisoryLeases
    from .settings import Settings
    from .sql import Database, Dialect, Transaction
    from .sqlite.database import SQLiteDatabase, SQLiteDialect
    from .sqlite.database import _Statements as SQLiteTransaction
    from .sqlite.lease import HostLeases
    from .stats import Records


def sqlite(db: SQLiteDatabase, tx: SQLiteTransaction, dialect: SQLiteDialect,
           leases: HostLeases) -> tuple[Database, Transaction, Dialect, contract.LeaseStore]:
    return db, tx, dialect, leases


def postgresql(db: PostgresDatabase, tx: PostgresTransaction, dialect: PostgresDialect,
               leases: AdvisoryLeases) -> tuple[Database, Transaction, Dialect, contract.LeaseStore]:
    return db, tx, dialect, leases


def concerns(games: Games, log: GameLog, deadlines: Deadlines, settings: Settings, records: Records) -> tuple[
        contract.GameStore, contract.GameLog, contract.DeadlineStore, contract.SettingsStore, contract.RecordStore]:
    return games, log, deadlines, settings, records
