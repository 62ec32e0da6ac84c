"""Which event loop runs: uvloop's where it is installed (a dependency on Linux and macOS), else asyncio's.

uvloop handles sockets, timers and callbacks in C (libuv underneath). It runs the bot's loop
(bot/app/main.py) and PostgreSQL's connection thread (postgres/thread.py), whose every turn holds the
interpreter lock the bot's loop waits for: on asyncio's loop that thread's Python slowed every answer
(docs/benchmarks.md, "Pictures in a worker process again, uvloop and orjson").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's `new_event_loop`, or None where it is not installed (asyncio's own then)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def new_loop() -> asyncio.AbstractEventLoop:
    return (loop_factory() or asyncio.new_event_loop)()
