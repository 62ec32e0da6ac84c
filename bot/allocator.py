"""The C allocator's one setting that keeps the bot's memory flat (glibc only; elsewhere nothing is done).

glibc serves a request of 128 KiB or more with a mapping of its own, returned to the system when freed, but
the first time such a block is freed it raises that threshold to the block's size (up to 32 MiB): from then
on large blocks (a table picture's pixels and PNG, an HTTP body) come from the heap, and the heap, with
small objects living between them, keeps their holes as free memory it never gives back. Under the bot
benchmark's load that free memory grew by some 20 MB a minute, to about 100 MB. Setting the threshold
pins it at glibc's own default, so large blocks are always returned when freed.
"""

from __future__ import annotations

import ctypes
import os

M_MMAP_THRESHOLD = -3  # mallopt's parameter numbers (malloc.h)
THRESHOLD = 128 * 1024  # glibc's default: pinned, no longer raised by the blocks freed
ENVIRONMENT = "MALLOC_MMAP_THRESHOLD_"  # glibc's own variable: an operator's choice there is kept


def pin_large_blocks() -> bool:
    """Pin the threshold above which blocks get mappings of their own; False where glibc is not there
    (or the operator set it in the environment, where glibc read it already)."""
    if ENVIRONMENT in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD))
