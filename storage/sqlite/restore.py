"""A damaged database: telling it at start-up, and putting the newest good backup in its place.

Restoring is for a stopped bot: the damaged file (with its -wal and -shm) is moved aside, never
deleted, as NAME.damaged-STAMP (and NAME.damaged-STAMP-wal ...), so SQLite still opens the set together.
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..errors import StorageError
from .backup import STAMP, backups, integrity, sync_folder
from .host_lock import holder_alive

_COMPANIONS = ("", "-wal", "-shm", "-journal")  # SQLite's files for one database


class NoGoodBackup(StorageError):
    def __init__(self, database: Path, folder: Path, damaged: list[tuple[Path, str]]):
        found = f"{len(damaged)} found, all damaged" if damaged else "none found"
        super().__init__(f"no good backup of {database.name} in {folder} ({database.stem}-*.sqlite3: {found})")
        self.damaged = damaged


class StillServed(StorageError):
    """A bot process still holds the database's lease: restoring under it would lose its writes."""


def live_holder(database: str | Path, now: float | None = None) -> str | None:
    """Who holds the database's lease with a live heartbeat ("pid N on HOST"), if it can be read at all
    (a damaged file may not tell; then nobody can be serving from it anyway)."""
    now = time.time() if now is None else now
    try:
        db = sqlite3.connect(f"{Path(database).resolve().as_uri()}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT pid, host, heartbeat_at, seconds FROM lease WHERE id = 1").fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError:
        return None
    if row is None:
        return None
    if row[1] == socket.gethostname() and holder_alive(database) is False:
        return None  # it ran here, and the kernel says it is dead (host_lock.py)
    if now - row[2] >= row[3]:
        return None
    return f"pid {row[0]} on {row[1]}"


class StillSound(StorageError):
    """The database passes its check: restoring it would lose what happened since the backup."""


@dataclass
class Restored:
    database: Path
    backup: Path
    moved: list[tuple[Path, Path]] = field(default_factory=list)  # (from, to): the damaged files kept aside
    skipped: list[tuple[Path, str]] = field(default_factory=list)  # newer backups that were damaged, and why


def damage(database: str | Path) -> str | None:
    """What `PRAGMA quick_check` finds wrong with `database`, on one line; None if sound (or not there yet)."""
    if not Path(database).exists():
        return None  # a first start: the database is created
    verdict = integrity(database, "quick_check")
    return None if verdict == "ok" else verdict


def restore(database: str | Path, folder: str | Path, *, force: bool = False,
            now: datetime | None = None) -> Restored:
    """Put the newest backup that passes its integrity check in place of `database`.

    Raises NoGoodBackup, or StillSound if `database` passes its check (unless `force`); either way nothing
    is changed.
    """
    database, folder = Path(database), Path(folder)
    skipped: list[tuple[Path, str]] = []
    for candidate in backups(database, folder):
        verdict = integrity(candidate)
        if verdict == "ok":
            break
        skipped.append((candidate, verdict))
    else:
        raise NoGoodBackup(database, folder, skipped)
    if not force and database.exists() and damage(database) is None:
        raise StillSound(f"{database} passes its check")
    holder = live_holder(database) if database.exists() else None
    if holder is not None:
        raise StillServed(f"{holder} serves {database}")
    done = Restored(database, candidate, skipped=skipped)
    incoming = database.with_name(database.name + ".restoring")
    shutil.copyfile(candidate, incoming)  # next to the database, so the final rename cannot fail half-way
    with open(incoming, "rb+") as f:
        os.fsync(f.fileno())
    stamp = (now or datetime.now(UTC)).strftime(STAMP)
    for suffix in _COMPANIONS:
        damaged = Path(f"{database}{suffix}")
        if damaged.exists():
            aside = Path(f"{database}.damaged-{stamp}{suffix}")
            os.replace(damaged, aside)
            done.moved.append((damaged, aside))
    os.replace(incoming, database)
    sync_folder(database.parent)
    return done
