"""`augsburg copy-database --from URL --to URL`: moving a bot's data (storage/copy.py), in the operator's
words: what was copied, that it checks out, or why nothing was copied."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable

from storage import StorageError
from storage.copy import CopyRefused, copy_database

from .config import Settings, editions_of
from .preflight import quiet

TABLE_NAMES = {"actions": "moves", "table_log": "table events", "deadlines": "deadlines", "game_notes": "game notes",
               "player_results": "results", "noble_wins": "auctions won (per player and noble)",
               "player_totals": "players' totals", "player_settings": "player settings",
               "guild_settings": "server settings", "meta": "facts (e.g. the commands synced)"}


def copy_command(source: str, target: str, settings: Settings | None = None,
                 say: Callable[[str], object] = print) -> int:
    """0 if everything was copied and checks out on the target; 1 if refused or failed (the target unchanged).
    `settings`: whose editions the games are checked with (default: read them)."""
    try:
        with quiet("storage"):  # (a server out of reach is waited for, then said once, below: not every try)
            settings = settings or Settings()
            done = asyncio.run(copy_database(source, target, editions=editions_of(settings),
                                             retry_seconds=settings.database_retry_seconds))
    except CopyRefused as exc:
        say(f"Nothing was copied: {exc}.")
        return 1
    # RuntimeError: a database newer than this code; sqlite3.Error: a SQLite file that cannot be used after all
    except (StorageError, OSError, ValueError, RuntimeError, sqlite3.Error) as exc:
        say(f"Nothing was copied: {exc}")
        return 1
    statuses = ", ".join(f"{n} {status}" for status, n in sorted(done.statuses.items()))
    say(f"Copied {done.source} to {done.target}:")
    say(f"  games: {done.rows['games']}" + (f" ({statuses})" if statuses else ""))
    for table, name in TABLE_NAMES.items():
        say(f"  {name}: {done.rows[table]}")
    say(f"Checked on the target: {done.checked} games load and their hash chains verify.")
    for game_id, why in done.damaged:
        say(f"  game {game_id} was already damaged in the source ({why}): copied as it was.")
    for game_id, why in done.unchecked:
        say(f"  game {game_id} copied but not checked: {why} (set EDITIONS_DIR to check it).")
    return 0
