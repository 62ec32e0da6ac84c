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
        "import sys, engine, engine.scenario, engine.randomplay, engine.views;"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {NEVER_LOADED!r}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parent, check=True)
    assert out.stdout.strip() == "[]"


def engine_imports() -> dict[str, set[str]]:
    """For each engine module (dotted name below engine), the engine modules it imports."""
    graph: dict[str, set[str]] = {}
    for path in ENGINE.rglob("*.py"):
        parts = path.relative_to(ENGINE).with_suffix("").parts
        name = ".".join(p for p in parts if p != "__init__")
        package = parts[:-1]  # where a relative import starts from
        found = graph.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = list(package[: len(package) - node.level + 1])
                if node.module:
                    found.add(".".join(base + node.module.split(".")))
                else:  # from . import a, b
                    found.update(".".join(base + [a.name]) for a in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine."):
                found.add(node.module.removeprefix("engine."))
            elif isinstance(node, ast.Import):
                found.update(a.name.removeprefix("engine.") for a in node.names if a.name.startswith("engine."))
    return {name: {m for m in deps if m in graph and m != name} for name, deps in graph.items()}


def test_engine_modules_import_no_cycle():
    graph = engine_imports()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(name):] + [name]))
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, path + [name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
    assert {"game", "flow", "auction", "ai.player"} <= set(graph), "the import graph misses modules"


PHASES = {"auction", "privileges", "purchase", "round_end", "shortage"}


def test_phase_modules_import_neither_each_other_nor_flow():
    graph = engine_imports()
    for phase in PHASES:
        forbidden = graph[phase] & (PHASES | {"flow", "game"})
        assert not forbidden, f"{phase} imports {sorted(forbidden)}"
    assert PHASES <= graph["flow"] and "flow" in graph["game"]
