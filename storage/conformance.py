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
    from .ratings import Ratings
    from .settings import Settings
    from .sql import Database, Dialect, Transaction
    from .sqlite.database import SQLiteDatabase, SQLiteDialect
    from .sqlite.database import _InThread as SQLiteInThread
    from .sqlite.database import _Statements as SQLiteTransaction
    from .sqlite.lease import HostLeases
    from .stats import Records


# One function per pair, so that a failure names the member that no longer fits.


def sqlite_database(db: SQLiteDatabase) -> Database:
    return db


def sqlite_transaction(tx: SQLiteTransaction) -> Transaction:
    return tx


def sqlite_transaction_in_thread(tx: SQLiteInThread) -> Transaction:
    return tx


def sqlite_dialect(dialect: SQLiteDialect) -> Dialect:
    return dialect


def sqlite_leases(leases: HostLeases) -> contract.LeaseStore:
    return leases


def postgres_database(db: PostgresDatabase) -> Database:
    return db


def postgres_transaction(tx: PostgresTransaction) -> Transaction:
    return tx


def postgres_dialect(dialect: PostgresDialect) -> Dialect:
    return dialect


def postgres_leases(leases: AdvisoryLeases) -> contract.LeaseStore:
    return leases


def games(games: Games) -> contract.GameStore:
    return games


def game_log(log: GameLog) -> contract.GameLog:
    return log


def deadlines(deadlines: Deadlines) -> contract.DeadlineStore:
    return deadlines


def settings(settings: Settings) -> contract.SettingsStore:
    return settings


def records(records: Records) -> contract.RecordStore:
    return records


def ratings(ratings: Ratings) -> contract.RatingStore:
    return ratings
