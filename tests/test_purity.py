"""The engine stays pure: no discord, no database, no bot or storage code (ARCHITECTURE)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"
FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "bot", "storage", "asyncio", "socket"}
# The standard library may pull in socket or asyncio by itself; the project's own layers must never load.
NEVER_LOADED = {"discord", "aiosqlite", "sqlite3", "bot", "storage"}


def test_engine_source_imports_nothing_forbidden():
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


def test_importing_the_engine_loads_no_forbidden_module():
    code = (
        "import sys, engine, engine.scenario, engine.bench, engine.views;"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {NEVER_LOADED!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parent, check=True)
    assert out.stdout.strip() == "[]"
