"""`python -m bot` without a token says what to set and exits with status 2."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT


def test_without_a_token_the_bot_explains_and_exits_2(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    out = subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, cwd=tmp_path,
                         env={**env, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert out.returncode == 2
    lines = (out.stdout + out.stderr).strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env" in lines[0]


def test_the_bot_and_postgresqls_thread_run_on_uvloop_where_it_is_installed_and_on_asyncio_without(monkeypatch):
    """uvloop (a dependency on Linux and macOS) runs the bot's event loop and the loop of PostgreSQL's
    connection thread: sockets and timers handled in C. Where it cannot be imported, asyncio's own loops serve
    the same."""
    import asyncio

    import uvloop

    from storage.loops import loop_factory, new_loop
    from storage.postgres.thread import LoopThread

    factory = loop_factory()
    assert factory is not None
    loop = factory()
    try:
        assert isinstance(loop, uvloop.Loop)
        assert loop.run_until_complete(asyncio.sleep(0, "served")) == "served"
    finally:
        loop.close()
    thread = LoopThread()
    try:
        assert isinstance(thread.loop, uvloop.Loop)
        assert asyncio.run(thread.run(asyncio.sleep(0, "on its thread"))) == "on its thread"
    finally:
        thread.stop()
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as if it were not installed: importing it fails
    assert loop_factory() is None
    plain = new_loop()
    try:
        assert not isinstance(plain, uvloop.Loop) and isinstance(plain, asyncio.AbstractEventLoop)
    finally:
        plain.close()
