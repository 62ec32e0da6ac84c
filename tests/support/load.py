"""How much load the fake takes: a bare bot in a subprocess (``load_bot``) and a driver in this process
clicking buttons in many channels, as the project's load benchmark will with ``python -m bot``.

The fake and the driver share this process (as in the benchmark), so its CPU share says how close the
fake is to being the bottleneck. ``python -m support.load --seconds 20 --clicks 150`` (from tests/)
prints the figures; ``--profile`` adds the fake's hottest functions.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import sys
import time
from pathlib import Path
from typing import Any

from .payloads import FakeUser
from .processes import stop_process
from .ratelimits import RateLimits
from .results import Result
from .server import FakeDiscord

TESTS = Path(__file__).resolve().parents[1]


def board(n: int) -> dict:
    """A message with one button, like a table's."""
    button = {"type": 2, "style": 1, "label": f"Bump {n}", "custom_id": "load:btn"}
    return {"content": f"count={n}", "components": [{"type": 1, "components": [button]}]}


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values) or [0.0]
    pick = lambda q: round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)  # noqa: E731
    return {"p50_ms": pick(0.5), "p95_ms": pick(0.95), "p99_ms": pick(0.99), "max_ms": pick(1.0)}


async def run_load(
    *, seconds: float = 5.0, clicks_per_second: float = 100.0, edits_per_second: float = 40.0,
    channels: int = 200, rate_limits: bool | RateLimits = True, profiler: cProfile.Profile | None = None,
) -> dict[str, Any]:  # fmt: skip
    """Drive ``clicks_per_second`` clicks for ``seconds`` while the bot edits ``edits_per_second``
    messages; return what was served, the clicks' latency and this process's CPU share."""
    users = [FakeUser(1_000 + i) for i in range(20)]
    fake = FakeDiscord(
        users=users, channels=channels, rate_limits=rate_limits, record_requests=False, keep_outputs=1000,
        token="load-token",
    )  # fmt: skip
    async with fake:
        env = {**os.environ, **fake.env(), "LOAD_EDITS_PER_SECOND": str(edits_per_second), "PYTHONPATH": str(TESTS)}
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "support.load_bot", env=env)
        try:
            await fake.wait_until(lambda: fake.gateway.ready_count, timeout=30, what="the load bot's IDENTIFY")
            boards = [fake.new_message(board(0), channel_id=c).id for c in fake.channel_ids]
            return await _drive(fake, boards, users, seconds, clicks_per_second, profiler)
        finally:
            await stop_process(proc)


async def _drive(
    fake: FakeDiscord, boards: list[int], users: list[FakeUser], seconds: float, rate: float,
    profiler: cProfile.Profile | None,
) -> dict[str, Any]:  # fmt: skip
    loop, rnd = asyncio.get_running_loop(), random.Random(1520)
    await asyncio.sleep(0.5)  # the bot learns the boards from MESSAGE_CREATE
    before = fake.stats()["requests"]
    results: list[Result] = []
    if profiler is not None:
        profiler.enable()
    cpu, start = time.process_time(), loop.time()
    for k in range(int(seconds * rate)):
        delay = start + k / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        results.append(await fake.click(rnd.choice(users).id, rnd.choice(boards), "load:btn", settle=False))
    await asyncio.gather(*(fake.wait_answered(r, timeout=30) for r in results))
    wall, cpu = loop.time() - start, time.process_time() - cpu
    if profiler is not None:
        profiler.disable()
    stats = fake.stats()
    served = stats["requests"] - before
    return {
        "seconds": round(wall, 2),
        "clicks": len(results),
        "answered": sum(1 for r in results if r.answer is not None),
        "clicks_per_second": round(len(results) / wall, 1),
        "requests_per_second": round(served / wall, 1),
        "fake_cpu_share": round(cpu / wall, 2),
        "latency": percentiles([r.latency for r in results if r.latency is not None]),
        "rate_limited": stats["rate_limited"],
        "busiest_channel_ops": stats["busiest_channel_ops"],
        "peak_global_per_second": stats["peak_global_per_second"],
        "problems": len(fake.problems),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clicks", type=float, default=100.0, help="clicks per second")
    parser.add_argument("--edits", type=float, default=40.0, help="the bot's message edits per second")
    parser.add_argument("--channels", type=int, default=1000)
    parser.add_argument("--no-rate-limits", action="store_true")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    profiler = cProfile.Profile() if args.profile else None
    report = asyncio.run(
        run_load(
            seconds=args.seconds,
            clicks_per_second=args.clicks,
            edits_per_second=args.edits,
            channels=args.channels,
            rate_limits=not args.no_rate_limits,
            profiler=profiler,
        )  # fmt: skip
    )
    print(json.dumps(report, indent=2))
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
