"""DATABASE_URL: which database, and which backend serves it.

    sqlite:///augsburg.sqlite3           a file, relative to the working folder
    sqlite:////srv/augsburg.sqlite3      an absolute path (four slashes, as SQLAlchemy writes it)
    postgresql://user:secret@host:5432/augsburg   (postgres:// too, as Heroku writes it)
    postgresql://user@/augsburg?host=/run/postgresql   a unix socket

A bare path (DATABASE_PATH, `--database`) is a SQLite file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

SQLITE = "sqlite:///"
POSTGRES = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class DatabaseURL:
    kind: str  # 'sqlite' | 'postgresql'
    path: str | None = None  # SQLite's file
    dsn: str | None = None  # PostgreSQL's connection string, as asyncpg takes it

    @classmethod
    def parse(cls, where: str | Path) -> DatabaseURL:
        if isinstance(where, Path):
            return cls("sqlite", path=str(where))
        if where.startswith(SQLITE):
            if not where[len(SQLITE):]:
                raise ValueError("sqlite:/// names no file")
            return cls("sqlite", path=where[len(SQLITE):])
        if where.startswith(POSTGRES):
            return cls("postgresql", dsn="postgresql://" + where.split("://", 1)[1])
        if "://" in where:
            raise ValueError(f"unknown database URL {where.split('://', 1)[0]}:// (use sqlite:/// or postgresql://)")
        return cls("sqlite", path=where)

    @property
    def shown(self) -> str:
        """For logs and messages: the file, or the URL without its password."""
        if self.dsn is None:  # SQLite's file
            return self.path or ""
        parts = urlsplit(self.dsn)
        if parts.password is None:
            return self.dsn
        user = parts.username or ""
        host = parts.netloc.rpartition("@")[2]
        return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
