"""A lock the kernel frees when its process dies: on one host, exact proof that a database's holder is gone.

The serving process holds flock(2) on a file beside the database (NAME.lock) for as long as it serves. A
process killed with -9 loses it that instant, so its successor need not wait for the lease's heartbeat to
go stale (a supervisor restarts at once, and gives up after a few refused starts). Across hosts (a file on
a network share) a free lock proves nothing: there the heartbeat still decides (lease.py).
"""

from __future__ import annotations

import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no flock; the heartbeat alone decides, as before
    FLOCK = False
else:
    FLOCK = True


class HostLock:
    def __init__(self, database: str | Path):
        self.path = Path(f"{database}.lock")
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock unless a live process holds it. True only if taken by this call: then no live process
        on this host was holding it, so any earlier holder from this host is dead."""
        if not FLOCK or self._fd is not None:
            return False
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:  # a read-only folder, say: no proof either way
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the last descriptor of the open file releases the flock


def holder_alive(database: str | Path) -> bool | None:
    """Whether a live process on this host holds `database`'s lock: True, False, or None if it cannot tell."""
    if not FLOCK or not Path(f"{database}.lock").exists():
        return None if not FLOCK else False
    probe = HostLock(database)
    if probe.acquire():
        probe.release()
        return False
    return True
