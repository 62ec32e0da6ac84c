"""The checkpoint: every game per channel in one SQLite file, through aiosqlite.

`Store` is assembled from one mixin per concern, so each file stays small:
database.py (connection, transactions), games.py (writes and loads),
repair.py (verification, replay, quarantine), history.py (log, export),
stats.py (results and statistics), timers.py (deadlines, server settings), lease.py (which
process serves the file), meta.py (small facts such as the synced commands).
"""

from __future__ import annotations

from .database import Database
from .games import GamesMixin
from .history import HistoryMixin
from .lease import LeaseMixin
from .messages import MessagesMixin
from .meta import MetaMixin
from .repair import RepairMixin
from .stats import StatsMixin
from .timers import TimersMixin


class Store(GamesMixin, MessagesMixin, RepairMixin, HistoryMixin, StatsMixin, TimersMixin, LeaseMixin, MetaMixin,
            Database):
    """One connection to one database file. Safe to share between coroutines."""
