import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))
# Each test says which database it uses: an operator's DATABASE_URL must not reach the bots the tests start.
os.environ.pop("DATABASE_URL", None)
# `augsburg play` without a database keeps its games in the user's data folder (platformdirs, which follows
# XDG_DATA_HOME): the tests' go to a folder of their own, never the user's.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="augsburg-tests-data-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], True)


import pytest  # noqa: E402

pytest_plugins = ["support.bot_support", "support.postgres"]  # the bot harness; a PostgreSQL server
BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(params=BACKENDS)
def database(request, tmp_path):
    """Where a fresh database is, on each backend in turn: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
async def store(database):
    """A fresh database of games on each backend (the storage contract's tests run on both), closed after."""
    from storage import Store

    s = await Store.open(database)
    yield s
    await s.close()


@pytest.fixture
async def sqlite_store(tmp_path):
    """A fresh SQLite database, for the tests that open its file themselves."""
    from storage import Store

    s = await Store.open(tmp_path / "games.sqlite3")
    yield s
    await s.close()


@pytest.fixture(autouse=True)
def _shared_games_stay_unchanged(monkeypatch):
    """Every bot in the tests keeps its games in a cache that fails if a record it shares is changed in place."""
    from support.shared_games import CheckedGameCache

    monkeypatch.setattr("bot.service.core.GameCache", CheckedGameCache)
