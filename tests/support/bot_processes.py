"""Real `python -m bot` processes against the fake Discord on 127.0.0.1 (test_bot_process.py, test_shard_processes.py):
each one's output goes to a log file, printed if the test fails."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from pathlib import Path

from .processes import stop_process

ROOT = Path(__file__).resolve().parents[2]


class Bot:
    """One `python -m bot` process."""

    def __init__(self, fake, tmp_path: Path, name: str, **settings: str):
        self.name = name
        self.log = tmp_path / f"{name}.log"
        self.env = {**os.environ, **fake.env(), "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
                    "TABLE_EDIT_DELAY": "0.1", "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1",
                    "STARTUP_RETRY_FIRST": "0.05", **settings}
        self.cwd = tmp_path
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> Bot:
        with self.log.open("wb") as out:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", env=self.env, cwd=self.cwd, stdout=out, stderr=asyncio.subprocess.STDOUT
            )
        return self

    async def exited(self, timeout: float = 60) -> int:
        return await asyncio.wait_for(self.proc.wait(), timeout)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextlib.asynccontextmanager
async def bots(fake, tmp_path: Path, **defaults: str):
    """A factory of bot processes (each with `defaults`, then its own settings); all are stopped at the end,
    and their logs shown if the test failed."""
    started: list[Bot] = []

    async def start(name: str, **settings: str) -> Bot:
        bot = Bot(fake, tmp_path, name, **{**defaults, **settings})
        started.append(bot)
        return await bot.start()

    try:
        yield start
    except BaseException:
        for bot in started:
            print(f"----- {bot.log.name}\n{bot.output()[-3000:]}")
        raise
    finally:
        for bot in started:
            await stop_process(bot.proc, 10)
