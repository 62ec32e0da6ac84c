"""PostgreSQL for the tests: a server (TEST_POSTGRES_URL, else a throwaway one started by .ci/postgres for
this session), and a fresh database of its own for each test that asks.

Without a server the PostgreSQL tests skip, with one line saying why; under CI=true they fail instead,
so CI never passes without running them.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "postgres"
WHY = ("PostgreSQL tests skipped: no PostgreSQL server (set TEST_POSTGRES_URL, or install Debian's postgresql "
       "package so that .ci/postgres can start a throwaway one)")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def postgres_server():
    """The admin URL of a PostgreSQL server (its `postgres` database)."""
    url = os.environ.get("TEST_POSTGRES_URL")
    started = None
    if not url:
        try:
            out = subprocess.run(["bash", str(SCRIPT), "start"], capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.SubprocessError) as exc:
            out = subprocess.CompletedProcess([], 1, "", str(exc))
        if out.returncode != 0:
            if in_ci():
                pytest.fail(f"CI=true but no PostgreSQL server could be started: {out.stderr.strip()[-500:]}")
            pytest.skip(WHY)
        found = dict(part.split("=", 1) for part in out.stdout.strip().removeprefix("export ").split(" "))
        url, started = found["TEST_POSTGRES_URL"].strip("'"), found["TEST_POSTGRES_DIR"].strip("'")
    yield url
    if started:
        subprocess.run(["bash", str(SCRIPT), "stop", started], capture_output=True, timeout=120)


def database_url(admin: str, name: str) -> str:
    return urlunsplit(urlsplit(admin)._replace(path=f"/{name}"))


async def admin_execute(admin: str, sql: str) -> None:
    import asyncpg

    con = await asyncpg.connect(admin)
    try:
        await con.execute(sql)
    finally:
        await con.close()


@pytest.fixture
async def postgres_url(postgres_server):
    """A fresh, empty database on the test server, dropped afterwards."""
    name = f"augsburg_test_{uuid.uuid4().hex[:12]}"
    await admin_execute(postgres_server, f"CREATE DATABASE {name}")
    yield database_url(postgres_server, name)
    await admin_execute(postgres_server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
