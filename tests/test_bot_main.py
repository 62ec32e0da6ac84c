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
