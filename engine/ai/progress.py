"""A one-line progress bar on stderr (no dependency needed), and percentiles for the benchmark's figures."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, enabled: bool = True, width: int = 30):
        self.total, self.enabled, self.width = total, enabled, width
        self.started = time.perf_counter()
        self.shown = 0.0

    def update(self, done: int, note: str = "") -> None:
        now = time.perf_counter()
        if not self.enabled or (now - self.shown < 0.2 and done < self.total):
            return
        self.shown = now
        filled = self.width * done // max(1, self.total)
        rate = done / max(1e-9, now - self.started)
        eta = (self.total - done) / rate if rate else 0.0
        bar = "#" * filled + "." * (self.width - filled)
        sys.stderr.write(f"\r[{bar}] {done}/{self.total} games {rate:.2f}/s eta {eta:.0f}s {note}")
        if done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
