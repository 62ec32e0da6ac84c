"""Numbered SQL migrations, found and ordered alike for both backends: each backend's package holds a
folder `migrations/` of files NNNN_name.sql, numbered 1..n without gaps, and its schema_version table
says how far a database is. How the statements run and how the version is recorded is the backend's own
(sqlite/migrate.py: a transaction per step; postgres/migrate.py: one behind an advisory lock).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    number: int
    name: str  # the file's
    sql: str


class Migrations:
    """The migrations of one backend (the package whose folder `migrations/` holds them)."""

    def __init__(self, package: str):
        self.package = package
        self.steps = load(package)
        self.latest = len(self.steps)

    def due(self, current: int, target: int | None = None) -> list[Migration]:
        """The steps that bring a database at schema `current` to `target` (default: the latest), in order.
        RuntimeError if the database is newer than this code."""
        if current > self.latest:
            raise RuntimeError(f"the database is at schema {current}, newer than this code knows ({self.latest})")
        target = self.latest if target is None else target
        return [step for step in self.steps if current < step.number <= target]


def load(package: str) -> list[Migration]:
    """Every migration file of `package`, in order; RuntimeError unless they are numbered 1..n without gaps."""
    found = []
    for entry in resources.files(package).joinpath("migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda step: step.number)
    numbers = [step.number for step in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return found
