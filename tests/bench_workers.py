"""How long a busy event loop waits for a worker process's answer: `python tests/bench_workers.py [--draws N]
[--busy N]`.

A player's hand drawn as a picture (~3 ms of Pillow work) in one worker process, asked for by an event loop
that `--busy` tasks keep busy (each runs 2 ms of Python, then yields), as a bot's loop is under load. Two
ways, alternately, three rounds: the bot's `WorkerPool` (bot/service/workers.py: the loop writes the work to a
pipe and reads the answer as it reads a socket) and a `ProcessPoolExecutor` with `run_in_executor` (its
manager thread and its queue's feeder thread each wait for the interpreter lock the busy loop holds). Prints
p50 and p99 of the wait for each answer (issue 44).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_picture import position  # noqa: E402

from bot.discord_app.pictures import _draw_hand  # noqa: E402
from bot.service.workers import WorkerPool  # noqa: E402
from engine import View, player_view  # noqa: E402

CHUNK = 0.002  # seconds of Python each busy task runs before it yields


async def busy() -> None:
    while True:
        end = time.perf_counter() + CHUNK
        while time.perf_counter() < end:
            pass
        await asyncio.sleep(0)


async def waits(ask: Callable[[], Awaitable[bytes]], draws: int, busy_tasks: int) -> list[float]:
    await ask()  # the worker started and warm
    hogs = [asyncio.ensure_future(busy()) for _ in range(busy_tasks)]
    took = []
    try:
        for _ in range(draws):
            started = time.perf_counter()
            await ask()
            took.append(time.perf_counter() - started)
    finally:
        for hog in hogs:
            hog.cancel()
        await asyncio.gather(*hogs, return_exceptions=True)
    return sorted(took)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=300)
    parser.add_argument("--busy", type=int, default=4, help="tasks keeping the loop busy (0: an idle loop)")
    args = parser.parse_args()
    state = position(4, "mid")
    view: View = player_view(state, state.players[0].id)
    pool = WorkerPool(1)
    executor = ProcessPoolExecutor(1, mp_context=get_context("forkserver"))
    loop = asyncio.get_running_loop()
    ways: dict[str, Callable[[], Awaitable[bytes]]] = {
        "WorkerPool": lambda: pool.run(_draw_hand, view, "en"),
        "ProcessPoolExecutor": lambda: loop.run_in_executor(executor, _draw_hand, view, "en"),
    }
    print(f"{args.draws} hand pictures each, the loop kept busy by {args.busy} tasks of {CHUNK * 1000:.0f} ms "
          f"(load average {os.getloadavg()[0]:.2f} before)")
    try:
        for round_ in range(3):
            for name, ask in ways.items():
                took = await waits(ask, args.draws, args.busy)
                p50, p99 = took[len(took) // 2], took[int(len(took) * 0.99)]
                print(f"round {round_ + 1}  {name:<20} p50 {p50 * 1000:6.1f} ms  p99 {p99 * 1000:6.1f} ms")
    finally:
        pool.shutdown()
        executor.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
