"""Online backups of the live database: a timestamped copy through SQLite's backup API, checked, and the
oldest beyond a count deleted.

Plain sqlite3 on a connection of its own, meant to run in a thread: in WAL mode the copy reads one
consistent snapshot while the bot goes on writing through its own connection, which never waits for it.
Each backup is one self-contained file (journal mode DELETE), written under a temporary name and renamed
only once it passes `PRAGMA integrity_check`, so a file with a backup's name is always a whole one.
"""

from __future__ import annotations

import glob
import os
import re
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from ..errors import StorageError

STAMP = "%Y%m%dT%H%M%S.%fZ"  # UTC; names sort in the order they were taken
_STAMPED = re.compile(r"-(\d{8}T\d{6}\.\d{6}Z)\.sqlite3")
BUSY_TIMEOUT_MS = 5000


class BackupFailed(StorageError):
    pass


def backups(database: str | Path, folder: str | Path) -> list[Path]:
    """The backups of `database` in `folder`, newest first (by the time in their names)."""
    stem = Path(database).stem
    found = Path(folder).glob(f"{glob.escape(stem)}-*.sqlite3")
    return sorted((p for p in found if _STAMPED.fullmatch(p.name[len(stem):])), reverse=True)


def taken_at(backup: Path) -> datetime:
    """When a backup (one `backups` lists) was taken; ValueError if `backup` is not named as one."""
    stamped = _STAMPED.search(backup.name)
    if stamped is None:
        raise ValueError(f"{backup.name} is not named as a backup (NAME-{STAMP}.sqlite3)")
    return datetime.strptime(stamped.group(1), STAMP).replace(tzinfo=UTC)


def integrity(path: str | Path, check: str = "integrity_check") -> str:
    """'ok', or what `PRAGMA integrity_check` (or quick_check, or opening the file) found wrong, on one line.

    Read-only: it never checkpoints or deletes a -wal, so a damaged file stays as it was found.
    """
    try:
        db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = [str(r[0]) for r in db.execute(f"PRAGMA {check}").fetchall()]
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:  # e.g. "database disk image is malformed", "file is not a database"
        return str(exc)
    more = f" (and {len(rows) - 3} more)" if len(rows) > 3 else ""
    return " ".join("; ".join(rows[:3]).split()) + more


def back_up(database: str | Path, folder: str | Path, keep: int, *, now: datetime | None = None) -> Path:
    """Copy `database` into `folder` as NAME-STAMP.sqlite3, check the copy, keep the newest `keep`."""
    database, folder = Path(database), Path(folder)
    if not database.is_file():
        raise BackupFailed(f"there is no database at {database}")
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{database.stem}-{(now or datetime.now(UTC)).strftime(STAMP)}.sqlite3"
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(database)
    try:
        source.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)  # all pages in one step: one consistent snapshot
            copy.execute("PRAGMA journal_mode = DELETE")  # no -wal beside it: the file is the whole backup
        finally:
            copy.close()
    finally:
        source.close()
    verdict = integrity(partial)
    if verdict != "ok":
        partial.unlink(missing_ok=True)
        raise BackupFailed(f"the copy of {database} failed its integrity check: {verdict}")
    os.replace(partial, target)
    sync_folder(folder)
    prune(database, folder, keep)
    return target


def prune(database: str | Path, folder: str | Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` backups of `database` (and copies a crash left half-written)."""
    gone = backups(database, folder)[max(keep, 1):]
    gone += [p for p in Path(folder).glob(f"{glob.escape(Path(database).stem)}-*.sqlite3.partial")]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (POSIX; elsewhere the rename is all there is)."""
    if hasattr(os, "O_DIRECTORY"):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
