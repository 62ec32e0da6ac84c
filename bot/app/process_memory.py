"""What the process's memory is made of, for the loop monitor: its resident size, and what the C allocator
(glibc) holds beside Python's own objects."""

from __future__ import annotations

import ctypes
import functools
from pathlib import Path
from typing import Any


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]


@functools.cache  # (loaded once: a ctypes library is a reference cycle, garbage each time it is let go)
def _mallinfo2() -> Any:
    try:
        info = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return None
    info.restype = _MallInfo2
    return info


def malloc_mb() -> dict[str, float] | None:
    """What the C allocator (glibc) holds, over all its arenas, in MB: `used` by live allocations (Python's
    objects over 512 bytes, C libraries'), `free` kept in its arenas for reuse (RSS that
    no object holds: fragmentation, or threads' arenas), `mapped` in blocks of their own. None elsewhere."""
    info = _mallinfo2()
    if info is None:
        return None
    m = info()
    return {"used": round((m.uordblks + m.hblkhd) / 2**20, 1), "free": round(m.fordblks / 2**20, 1),
            "mapped": round(m.hblkhd / 2**20, 1)}


def rss_kb() -> int:
    """The process's resident memory (0 where /proc is not there)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0
