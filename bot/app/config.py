"""Settings from the environment and `.env` (pydantic-settings); see .env.example."""

from __future__ import annotations

import logging

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from engine.ai.levels import THINK_SECONDS
from engine.editions import Library

log = logging.getLogger(__name__)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: str = "./augsburg.sqlite3"
    # sqlite:///path/to/file.sqlite3 or postgresql://user@host/db; wins over DATABASE_PATH when both are set.
    database_url: str | None = None
    # PostgreSQL only: how long a lost server is waited for (tries with backoff) before a player is told that
    # nothing was applied.
    database_retry_seconds: float = Field(10.0, ge=0)
    discord_guild_id: int | None = None  # sync commands to this guild at once instead of globally
    log_level: str = "INFO"
    discord_api_base: str | None = None  # e.g. http://127.0.0.1:8080/api/v10 for a Discord-compatible server
    discord_gateway_url: str | None = None  # e.g. ws://127.0.0.1:8080/gateway
    table_edit_delay: float = 1.0  # seconds: moves within this window become one table edit
    computer_delay: float = 2.0  # seconds a computer player waits before it moves
    # Strong computer players play out a fixed amount of work per decision (their strength, the same on a busy
    # machine); this is only a safety cap on one decision's wall time. In worker processes (0: a thread of the bot's).
    computer_think_seconds: float = Field(THINK_SECONDS, gt=0)
    computer_workers: int = Field(1, ge=0)
    table_pictures: bool = True  # the table message carries a picture of the table (Pillow)
    picture_processes: int = Field(0, ge=0)  # worker processes that draw them; 0: a thread of the bot's
    pictures_per_second: float = Field(8.0, ge=0)  # drawings at most, over all tables (0: no limit)
    # Message operations the bot allows itself per channel in 5 s. Discord allows 5, but discord.py holds
    # back the request that empties a bucket for the whole reset: one spare keeps that from happening.
    channel_ops_per_5s: int = 4
    # Over all channels, and over all the bot's processes (Discord: 50 per bot token; a margin for requests that
    # bunch in transit): each process paces itself at its shards' part of it (bot/shards.py).
    requests_per_second: float = 35.0
    monitor_path: str | None = None  # write event-loop pauses, GC pauses and memory here (benchmarks)
    turn_timeout_seconds: int = 86400  # time per decision for new tables (the host can change it); 0: none
    reminder_seconds: float | None = None  # a reminder this long before the deadline; unset: half the time
    # A player who used their panel this recently (and whose panel follows the game) is watching: their next
    # decision shows up there, and their ping goes out only if they have not decided this long after it.
    watch_seconds: float = Field(300.0, ge=0)
    # One process per database: the bot renews a lease in the file every third of this many seconds. A holder
    # that died on this host is taken over at once (storage/sqlite/host_lock.py); one elsewhere, or frozen, once
    # its heartbeat is this old.
    lease_seconds: float = 30.0
    # For tests and for dealing a reported game again only: every game's deck then follows from this and the
    # game's number, so anyone who knows it can predict every hand. Unset (always, on a live bot): unpredictable.
    deal_seed: int | None = None
    # Start-up retries of login and command sync after a network error or a 5xx from Discord: the first wait
    # in seconds, doubled each time up to the cap. A refused token (401) is not retried.
    startup_retry_first: float = 1.0
    startup_retry_max: float = 60.0
    # Online backups of the database (storage/sqlite/backup.py): a checked copy every so often, the newest kept.
    backup_dir: str | None = None  # unset: no backups
    backup_every_seconds: float = Field(3600.0, gt=0)
    backup_keep: int = Field(24, ge=1)
    # Editions (engine/editions): an operator's own edition files (*.toml), offered besides the shipped ones,
    # and the one new tables get unless the host picks another (default: the shipped estimates-1).
    editions_dir: str | None = None
    default_edition: str | None = None
    # Discord's shards (bot/shards.py): how many the whole bot has, and which this process owns ("0,1"; unset:
    # all). Several processes, each with its own shards, need PostgreSQL; SQLite serves one process.
    shard_count: int = 1
    shard_ids: str | None = None

    @property
    def database(self) -> str:
        """The database the bot serves: DATABASE_URL, else the SQLite file at DATABASE_PATH."""
        return self.database_url.strip() if self.database_url and self.database_url.strip() else self.database_path


def editions_of(settings: Settings) -> Library:
    """The editions this bot offers and loads games with; what could not be used is logged, once."""
    library = Library.load(settings.editions_dir, settings.default_edition)
    for problem in library.problems:
        log.error("editions: %s", problem)
    return library
