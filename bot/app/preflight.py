"""What is checked before anything starts, so that a place that cannot work is one line naming the setting or
option and what to do (not a traceback half-way through the start): a SQLite file that cannot be created or
written, a folder in a file's place, a file that is something else, a folder that is not there.

Nothing here creates the database: a probe file is made in its folder and removed at once. A PostgreSQL
server is not asked (that takes a connection): `reached` opens the database for the commands that want to
know before they start.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

from engine.editions import Library
from storage import StorageError
from storage.url import DatabaseURL

from .config import Settings

SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database


def given(named: str, value: str | Path) -> str:
    """How the user gave a place: `--database x.db`, `DATABASE_PATH=x.db`, or a description with the place."""
    value = value if str(value) else "''"
    if named.startswith("-"):
        return f"{named} {value}"
    if named.isupper():
        return f"{named}={value}"
    return f"{named} {value}"


def database_refused(where: str, named: str, *, must_exist: bool = False, damaged: bool = False) -> str | None:
    """One line if `where` cannot be this bot's database, naming it as the user did (`named`: "--database",
    "DATABASE_PATH", ...); None if it can. A URL of an unknown kind; for SQLite, a file whose folder is missing
    or cannot be written (SQLite writes its journal beside the file), a folder in its place, a file that is not
    a SQLite database (unless `damaged`: a damaged database is still the one to restore) or, with `must_exist`,
    no file at all. PostgreSQL is not asked here (see `reached`)."""
    try:
        url = DatabaseURL.parse(where)
    except ValueError as exc:
        return f"{given(named, where)}: {exc}."
    if url.kind != "sqlite":
        return None
    said = given(named, where)
    if not url.path or not url.path.strip():
        return f"{said}: names no file; name a SQLite database file, e.g. augsburg.sqlite3."
    path = Path(url.path)
    hint = ""
    if where.startswith("sqlite:///") and not path.is_absolute():
        hint = (f" (three slashes name a file relative to this folder, {path}; for /{path} write"
                f" sqlite:////{path} or just /{path})")
    if path.is_dir():
        return f"{said} is a folder: name a file in it, e.g. {path / 'augsburg.sqlite3'}."
    folder = path.parent
    if not folder.exists():
        if must_exist:
            return f"{said}: there is no such file{hint}."
        return (f"{said}: the folder {folder} does not exist{hint}. Create it (mkdir -p {shlex.quote(str(folder))})"
                " or name a file in a folder that exists.")
    if not folder.is_dir():
        return f"{said}: {folder} is a file, not a folder."
    if path.exists():
        if not path.is_file():
            return f"{said} is not a file (a device or a pipe?): name a SQLite database file."
        try:
            with path.open("r+b") as file:
                head = file.read(len(SQLITE_HEADER))
        except OSError as exc:
            return f"{said} cannot be opened to read and write ({exc.strerror}): check its permissions."
        if head and head != SQLITE_HEADER and not damaged:
            return (f"{said} is not a SQLite database (it is some other kind of file): name another file, or move"
                    " that one away.")
    elif must_exist:
        return f"{said}: there is no such file{hint}."
    problem = unwritable(folder)
    if problem:
        return (f"{said}: cannot write in the folder {folder} ({problem}), where SQLite keeps the database and its"
                " journal: name a file in a folder you can write to.")
    return None


def unwritable(folder: Path) -> str | None:
    """Why a file cannot be made in `folder` (as the system says it), or None if one can: tried, not guessed
    (permission bits say nothing to root, nor about a read-only file system)."""
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".augsburg-probe-")
    except OSError as exc:
        return exc.strerror or str(exc)
    os.close(fd)
    os.unlink(probe)
    return None


def folder_refused(value: str, named: str) -> str | None:
    """One line if `value` cannot be a folder this bot writes into (created if missing), else None."""
    path = Path(value)
    if path.exists() and not path.is_dir():
        return f"{given(named, value)} is a file, not a folder: name a folder (it is created if missing)."
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{given(named, value)}: {existing} is a file, not a folder."
    problem = unwritable(existing)
    if problem:
        return f"{given(named, value)}: cannot write in {existing} ({problem}): name a folder you can write to."
    return None


def file_refused(value: str, named: str) -> str | None:
    """One line if the file `value` cannot be written (a folder, a missing or read-only folder), else None."""
    path = Path(value)
    if path.is_dir():
        return f"{given(named, value)} is a folder: name a file, e.g. {path / 'augsburg.png'}."
    folder = path.parent
    if not folder.is_dir():
        why = "does not exist" if not folder.exists() else "is a file, not a folder"
        return f"{given(named, value)}: the folder {folder} {why}. Name a file in a folder that exists."
    if path.exists() and not os.access(path, os.W_OK):
        return f"{given(named, value)} cannot be written (permission denied): name another file."
    problem = unwritable(folder)
    if problem:
        return f"{given(named, value)}: cannot write in the folder {folder} ({problem}): name a file in a folder you" \
               " can write to."
    return None


def editions_refused(settings: Settings) -> str | None:
    """One line if EDITIONS_DIR is not a folder or DEFAULT_EDITION names no edition; None otherwise (a broken
    file in EDITIONS_DIR is logged when the editions are loaded, and the others are offered)."""
    if settings.editions_dir and not Path(settings.editions_dir).is_dir():
        why = "is not a folder" if Path(settings.editions_dir).exists() else "does not exist"
        return (f"{given('EDITIONS_DIR', settings.editions_dir)} {why}: name the folder of your edition files"
                " (*.toml), or leave it unset for the shipped editions only.")
    if settings.default_edition:
        library = Library.load(settings.editions_dir)
        if library.get(settings.default_edition) is None:
            ids = ", ".join(e.id for e in library.editions())
            return (f"{given('DEFAULT_EDITION', settings.default_edition)} is no edition here: choose one of {ids}"
                    " (or put its file in EDITIONS_DIR), or leave it unset.")
    return None


def bot_refused(settings: Settings) -> str | None:
    """One line if a place the bot's settings name cannot work (its database, BACKUP_DIR, MONITOR_PATH,
    EDITIONS_DIR, DEFAULT_EDITION); None if they can. Nothing is created."""
    refused = database_refused(settings.database, settings.database_setting)
    if refused:
        return refused
    if settings.backup_dir and (refused := folder_refused(settings.backup_dir, "BACKUP_DIR")):
        return refused
    if settings.monitor_path and (refused := file_refused(settings.monitor_path, "MONITOR_PATH")):
        return refused
    return editions_refused(settings)


@contextlib.contextmanager
def quiet(name: str) -> Iterator[None]:
    """The logger `name` and those below it say nothing meanwhile (a failed try is said once, by the caller,
    in its words)."""
    logger = logging.getLogger(name)
    was = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(was)


async def reached(where: str, named: str, what: str) -> str | None:
    """Open the database once, at once (PostgreSQL is tried once, not waited for), and close it: one line
    saying why it could not be opened, or None. `named`: the option or setting that chose it; `what`: what
    did not start, e.g. "the game"."""
    from storage import Store

    try:
        with quiet("storage"):
            store = await Store.open(where, retry_seconds=0)
            await store.close()
    # RuntimeError: a database newer than this code; sqlite3.Error: a file SQLite cannot use after all
    except (StorageError, OSError, ValueError, RuntimeError, sqlite3.Error) as exc:
        url = DatabaseURL.parse(where)
        server = ", and that its server runs and lets you in" if url.kind == "postgresql" else ""
        return f"Could not open the database {url.shown}: {exc}. {what} did not start: check {named}{server}."
    return None
