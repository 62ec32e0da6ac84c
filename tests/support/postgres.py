"""PostgreSQL for the tests: a server (TEST_POSTGRES_URL, else a throwaway one started by .ci/postgres for
this session and stopped at its end), and a fresh database of its own for each test that asks.

Without a server, the PostgreSQL tests are left out with one line saying why; under CI=true they fail
instead, so CI never passes without running them.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "postgres"
WHY = ("no PostgreSQL server (set TEST_POSTGRES_URL, or install Debian's postgresql package so that "
       ".ci/postgres can start a throwaway one)")
_server: dict = {}  # url, or why not; the folder of a server started here


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def needs_postgres(item) -> bool:
    params = getattr(getattr(item, "callspec", None), "params", {})
    return bool({"postgres_server", "postgres_url"} & set(item.fixturenames)) or params.get("database") == "postgresql"


def _start() -> None:
    """Find or start the server, once per session."""
    if _server:
        return
    url = os.environ.get("TEST_POSTGRES_URL")
    if url:
        _server["url"] = url
        return
    if url == "":  # set, and empty: .ci/run tried to start one and could not
        _server["why"] = WHY
        return
    try:
        out = subprocess.run(["bash", str(SCRIPT), "start"], capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        out = subprocess.CompletedProcess([], 1, "", str(exc))
    if out.returncode != 0:
        _server["why"] = f"{WHY}: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else 'it failed'}"
        return
    found = dict(part.split("=", 1) for part in out.stdout.strip().removeprefix("export ").split(" "))
    _server["url"], _server["started"] = found["TEST_POSTGRES_URL"].strip("'"), found["TEST_POSTGRES_DIR"].strip("'")


def pytest_collection_modifyitems(config, items):
    wanted = [item for item in items if needs_postgres(item)]
    if not wanted:
        return
    _start()
    if "url" in _server or in_ci():  # under CI the tests run, and fail without a server
        return
    items[:] = [item for item in items if not needs_postgres(item)]
    config.hook.pytest_deselected(items=wanted)
    _server["left_out"] = len(wanted)


def pytest_terminal_summary(terminalreporter):
    if _server.get("left_out"):
        terminalreporter.write_line(f"PostgreSQL: {_server['left_out']} tests not run: {_server['why']}",
                                    yellow=True)


def pytest_unconfigure(config):
    if _server.get("started"):
        subprocess.run(["bash", str(SCRIPT), "stop", _server.pop("started")], capture_output=True, timeout=120)


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The admin URL of a PostgreSQL server (its `postgres` database)."""
    _start()
    if "url" not in _server:
        pytest.fail(f"CI=true but {_server['why']}") if in_ci() else pytest.skip(_server["why"])
    return _server["url"]


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
