import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))


pytest_plugins = ["support.bot_support"]  # the `harness` fixture for the bot tests
