"""The shape of the code: one direction of dependency, no import circles, small modules (issue 9).

engine <- storage <- bot; inside bot, the wording, the service, the action codes
and the terminal know nothing of discord.py: only bot/discord_app does.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "storage", "bot")
MAX_LINES = 300
DISCORD_FREE = ("bot/wording", "bot/service", "bot/terminal", "bot/picture",
                "bot/app/scheduler.py", "storage", "engine")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules `name` imports (relative imports resolved; a package's __init__ counts)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def test_no_import_circles():
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    # A package's __init__ re-exports its modules; an edge from a module to its own package's
    # __init__ is how Python resolves `from . import x`, not a dependency of design.
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                pytest.fail("import circle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


def test_dependencies_point_one_way():
    known = modules()
    for name, path in known.items():
        layer = name.split(".")[0]
        for target in imports(name, path, known):
            allowed = {"engine": {"engine"}, "storage": {"engine", "storage"}, "bot": set(PACKAGES)}[layer]
            assert target.split(".")[0] in allowed, f"{name} imports {target}"


def test_only_the_discord_front_end_imports_discord():
    for prefix in DISCORD_FREE:
        base = ROOT / prefix
        for path in [base] if base.suffix == ".py" else base.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                    [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
                assert not any(n.split(".")[0] == "discord" for n in names), f"{path} imports discord"


def test_modules_stay_small():
    for name, path in modules().items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= MAX_LINES, f"{name} has {lines} lines; split it by concern (or say why in its docstring)"


FRONT_ENDS = ("bot/discord_app", "bot/terminal", "bot/wording")


def test_front_ends_reach_storage_only_through_the_service():
    """Discord, the terminal and the wording import from storage only the typed records, statistics and
    errors the storage contract speaks in: never the store, a backend, or SQL (issue 26)."""
    import storage

    typed = set(storage.__all__) - {"Store"}
    for prefix in FRONT_ENDS:
        for path in (ROOT / prefix).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    assert not any(a.name.split(".")[0] == "storage" for a in node.names), path
                if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("storage"):
                    assert node.module in ("storage", "storage.records"), f"{path} imports {node.module}"
                    if node.module == "storage":
                        assert {a.name for a in node.names} <= typed, f"{path} imports {[a.name for a in node.names]}"


def test_storage_never_imports_the_computer_players():
    for name, path in modules().items():
        if name.startswith("storage"):
            assert not any(t.startswith("engine.ai") for t in imports(name, path, modules())), name


# Inside bot: running the process on top; the front-ends (Discord, the terminal) below it; the service (with the
# table's rules), the wording and the pictures below them. Each layer imports only layers below it (issue 41).
BOT_LAYERS = {
    "bot.app": {"bot.app", "bot.discord_app", "bot.terminal", "bot.service", "bot.wording", "bot.picture"},
    "bot.discord_app": {"bot.discord_app", "bot.service", "bot.wording", "bot.picture"},
    "bot.terminal": {"bot.terminal", "bot.service", "bot.wording", "bot.picture"},
    "bot.picture": {"bot.picture", "bot.wording"},
    "bot.service": {"bot.service", "bot.wording.languages"},  # which languages a table may be in: no words
    "bot.wording": {"bot.wording"},
}


def test_inside_bot_each_layer_imports_only_those_below():
    known = modules()
    for name, path in known.items():
        if not name.startswith("bot.") or name.count(".") < 1:
            continue
        layer = ".".join(name.split(".")[:2])
        if layer not in BOT_LAYERS:
            assert name in ("bot.__main__",), f"{name} belongs to no layer"
            continue
        for target in imports(name, path, known):
            if target.startswith("bot."):
                allowed = BOT_LAYERS[layer]
                assert ".".join(target.split(".")[:2]) in allowed or target in allowed, f"{name} imports {target}"


def _project_classes() -> dict[str, ast.ClassDef]:
    found = {}
    for name, path in modules().items():
        if name.startswith("bot"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    found[node.name] = node
    return found


def test_no_mixins_in_bot():
    """No class of bot/ is made of mixins: a class that another class mixes in beside other bases must be a
    whole class of its own (it derives from something), not a bundle of methods using attributes it does not
    define (issue 41)."""
    classes = _project_classes()

    def base_names(node: ast.ClassDef) -> list[str]:
        names = []
        for base in node.bases:
            target = base.value if isinstance(base, ast.Subscript) else base
            names.append(target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", ""))
        return names

    for node in classes.values():
        assert not node.name.endswith("Mixin"), node.name
        bases = [b for b in base_names(node) if b not in ("Generic", "Protocol")]
        if len(bases) < 2:
            continue
        for base in bases:
            mixed = classes.get(base)
            assert mixed is None or base_names(mixed), f"{node.name} mixes in {base}, a class with no base of its own"


RULES = {"engine": {"legal_actions", "only_action", "to_act", "is_legal", "apply"},
         "bot.service.turns": {"people_due", "computers_due", "bot_decides", "tracked", "on_clock", "next_up"},
         "bot.service.automatic": {"automatic", "planned_action", "ahead_choices"}}


def test_front_ends_render_what_the_service_shows_and_never_rederive_the_rules():
    """Who is due, whom the bot moves and each person's options come from the service (`Outcome.due`,
    `service.games.due` / `decision`): the Discord front-end and the terminal never call the engine's rules
    or the turn clock themselves (issue 41)."""
    checked = 0
    for name, path in modules().items():
        if not name.startswith(("bot.discord_app", "bot.terminal")):
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    module = ".".join([*anchor, *([module] if module else [])])
                taken = {a.name for a in node.names} & RULES.get(module, set())
                assert not taken, f"{name} imports {sorted(taken)} from {module}"
                checked += 1
    assert checked > 100  # the imports were read
