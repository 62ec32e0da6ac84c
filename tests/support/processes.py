"""Stopping a bot subprocess at the end of an end-to-end test."""

from __future__ import annotations

import asyncio


async def stop_process(proc: asyncio.subprocess.Process, timeout: float = 5.0) -> None:
    """Terminate the process, killing it if it does not stop in time."""
    if proc.returncode is None:
        proc.terminate()
    try:
        await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
