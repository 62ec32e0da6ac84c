"""Storage's public face: what bot/ may import from it, and the faces for backups and for a game file's log.

The bot reaches a backend (storage.sqlite, storage.postgres) or the records module only through storage's
public names: `storage` itself, storage.backups for the SQLite file's backups and restore, and the rest of
the contract's modules (contract, url, copy, ownership).
"""

from __future__ import annotations

import ast
from pathlib import Path

import storage
import storage.backups
from engine import EVENTS
from storage import ENTRY, LOG, TableEvent
from storage.sqlite import backup, restore

ROOT = Path(__file__).resolve().parents[1]
PRIVATE = ("storage.sqlite", "storage.postgres", "storage.records", "storage.sql", "storage.games", "storage.rows")


def test_the_bot_imports_no_backend_and_no_private_storage_module():
    for path in (ROOT / "bot").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            for name in names:
                assert not any(name == p or name.startswith(p + ".") for p in PRIVATE), f"{path} imports {name}"


def test_storage_backups_is_the_sqlite_backups_and_restore():
    for name in storage.backups.__all__:
        home = backup if hasattr(backup, name) else restore
        assert getattr(storage.backups, name) is getattr(home, name), name


def test_a_game_files_log_entries_read_back_as_written():
    events = EVENTS.validate_python([{"type": "pass", "player": "a"},
                                     {"type": "guilders_gained", "player": "b", "amount": 2, "reason": "trade"}])
    entries = [TableEvent(what="left", player="b"), TableEvent(what="away", player="a", days=3), *events]
    written = [ENTRY.dump_python(e, mode="json") for e in entries]
    assert [ENTRY.validate_python(w) for w in written] == entries
    assert LOG.validate_python(written) == entries
    assert set(storage.__all__) >= {"ENTRY", "LOG", "LogEntry"}
