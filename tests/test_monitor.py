"""The optional loop monitor sees a pause of the event loop and writes what it saw (issue 11's benchmark)."""

from __future__ import annotations

import asyncio
import json
import time

import bot.discord_app.monitor as monitoring


async def test_a_blocked_event_loop_is_seen_and_written(tmp_path, monkeypatch):
    monkeypatch.setattr(monitoring, "WRITE_EVERY", 0.0)
    path = tmp_path / "monitor.json"
    monitor = monitoring.LoopMonitor(str(path))
    monitor.start()
    try:
        await asyncio.sleep(0.05)
        stuck = time.time()
        time.sleep(0.15)  # the loop is stuck: no timer can fire
        await asyncio.sleep(0.05)
        written = json.loads(path.read_text())
        # At least the one made here (a busy machine may add pauses of its own).
        assert written["pauses_over_100ms"] >= 1 and written["max_pause_ms"] >= 100 and written["rss_kb"] > 0
        # ... and when: a benchmark counts only the pauses of the window it measures
        assert any(at >= stuck and ms >= 100 for at, ms in written["long_pauses"])
    finally:
        await monitor.stop()
