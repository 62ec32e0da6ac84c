"""The bot's side of backups: one taken every BACKUP_EVERY_SECONDS in the background, the line
`python -m bot` prints instead of starting on a damaged database, and what `augsburg restore` says.

The copying and checking is storage's (storage/sqlite/backup.py, restore.py); this is the timing, the
logging and the words for the operator. All of it is SQLite's: a PostgreSQL server is backed up and
restored by its operator's own tools (pg_dump, base backups and WAL archiving), so there BACKUP_DIR and
`augsburg restore` refuse, saying so.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from storage.backups import NoGoodBackup, StillServed, StillSound, back_up, backups, damage, restore, taken_at
from storage.url import DatabaseURL

from .config import Settings

if TYPE_CHECKING:
    from ..service import GameService

log = logging.getLogger(__name__)


class Backups:
    """A background task: a backup whenever the newest is BACKUP_EVERY_SECONDS old, across restarts too.
    A failed backup is logged and tried again after the same interval; it never stops the bot."""

    def __init__(self, database: str | Path, folder: str | Path, every: float, keep: int):
        self.database, self.folder, self.every, self.keep = Path(database), Path(folder), every, keep
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="database backups")

    async def stop(self) -> None:
        """Stop waiting. A copy under way finishes in its thread (it is renamed into place only if whole)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        await asyncio.sleep(self._first_due())
        while True:
            await self.once()
            await asyncio.sleep(self.every)

    def _first_due(self) -> float:
        """Seconds until the next backup is due: a restart does not put the schedule back to zero."""
        try:
            newest = backups(self.database, self.folder)[:1]
        except OSError:
            newest = []
        age = time.time() - taken_at(newest[0]).timestamp() if newest else self.every
        return max(0.0, self.every - age)

    async def once(self) -> Path | None:
        started = time.perf_counter()
        try:
            path = await asyncio.to_thread(back_up, self.database, self.folder, self.keep)
        except Exception:  # a full disk, a missing folder, a damaged copy: logged, and the bot goes on
            log.exception("backup of %s into %s failed; next try in %.0f s", self.database, self.folder, self.every)
            return None
        log.info("backed up %s to %s in %.2f s (%d KB)", self.database, path, time.perf_counter() - started,
                 path.stat().st_size // 1024)
        return path


PG_BACKUPS = ("back up a PostgreSQL database with its own tools: pg_dump for a copy, or base backups with WAL"
              " archiving (or your provider's point-in-time recovery); see the README")


def backups_refused(settings: Settings) -> str | None:
    """One line for stderr if BACKUP_DIR is set for a database that is not a SQLite file."""
    url = DatabaseURL.parse(settings.database)
    if not settings.backup_dir or url.kind == "sqlite":
        return None
    return (f"BACKUP_DIR is set, but the database is PostgreSQL ({url.shown}): the bot's backups copy SQLite files "
            f"only, so it did not start. Unset BACKUP_DIR and {PG_BACKUPS}.")


def start_backups(settings: Settings, service: GameService) -> Backups | None:
    """The backup task if BACKUP_DIR is set and the database is a SQLite file (started: call from the
    running loop)."""
    if not settings.backup_dir or service.kind != "sqlite":
        return None
    task = Backups(service.where, settings.backup_dir, settings.backup_every_seconds, settings.backup_keep)
    task.start()
    return task


def damaged_database(settings: Settings) -> str | None:
    """One line for stderr if the SQLite database is damaged, naming the command that restores it; None if
    sound (and for PostgreSQL, which checks its own pages)."""
    url = DatabaseURL.parse(settings.database)
    if url.kind != "sqlite":
        return None
    assert url.path is not None  # a SQLite database is a file
    problem = damage(url.path)
    if problem is None:
        return None
    command = f"augsburg restore --database {shlex.quote(url.path)}"
    if settings.backup_dir:
        return (f"The database {url.path} is damaged ({problem}); the bot did not start. "
                f"`{command} --from {shlex.quote(settings.backup_dir)}` puts back the newest good backup "
                "(the damaged file is kept aside).")
    return (f"The database {url.path} is damaged ({problem}); the bot did not start. "
            f"BACKUP_DIR is not set: `{command} --from DIR` puts back the newest good backup in DIR, if you have one.")


def restore_command(database: str, folder: str | None, force: bool, say: Callable[[str], object] = print) -> int:
    """`augsburg restore`: what it did, line by line; 0 if restored, 1 if it refused (nothing changed)."""
    url = DatabaseURL.parse(database)
    if url.kind != "sqlite":
        say(f"{url.shown} is a PostgreSQL database: `augsburg restore` puts back the bot's SQLite backups only. "
            f"Nothing was changed; {PG_BACKUPS}.")
        return 1
    assert url.path is not None  # a SQLite database is a file
    database = url.path
    if not folder:
        say("Where are the backups? Pass --from DIR or set BACKUP_DIR. Nothing was changed.")
        return 2
    try:
        done = restore(database, folder, force=force)
    except NoGoodBackup as exc:
        for path, why in exc.damaged:
            say(f"Backup {path} is damaged: {why}")
        say(f"Nothing was changed: {exc}.")
        return 1
    except StillServed as exc:
        say(f"A bot still runs on this database ({exc}): stop it first. Nothing was changed.")
        return 1
    except StillSound:
        say(f"{database} passes its check: nothing was changed. Restoring would lose everything since the "
            "backup; add --force to restore anyway.")
        return 1
    for path, why in done.skipped:
        say(f"Skipped backup {path}: damaged ({why}).")
    for was, now in done.moved:
        say(f"Moved the damaged {was} aside to {now}.")
    taken = taken_at(done.backup).strftime("%Y-%m-%d %H:%M:%S UTC")
    say(f"Restored {done.database} from {done.backup} (taken {taken}); what was played after that is not in it.")
    return 0
