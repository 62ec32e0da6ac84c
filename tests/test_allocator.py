"""The bot's memory stays flat under load (issue 26): large blocks always get mappings of their own, returned
to the system when freed, instead of holes in the heap, and the free pages left between smaller blocks are
handed back every minute (bot/service/allocator.py). Each case runs in a fresh process: the allocator's settings are
process-wide."""

from __future__ import annotations

import asyncio
import ctypes
import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT

glibc = pytest.mark.skipif(not hasattr(ctypes.CDLL(None), "mallopt"), reason="glibc's allocator only")

# A picture's pixels drawn and freed, then the next one's: is the second block a mapping of its own (given
# back when freed) or a piece of the heap? What the allocator holds in mappings tells.
SECOND_BLOCK = """
import json, sys
from bot.service.allocator import pin_large_blocks
from bot.app.process_memory import malloc_mb
pinned = pin_large_blocks() if sys.argv[1] == "pin" else False
first = bytearray(1 << 21)
del first
before = malloc_mb()["mapped"]
second = bytearray(1 << 21)
print(json.dumps({"pinned": pinned, "mapped_mb": round(malloc_mb()["mapped"] - before, 1)}))
"""


def second_block(how: str, **env: str) -> dict:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")} | env
    out = subprocess.run([sys.executable, "-c", SECOND_BLOCK, how], capture_output=True, text=True, timeout=60,
                         env={**environment, "PYTHONPATH": str(ROOT)}, check=True)
    return json.loads(out.stdout)


@glibc
def test_unpinned_a_freed_large_block_sends_the_next_into_the_heap():
    """Why the setting is needed: glibc's own default raises the threshold past a freed block's size."""
    assert second_block("leave") == {"pinned": False, "mapped_mb": 0.0}


@glibc
def test_pinned_every_large_block_is_a_mapping_given_back_when_freed():
    result = second_block("pin")
    assert result["pinned"] and result["mapped_mb"] >= 2.0


@glibc
def test_an_operators_own_threshold_is_kept():
    """MALLOC_MMAP_THRESHOLD_ in the environment is glibc's own setting: the bot leaves it alone."""
    assert second_block("pin", MALLOC_MMAP_THRESHOLD_="4194304") == {"pinned": False, "mapped_mb": 0.0}


# Many blocks under the threshold, most of them freed again with a few kept between them: whole free pages
# inside the heap, which the allocator keeps until handed back.
HOLES = """
import json
from bot.service.allocator import give_back, pin_large_blocks

def rss_mb():
    return int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) // 1024

pin_large_blocks()
blocks = [bytearray(50_000) for _ in range(4000)]
kept = blocks[::10]
del blocks
holding = rss_mb()
print(json.dumps({"holding": holding, "given": give_back(), "after": rss_mb()}))
"""


@glibc
def test_free_pages_between_live_blocks_are_handed_back():
    environment = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    out = subprocess.run([sys.executable, "-c", HOLES], capture_output=True, text=True, timeout=60,
                         env={**environment, "PYTHONPATH": str(ROOT)}, check=True)
    result = json.loads(out.stdout)
    assert result["given"] and result["holding"] - result["after"] >= 100, result  # of some 180 MB freed


async def test_the_bot_hands_free_memory_back_while_it_runs(monkeypatch):
    from bot.service import allocator

    passes = []
    monkeypatch.setattr(allocator, "give_back", lambda: passes.append(1) or True)
    task = asyncio.get_running_loop().create_task(allocator.keep_giving_back(every=0.01))
    while len(passes) < 3:
        await asyncio.sleep(0.01)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert len(allocator.given_back_ms) >= 3  # and how long each took, for the monitor


def test_the_bot_pins_it_before_anything_else(monkeypatch):
    import bot.app.main as entry

    calls = []

    def settings():  # the first thing main reads: stop there
        calls.append("settings")
        raise SystemExit

    monkeypatch.setattr(entry, "pin_large_blocks", lambda: calls.append("pinned"))
    monkeypatch.setattr(entry, "read_settings", settings)
    with pytest.raises(SystemExit):
        entry.main([])
    assert calls == ["pinned", "settings"]
