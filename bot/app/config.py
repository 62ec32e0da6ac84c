"""Settings from the environment and `.env` (pydantic-settings); see .env.example.

An empty value (`DISCORD_GUILD_ID=`, as .env.example ships it) means "not set": the default applies.
`read_settings()` turns whatever is wrong into one line that names each wrong setting and what it takes.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from engine.ai.levels import THINK_SECONDS
from engine.editions import Library
from storage.url import DatabaseURL

log = logging.getLogger(__name__)

DEFAULT_DATABASE = "./augsburg.sqlite3"  # the bot's, beside its .env (the folder it is started in)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
LOG_FORMATS = ("text", "json")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore",
                                      env_ignore_empty=True, allow_inf_nan=False)

    discord_token: SecretStr | None = None
    database_path: str | None = None  # unset: DEFAULT_DATABASE for the bot, the user's data folder for `augsburg play`
    # sqlite:///path/to/file.sqlite3 or postgresql://user@host/db; wins over DATABASE_PATH when both are set.
    database_url: str | None = None
    # PostgreSQL only: how long a lost server is waited for (tries with backoff) before a player is told that
    # nothing was applied.
    database_retry_seconds: float = Field(10.0, ge=0)
    # PostgreSQL only: connections each process opens for writes (reads get half as many more, the lease one).
    # A write holds its connection for its whole transaction, so under load too few queue moves for seconds.
    database_pool_size: int = Field(20, ge=1)
    discord_guild_id: int | None = Field(None, gt=0)  # sync commands to this guild at once instead of globally
    log_level: str = "INFO"
    discord_api_base: str | None = None  # e.g. http://127.0.0.1:8080/api/v10 for a Discord-compatible server
    discord_gateway_url: str | None = None  # e.g. ws://127.0.0.1:8080/gateway
    table_edit_delay: float = Field(1.0, ge=0)  # seconds: moves within this window become one table edit
    computer_delay: float = Field(2.0, ge=0)  # seconds a computer player waits before it moves
    # Strong computer players play out a fixed amount of work per decision (their strength, the same on a busy
    # machine); this is only a safety cap on one decision's wall time. In worker processes (0: a thread of the bot's).
    computer_think_seconds: float = Field(THINK_SECONDS, gt=0)
    computer_workers: int = Field(1, ge=0)
    table_pictures: bool = True  # the table message carries a picture of the table (Pillow)
    # Worker processes that draw them; 0: a thread of the bot's, whose share of the interpreter lock slows every
    # answer under load (docs/benchmarks.md, "Pictures in a worker process again").
    picture_processes: int = Field(1, ge=0)
    pictures_per_second: float = Field(8.0, ge=0)  # drawings at most, over all tables (0: no limit)
    # Message operations the bot allows itself per channel in 5 s. Discord allows 5, but discord.py holds
    # back the request that empties a bucket for the whole reset: one spare keeps that from happening.
    channel_ops_per_5s: int = Field(4, ge=1)
    # Over all channels, and over all the bot's processes (Discord: 50 per bot token; a margin for requests that
    # bunch in transit): each process paces itself at its shards' part of it (bot/shards.py).
    requests_per_second: float = Field(35.0, gt=0)
    monitor_path: str | None = None  # write event-loop pauses, GC pauses and memory here (benchmarks)
    turn_timeout_seconds: int = Field(86400, ge=0)  # time per decision for new tables (the host can change it); 0: none
    reminder_seconds: float | None = Field(None, ge=0)  # a reminder this long before the deadline; unset: half the time
    # A player who used their panel this recently (and whose panel follows the game) is watching: their next
    # decision shows up there, and their ping goes out only if they have not decided this long after it.
    watch_seconds: float = Field(300.0, ge=0)
    # One process per database: the bot renews a lease in the file every third of this many seconds. A holder
    # that died on this host is taken over at once (storage/sqlite/host_lock.py); one elsewhere, or frozen, once
    # its heartbeat is this old.
    lease_seconds: float = Field(30.0, gt=0)
    # For tests and for dealing a reported game again only: every game's deck then follows from this and the
    # game's number, so anyone who knows it can predict every hand. Unset (always, on a live bot): unpredictable.
    deal_seed: int | None = None
    # Start-up retries of login and command sync after a network error or a 5xx from Discord: the first wait
    # in seconds, doubled each time up to the cap. A refused token (401) is not retried.
    startup_retry_first: float = Field(1.0, gt=0)
    startup_retry_max: float = Field(60.0, gt=0)
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
    # Operators (bot/app/ops.py): Prometheus metrics, /healthz and /readyz on this port (unset: off), bound to
    # METRICS_HOST (default: this machine only); LOG_FORMAT=json: one JSON object per log line; on SIGTERM the
    # moves in flight get up to DRAIN_SECONDS to finish (new clicks are told to try again in a moment).
    metrics_port: int | None = Field(None, ge=1, le=65535)
    metrics_host: str = "127.0.0.1"
    log_format: str = "text"
    drain_seconds: float = Field(20.0, ge=0, le=25)

    @field_validator("log_format")
    @classmethod
    def _a_log_format(cls, value: str) -> str:
        form = value.strip().lower()
        if form not in LOG_FORMATS:
            raise ValueError(f"is no log format: use {' or '.join(LOG_FORMATS)}")
        return form

    @field_validator("metrics_host")
    @classmethod
    def _a_host(cls, value: str) -> str:
        if not value.strip() or any(c.isspace() or c in "/:" for c in value.strip().strip("[]").replace("::", "")):
            raise ValueError("is no host name or address, e.g. 127.0.0.1 or 0.0.0.0")
        return value.strip()

    @field_validator("log_level")
    @classmethod
    def _a_log_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in (*LOG_LEVELS, "CRITICAL", "WARN"):
            raise ValueError(f"is no log level: use {', '.join(LOG_LEVELS[:-1])} or {LOG_LEVELS[-1]}")
        return level

    @field_validator("database_url", "database_path")
    @classmethod
    def _a_database(cls, value: str | None) -> str | None:
        if value is not None:
            value = value.strip()
            try:
                DatabaseURL.parse(value)
            except ValueError as exc:
                raise ValueError(f"cannot be used: {exc}") from None
        return value or None

    @field_validator("discord_api_base")
    @classmethod
    def _an_http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.strip().startswith(("http://", "https://")):
            raise ValueError("is no http:// or https:// address, e.g. http://127.0.0.1:8080/api/v10")
        return value.strip() if value is not None else None

    @field_validator("discord_gateway_url")
    @classmethod
    def _a_websocket_url(cls, value: str | None) -> str | None:
        if value is not None and not value.strip().startswith(("ws://", "wss://")):
            raise ValueError("is no ws:// or wss:// address, e.g. ws://127.0.0.1:8080/gateway")
        return value.strip() if value is not None else None

    @property
    def database(self) -> str:
        """The database the bot serves: DATABASE_URL, else the SQLite file at DATABASE_PATH (default
        ./augsburg.sqlite3)."""
        return self.database_url or self.database_path or DEFAULT_DATABASE

    @property
    def database_setting(self) -> str:
        """The setting that named `database`, for messages about it."""
        return "DATABASE_URL" if self.database_url else "DATABASE_PATH"


class WrongSettings(Exception):
    """Settings that cannot work; str(): one line naming each wrong setting and what it takes."""


def read_settings(**given: Any) -> Settings:
    """The settings from the environment and .env, or WrongSettings in the operator's words (not pydantic's)."""
    try:
        return Settings(**given)
    except ValidationError as exc:
        raise WrongSettings(wrong_settings(exc)) from None


# What a value of each kind must look like, by pydantic's error type.
_SHOULD_BE = {"int_parsing": "is not a whole number (digits 0-9)", "int_from_float": "is not a whole number",
              "int_type": "is not a whole number", "float_parsing": "is not a number (e.g. 2.5)",
              "float_type": "is not a number (e.g. 2.5)", "finite_number": "is not a finite number",
              "bool_parsing": "is neither true nor false", "bool_type": "is neither true nor false"}


def wrong_settings(exc: ValidationError) -> str:
    """One line for a ValidationError of Settings: each wrong setting with its value and what it must be."""
    said: dict[str, str] = {}
    for error in exc.errors():
        name = str(error["loc"][0]).upper() if error["loc"] else "A setting"
        if name in said:  # (a union type reports each of its members)
            continue
        kind, context = error["type"], error.get("ctx") or {}
        if kind in _SHOULD_BE:
            problem = _SHOULD_BE[kind]
        elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
            bound = next(iter(context.values()))
            problem = {"greater_than_equal": f"must be {bound} or more", "greater_than": f"must be more than {bound}",
                       "less_than_equal": f"must be {bound} or less", "less_than": f"must be less than {bound}"}[kind]
        elif kind == "value_error":
            problem = str(context.get("error", error["msg"]))
        else:
            problem = error["msg"][:1].lower() + error["msg"][1:]
        said[name] = f"{name}={error['input']!r} {problem}"
    them = "it" if len(said) == 1 else "them"
    return f"{'; '.join(said.values())}. Correct {them} in the environment or in .env (see .env.example)."


def user_database() -> Path:
    """Where `augsburg play` keeps its games when no database is configured: the user's data folder (the
    same from any working folder, e.g. ~/.local/share/augsburg-bot on Linux), created if need be."""
    import platformdirs

    folder = platformdirs.user_data_path("augsburg-bot", appauthor=False)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "augsburg.sqlite3"


def play_database(settings: Settings) -> tuple[str, str]:
    """`augsburg play`'s database when --database is not given, and the setting that named it: DATABASE_URL,
    else DATABASE_PATH, else the user's data folder (user_database)."""
    if settings.database_url or settings.database_path:
        return settings.database, settings.database_setting
    return str(user_database()), "the default database"


def editions_of(settings: Settings) -> Library:
    """The editions this bot offers and loads games with; what could not be used is logged, once."""
    library = Library.load(settings.editions_dir, settings.default_edition)
    for problem in library.problems:
        log.error("editions: %s", problem)
    return library
