"""Scenario runner: `python -m engine.scenario FILE_OR_DIR [...]` (SCENARIOS.md)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from .actions import BadAction, parse_action
from .game import apply
from .position import SetupError, build
from .report import report

# Lists that compare in order; every other list compares as a multiset.
_ORDERED = ("to_act", "step_supply", "tile_stacks")


class ScenarioFailure(Exception):
    pass


def run(data: dict[str, Any]) -> None:
    """Run one scenario (its JSON: Any); raises ScenarioFailure with the first failing step and why."""
    try:
        state, _ = build(data["setup"])
    except (SetupError, KeyError, TypeError, ValueError) as exc:
        raise ScenarioFailure(f"setup: {exc}") from None
    for number, step in enumerate(data.get("steps", []), start=1):
        if "check" in step:
            _check(report(state), step["check"], number)
            continue
        fields = {k: v for k, v in step.items() if k not in ("player", "expect")}
        try:
            action = parse_action(fields)
        except BadAction as exc:
            raise ScenarioFailure(f"step {number}: {exc}") from None
        before = state.model_dump_json()
        result = apply(state, step.get("player"), action)
        if step.get("expect") == "error":
            if result.ok:
                raise ScenarioFailure(f"step {number}: {_describe(step)} was accepted but must be refused")
            if state.model_dump_json() != before:
                raise ScenarioFailure(f"step {number}: a refused action changed the state")
        elif not result.ok:
            refusal = f"{result.code} {json.dumps(result.params)}"
            raise ScenarioFailure(f"step {number}: {_describe(step)} was refused: {refusal}")
        else:
            state = result.state


def _describe(step: dict[str, Any]) -> str:
    rest = {k: v for k, v in step.items() if k not in ("player", "do", "expect")}
    return f"{step.get('player')} {step.get('do')} {json.dumps(rest) if rest else ''}".strip()


def _check(rep: dict[str, object], expected: dict[str, Any], number: int) -> None:
    for path, want in expected.items():
        node: object = rep
        for part in path.split("."):
            if not isinstance(node, dict) or part not in node:
                raise ScenarioFailure(f"step {number}: unknown check path {path!r}")
            node = node[part]
        ordered = path.split(".")[0] in _ORDERED
        if not _equal(node, want, ordered):
            raise ScenarioFailure(f"step {number}: {path} is {json.dumps(node)}, expected {json.dumps(want)}")


def _equal(got: object, want: object, ordered: bool) -> bool:
    if isinstance(got, bool) or isinstance(want, bool):
        return type(got) is type(want) and got == want
    if isinstance(got, dict) and isinstance(want, dict):
        return got.keys() == want.keys() and all(_equal(got[k], want[k], ordered) for k in got)
    if isinstance(got, list) and isinstance(want, list):
        if ordered:
            return len(got) == len(want) and all(_equal(g, w, ordered) for g, w in zip(got, want, strict=False))
        return _multiset(got) == _multiset(want)
    if got is None or want is None:
        return got is want
    return type(got) in (int, float, str) and got == want and type(want) is not bool


def _multiset(items: list[object]) -> Counter[str]:
    return Counter(json.dumps(i, sort_keys=True) for i in items)


def scenario_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        files.extend(sorted(path.rglob("*.json")) if path.is_dir() else [path])
    return files


def run_file(path: Path) -> tuple[str, str | None]:
    """Returns (name, None) on success or (name, why) on failure."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        return str(path), f"cannot read: {exc}"
    name = data.get("name", str(path)) if isinstance(data, dict) else str(path)
    try:
        run(data)
    except ScenarioFailure as exc:
        return name, str(exc)
    except Exception as exc:  # a scenario must never crash the runner
        return name, f"engine error: {type(exc).__name__}: {exc}"
    return name, None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m engine.scenario FILE_OR_DIR [...]", file=sys.stderr)
        return 2
    failed = 0
    files = scenario_files(args)
    for path in files:
        name, why = run_file(path)
        if why is None:
            print(f"PASS {name}")
        else:
            failed += 1
            print(f"FAIL {name}: {why}")
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed or not files else 0


if __name__ == "__main__":
    sys.exit(main())
