"""Backups and restore of the SQLite database, storage's public face for them (bot/backups.py, `augsburg
restore`): the copying and checking is sqlite/backup.py's, the restoring sqlite/restore.py's. A PostgreSQL
server is backed up and restored by its operator's own tools.

    path = back_up("augsburg.sqlite3", "backups", keep=14)    # a checked copy, the oldest beyond 14 deleted
    backups("augsburg.sqlite3", "backups")                    # newest first; taken_at(path) says when
    damage("augsburg.sqlite3")                                # None if sound, else what quick_check found
    restore("augsburg.sqlite3", "backups")                    # the newest good backup in its place
"""

from __future__ import annotations

from .sqlite.backup import BackupFailed, back_up, backups, integrity, prune, taken_at
from .sqlite.restore import NoGoodBackup, Restored, StillServed, StillSound, damage, live_holder, restore

__all__ = ["BackupFailed", "NoGoodBackup", "Restored", "StillServed", "StillSound", "back_up", "backups", "damage",
           "integrity", "live_holder", "prune", "restore", "taken_at"]
