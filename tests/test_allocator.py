"""The bot's memory stays flat under load (issue 26): large blocks always get mappings of their own, returned
to the system when freed, instead of holes in the heap (bot/allocator.py). Each case runs in a fresh process:
the allocator's threshold is process-wide and moves only once."""

from __future__ import annotations

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
from bot.allocator import pin_large_blocks
from bot.discord_app.monitor import malloc_mb
pinned = pin_large_blocks() if sys.argv[1] == "pin" else False
first = bytearray(1 << 21)
del first
before = malloc_mb()["mapped"]
second = bytearray(1 << 21)
print(json.dumps({"pinned": pinned, "mapped_mb": malloc_mb()["mapped"] - before}))
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


def test_the_bot_pins_it_before_anything_else(monkeypatch):
    import bot.__main__ as entry

    calls = []

    def settings():  # the first thing main reads: stop there
        calls.append("settings")
        raise SystemExit

    monkeypatch.setattr(entry, "pin_large_blocks", lambda: calls.append("pinned"))
    monkeypatch.setattr(entry, "Settings", settings)
    with pytest.raises(SystemExit):
        entry.main()
    assert calls == ["pinned", "settings"]
