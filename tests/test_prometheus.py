"""A real Prometheus server scrapes a running bot (issue 45): the interactions it answered and the games it
holds arrive in Prometheus as the test drove them, read back through Prometheus's own HTTP API.

Debian's `prometheus` (TEST_PROMETHEUS, else found or installed as root by .ci/prometheus), on 127.0.0.1 with
a configuration of the test's own (scraping every second), against `python -m bot` and the fake Discord.
Without a server the test skips, saying why; under CI=true it fails instead, so CI never passes without it.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from bench_bot import open_table
from support.bot_processes import bots
from support.fake_discord import FakeDiscord, FakeUser, stop_process
from support.postgres import in_ci

SCRIPT = Path(__file__).resolve().parent.parent / ".ci" / "prometheus"
GUILD = 750_000_000_000_000_001
USER = 750_000_000_000_001_000
TABLES = 3


def prometheus_server() -> str:
    """The server's path, or skip (fail under CI=true) saying why there is none."""
    given = os.environ.get("TEST_PROMETHEUS")
    why = "no Prometheus server (install Debian's prometheus package, or set TEST_PROMETHEUS to its path)"
    if given is None:  # not tried yet (.ci/run tries first, and sets it, empty if it could not)
        out = subprocess.run(["bash", str(SCRIPT), "install"], capture_output=True, text=True, timeout=600)
        given = out.stdout.strip() if out.returncode == 0 else ""
        if not given and out.stderr.strip():
            why = f"{why}: {out.stderr.strip().splitlines()[-1]}"
    if not given:
        pytest.fail(f"CI=true but {why}") if in_ci() else pytest.skip(why)
    return given


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def query(port: int, promql: str) -> float | None:
    """The value of an instant query's one result (None: no result yet, or the server is not up yet)."""
    url = f"http://127.0.0.1:{port}/api/v1/query?{urllib.parse.urlencode({'query': promql})}"
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            found = json.loads(answer.read())
    except (OSError, ValueError):
        return None
    results = found["data"]["result"] if found.get("status") == "success" else []
    return float(results[0]["value"][1]) if results else None


async def test_prometheus_scrapes_the_interactions_and_live_games_the_test_drove(tmp_path):
    server = prometheus_server()
    bot_port, prom_port = free_port(), free_port()
    config = tmp_path / "prometheus.yml"
    config.write_text(f"""global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: augsburg
    static_configs:
      - targets: ["127.0.0.1:{bot_port}"]
""")
    users = [FakeUser(USER + i, f"P{i}") for i in range(2 * TABLES)]
    fake = FakeDiscord(guild_id=GUILD, users=users, channels=TABLES)
    with (tmp_path / "prometheus.log").open("wb") as log:
        prometheus = await asyncio.create_subprocess_exec(
            server, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'data'}",
            f"--web.listen-address=127.0.0.1:{prom_port}", stdout=log, stderr=asyncio.subprocess.STDOUT)
    try:
        async with fake, bots(fake, tmp_path, DISCORD_GUILD_ID=str(GUILD), METRICS_PORT=str(bot_port),
                              TURN_TIMEOUT_SECONDS="0") as start:
            await start("bot")
            await fake.wait_for_ready(timeout=60)
            answered = 0
            for i, channel in enumerate(fake.channel_ids):  # each: /augsburg new, Join, Start game
                await open_table(fake, channel, [users[2 * i].id, users[2 * i + 1].id], computer=False)
                answered += 3
            await fake.slash(users[0].id, "augsburg status", channel_id=fake.channel_ids[0])
            answered += 1

            def scraped(promql: str, wanted: float):
                return lambda: query(prom_port, promql) == wanted

            await fake.wait_until(scraped('up{job="augsburg"}', 1), timeout=60, what="Prometheus scraping the bot")
            await fake.wait_until(scraped("sum(augsburg_interaction_answer_seconds_count)", answered), timeout=60,
                                  what=f"{answered} answered interactions in Prometheus")
            await fake.wait_until(scraped("augsburg_games_live", TABLES), timeout=60,
                                  what=f"{TABLES} live games in Prometheus")
            assert query(prom_port, 'augsburg_interactions_total{kind="command",outcome="answered"}') == TABLES + 1
            assert query(prom_port, 'augsburg_interactions_total{kind="component",outcome="answered"}') \
                == 2 * TABLES
            assert query(prom_port, 'sum(augsburg_games{phase!="unloaded"})') == TABLES
    except BaseException:
        print((tmp_path / "prometheus.log").read_text(errors="replace")[-3000:])
        raise
    finally:
        await stop_process(prometheus, 10)
