import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))


import pytest  # noqa: E402

pytest_plugins = ["support.bot_support"]  # the `harness` fixture for the bot tests


@pytest.fixture
async def store(tmp_path):
    """A fresh database of games, closed after the test."""
    from storage import Store

    s = await Store.open(tmp_path / "games.sqlite3")
    yield s
    await s.close()
