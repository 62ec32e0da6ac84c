"""The editions a process may play: the ones shipped here (package data) and an operator's (`EDITIONS_DIR`).

The engine's one module that reads files; parsing and the values themselves are engine/edition.py's.

- `shipped()`: the editions in this directory, by id. Never edit one: games stored with it replay with
  its values (tests/test_editions.py pins their sha256); a correction is a new file.
- `LEGACY`: the edition of every game stored before games recorded theirs, which read as it.
- `Library`: the editions a bot or terminal offers and loads games with: the shipped ones and those
  of an operator's directory; the default for new tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated

from ..edition import SCHEMA, SERIALIZER, Edition, EditionError, EditionRef, known, parse_edition, validator

DEFAULT = "estimates-1"  # what new games are played with unless the operator or host picks another
# Games stored before issue 30 recorded no edition: they were played with these values (estimates-1).
LEGACY = EditionRef(id="estimates-1", sha256="d83ebc9eafdf64f9fab45a89829fafbfbf1a79e0842f61d2b12c502dfcdd2586")


class EditionUnavailable(ValueError):
    """A game's edition is not among those this process has: it must not be played or replayed with others."""

    def __init__(self, ref: EditionRef, other: Edition | None = None):
        if other is not None:
            why = f"the edition file {ref.id!r} here now has other values (sha256 {other.sha256[:12]}…)"
        else:
            why = f"there is no edition {ref.id!r} here"
        super().__init__(f"this game was played with edition {ref.id!r} (sha256 {ref.sha256[:12]}…), but {why}; "
                         "put that edition's file back (EDITIONS_DIR) to go on with it")
        self.ref = ref
        self.other = other


@cache
def shipped() -> dict[str, Edition]:
    """The editions shipped with the engine, by id."""
    found = {}
    for entry in sorted(resources.files(__package__).iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            edition = parse_edition(entry.read_text(encoding="utf-8"), entry.name)
            found[edition.id] = edition
    return found


def default() -> Edition:
    """The edition new games are played with when nobody chose another."""
    return shipped()[DEFAULT]


def legacy() -> Edition:
    """The edition of games stored before games recorded theirs."""
    return resolve(LEGACY)


def resolve(ref: EditionRef) -> Edition:
    """The edition `ref` names, if this process has parsed it or ships it; else EditionUnavailable."""
    edition = known(ref.id, ref.sha256)
    if edition is None:
        edition = shipped().get(ref.id)
        if edition is not None and edition.sha256 != ref.sha256:
            raise EditionUnavailable(ref, edition)
    if edition is None:
        raise EditionUnavailable(ref)
    return edition


# A state's or a view's edition: stored as {"id", "sha256"}, read back as the Edition itself.
EditionField = Annotated[Edition, validator(resolve), SERIALIZER, SCHEMA]  # (edition.field(resolve), written out)


class Library:
    """The editions offered for new games and used to load stored ones: the shipped ones, then an
    operator's. `problems` says what could not be used (a broken file, an id taken twice), for the log."""

    def __init__(self, editions: Iterable[Edition] = (), default_id: str | None = None, problems: Iterable[str] = ()):
        self.problems: list[str] = list(problems)
        self._by_id: dict[str, Edition] = dict(shipped())
        for edition in editions:
            self.add(edition)
        self.default_id = DEFAULT
        if default_id and default_id in self._by_id:
            self.default_id = default_id
        elif default_id:
            self.problems.append(f"DEFAULT_EDITION {default_id!r} is no edition here; new tables use {DEFAULT}")

    @classmethod
    def load(cls, directory: str | Path | None = None, default_id: str | None = None) -> Library:
        """The shipped editions and every `*.toml` of `directory` that is a valid edition."""
        editions: list[Edition] = []
        problems: list[str] = []
        path = Path(directory) if directory else None
        if path is not None and not path.is_dir():
            problems.append(f"EDITIONS_DIR {str(path)!r} is not a directory")
        for file in sorted(path.glob("*.toml")) if path is not None and path.is_dir() else ():
            try:
                editions.append(read_file(file))
            except OSError as exc:
                problems.append(f"{file}: {exc}")
            except EditionError as exc:
                problems.append(f"{file}: {exc}")
        return cls(editions, default_id, problems)

    def add(self, edition: Edition) -> None:
        there = self._by_id.get(edition.id)
        if there is None or there is edition:
            self._by_id[edition.id] = edition
        else:
            self.problems.append(f"two editions are called {edition.id!r} (sha256 {there.sha256[:12]}… and "
                                 f"{edition.sha256[:12]}…): only the first is used; give the other its own id")

    @property
    def default(self) -> Edition:
        return self._by_id[self.default_id]

    def get(self, id: str) -> Edition | None:
        return self._by_id.get(id)

    def editions(self) -> list[Edition]:
        """Every edition offered, the default first."""
        return sorted(self._by_id.values(), key=lambda e: (e.id != self.default_id, e.id))

    def resolve(self, ref: EditionRef) -> Edition:
        """A stored game's edition: the one here with its id and the very same values, else EditionUnavailable."""
        edition = self._by_id.get(ref.id)  # (the legacy edition is a shipped one: always here)
        if edition is None or edition.sha256 != ref.sha256:
            raise EditionUnavailable(ref, edition)
        return edition


def read_file(path: str | Path) -> Edition:
    """An edition file (OSError if it cannot be read, EditionError naming the lines that are wrong)."""
    path = Path(path)
    return parse_edition(path.read_text(encoding="utf-8"), path.name)
