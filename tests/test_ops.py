"""What an operator sees of a running bot (issue 45): Prometheus metrics, /healthz and /readyz on METRICS_PORT,
LOG_FORMAT=json, and the settings that turn them on, refused in one line when wrong.

A real `python -m bot` against the fake Discord on 127.0.0.1 (as in test_bot_process.py), scraped over HTTP.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import discord
import pytest
from conftest import ROOT
from prometheus_client.parser import text_string_to_metric_families
from support.bot_processes import bots
from support.fake_discord import FakeDiscord, FakeUser

import bot.app.watch as watching
from bot.app.config import WrongSettings, read_settings
from bot.app.logs import JsonFormatter
from bot.app.metrics import Metrics, route_group
from bot.app.ops import OpsServer
from bot.app.watch import Watch
from bot.service.where import working_in

GUILD_ID, CHANNEL_ID = 720_000_000_000_000_001, 720_000_000_000_000_002
ALICE = 720_000_000_000_000_101


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()
    except OSError as exc:  # not listening (yet, or any more)
        return 0, str(exc)


async def fetch(port: int, path: str) -> tuple[int, str]:
    return await asyncio.to_thread(get, port, path)


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape: (name, sorted labels) -> value."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(scraped: dict, name: str, **labels: str) -> float:
    return scraped.get((name, tuple(sorted(labels.items()))), 0.0)


def run_bot(tmp_path, **settings: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "a-token", **settings}
    return subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=60)


# --- settings


# (test_wrong_input_cli.py tries every setting's wrong values as `python -m bot` reads them: one line, status 2)
@pytest.mark.parametrize("setting, wrong, said", [
    ("METRICS_PORT", "nine thousand", "is not a whole number"),
    ("METRICS_PORT", "70000", "must be 65535 or less"),
    ("METRICS_PORT", "0", "must be 1 or more"),
    ("LOG_FORMAT", "xml", "is no log format"),
    ("METRICS_HOST", "http://127.0.0.1", "is no host name or address"),
    ("DRAIN_SECONDS", "60", "must be 25.0 or less"),
])
def test_a_wrong_operator_setting_says_which_and_what_it_takes(setting, wrong, said, monkeypatch):
    monkeypatch.setenv(setting, wrong)
    with pytest.raises(WrongSettings) as refused:
        read_settings(_env_file=None)
    assert str(refused.value).startswith(f"{setting}={wrong!r} {said}")


def test_a_wrong_operator_setting_is_one_line_and_exit_2(tmp_path):
    out = run_bot(tmp_path, METRICS_PORT="nine thousand")
    assert out.returncode == 2
    (line,) = (out.stdout + out.stderr).strip().splitlines()
    assert line.startswith("METRICS_PORT='nine thousand' is not a whole number") and "Traceback" not in line


def test_empty_operator_settings_are_not_set(monkeypatch):
    for name in ("METRICS_PORT", "METRICS_HOST", "LOG_FORMAT", "DRAIN_SECONDS"):
        monkeypatch.setenv(name, "")
    settings = read_settings(_env_file=None)
    assert settings.metrics_port is None and settings.metrics_host == "127.0.0.1"
    assert settings.log_format == "text" and settings.drain_seconds == 20


def test_a_metrics_port_in_use_is_one_line_and_exit_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = run_bot(tmp_path, METRICS_PORT=str(port))
    assert out.returncode == 2
    (line,) = (out.stdout + out.stderr).strip().splitlines()[-1:]
    assert f"METRICS_PORT={port} cannot be listened on" in line and "Traceback" not in out.stderr


# --- the pieces, in this process


def test_route_groups_have_few_values_and_never_an_id():
    assert route_group("/api/v10/interactions/123/abc-token/callback") == "interaction_callback"
    assert route_group("/api/v10/webhooks/1/tok/messages/@original") == "webhook"
    assert route_group("/api/v10/channels/5/messages/6") == "channel_message"
    assert route_group("/api/v10/applications/1/guilds/2/commands") == "commands"
    assert route_group("/api/v10/somewhere/new") == "other"


def test_an_interaction_is_counted_once_answered_with_its_time_and_kind():
    metrics = Metrics()
    metrics.arrived(41, 3)
    metrics.arrived(42, 2)
    metrics.requested("/api/v10/interactions/41/t/callback", 204)
    metrics.requested("/api/v10/interactions/42/t/callback", 429)
    scraped = samples(metrics.exposition().decode())
    assert value(scraped, "augsburg_interactions_total", kind="component", outcome="answered") == 1
    assert value(scraped, "augsburg_interactions_total", kind="command", outcome="failed") == 1
    assert value(scraped, "augsburg_interaction_answer_seconds_count", kind="component") == 1
    assert value(scraped, "augsburg_interaction_answer_seconds_count", kind="command") == 0
    assert value(scraped, "augsburg_discord_rate_limited_total", route_group="interaction_callback") == 1
    assert value(scraped, "augsburg_discord_requests_total", route_group="interaction_callback", status="204") == 1
    assert any(name.startswith("process_") for name, _ in scraped)  # the client library's process metrics


def test_the_background_waits_for_people_first_are_a_histogram():
    metrics = Metrics()
    metrics.background_waited(0.3)
    metrics.background_waited(2.0)  # (the limit: the loop never caught up for it)
    scraped = samples(metrics.exposition().decode())
    assert value(scraped, "augsburg_background_wait_seconds_count") == 2
    assert value(scraped, "augsburg_background_wait_seconds_bucket", le="0.5") == 1


class _Bot:
    """What Watch reads of a bot, set by each test."""

    def __init__(self, ready=True, lease_held=True, reachable=True):
        class Lease:
            held, lost = lease_held, False

        class Service:
            async def reachable(self):
                return reachable

        class Stuck:
            async def reachable(self):
                await asyncio.sleep(3600)

        self.ready, self.lease = ready, Lease()
        self.service = Service() if reachable != "stuck" else Stuck()

    def is_ready(self):
        return self.ready

    def is_closed(self):
        return False


async def test_readiness_names_what_is_missing(monkeypatch):
    watch = Watch(None)
    assert await watch.unready(_Bot(), [(0, True, 0.01)]) is None
    assert await watch.unready(_Bot(ready=False), [(0, False, 0.0)]) == "not connected to Discord"
    assert await watch.unready(_Bot(), [(0, True, 0.0), (1, False, 0.0)]) == "shard 1 not connected to Discord"
    assert "lease" in await watch.unready(_Bot(lease_held=False), [(0, True, 0.0)])
    assert await watch.unready(_Bot(reachable=False), [(0, True, 0.0)]) == "the database does not answer"
    monkeypatch.setattr(watching, "REACHABLE", 0.05)
    assert await watch.unready(_Bot(reachable="stuck"), [(0, True, 0.0)]) == "the database does not answer"
    watch.draining = True
    assert await watch.unready(_Bot(), [(0, True, 0.0)]) == "draining before a stop"


async def test_readyz_is_503_with_a_short_json_reason_and_healthz_200():
    why: list[str | None] = ["the database does not answer"]

    async def unready():
        return why[0]

    async def refresh():
        return None

    port = free_port()
    server = OpsServer(Metrics(), "127.0.0.1", port, unready, refresh)
    await server.start()
    try:
        status, body = await fetch(port, "/readyz")
        assert status == 503 and json.loads(body) == {"status": "not ready", "reason": "the database does not answer"}
        why[0] = None
        assert (await fetch(port, "/readyz"))[0] == 200
        assert (await fetch(port, "/healthz")) == (200, '{"status": "alive"}')
        assert "augsburg_draining 0.0" in (await fetch(port, "/metrics"))[1]
    finally:
        await server.stop()


def test_a_json_log_line_says_where_it_was_written():
    async def in_a_task() -> str:
        working_in(shard=1, guild=2, channel=3, game=4)
        record = logging.LogRecord("bot.x", logging.WARNING, __file__, 1, "a %s", ("move",), None)
        return JsonFormatter().format(record)

    line = json.loads(asyncio.run(in_a_task()))
    assert line["level"] == "WARNING" and line["logger"] == "bot.x" and line["message"] == "a move"
    assert (line["shard"], line["guild"], line["channel"], line["game"]) == (1, 2, 3, 4)
    assert line["time"].endswith("+00:00")
    outside = json.loads(JsonFormatter().format(logging.LogRecord("bot", logging.INFO, __file__, 1, "x", (), None)))
    assert "game" not in outside and "channel" not in outside  # nothing known: nothing said


# --- a real bot process


async def test_a_bot_process_serves_metrics_health_and_readiness_and_logs_json(tmp_path):
    port = free_port()
    async with FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL_ID, users=[FakeUser(ALICE, "Alice")]) as fake, \
            bots(fake, tmp_path, DISCORD_GUILD_ID=str(GUILD_ID)) as start:
        bot = await start("bot", METRICS_PORT=str(port), LOG_FORMAT="json", LOG_LEVEL="DEBUG",
                          COMPUTER_DELAY="0.05")
        await fake.wait_for_ready()
        assert (await fetch(port, "/healthz"))[0] == 200
        await fake.wait_until(lambda: get(port, "/readyz")[0] == 200, timeout=60, what="/readyz 200")

        table = (await fake.slash(ALICE, "augsburg new")).answer.message_id
        await fake.click(ALICE, table, label="Add computer player")
        started = await fake.click(ALICE, table, label="Start game")
        assert "round 1 of" in started.answer.embeds[0]["title"]
        await fake.slash(ALICE, "augsburg status")

        def scraped() -> dict:
            return samples(get(port, "/metrics")[1])

        # The computer's first move follows on its own: polled for, however slow the machine.
        await fake.wait_until(lambda: value(scraped(), "augsburg_decisions_total", by="computer", level="normal")
                              >= 1, timeout=60, what="the computer's move counted")
        now = scraped()
        assert value(now, "augsburg_interactions_total", kind="command", outcome="answered") == 2
        assert value(now, "augsburg_interactions_total", kind="component", outcome="answered") == 2
        assert value(now, "augsburg_interaction_answer_seconds_count", kind="command") == 2
        assert value(now, "augsburg_interaction_answer_seconds_count", kind="component") == 2
        assert value(now, "augsburg_games_live") == 1
        assert value(now, "augsburg_deadlines_pending") >= 1  # (Alice's clock at least; counted, not read)
        assert value(now, "augsburg_games_held_bytes", part="recent_moves") > 0  # the deal and a move, kept
        assert value(now, "augsburg_games_held_bytes", part="cooled_games") == 0  # one game: in play, parsed
        assert sum(v for (name, labels), v in now.items() if name == "augsburg_games") == 1
        assert value(now, "augsburg_gateway_connected", shard="0") == 1
        assert value(now, "augsburg_commit_seconds_count", backend="sqlite") >= 1
        assert value(now, "augsburg_event_loop_lag_seconds_count") > 0
        assert value(now, "augsburg_discord_requests_total", route_group="interaction_callback", status="200") >= 4
        assert value(now, "process_resident_memory_bytes") > 0
        for (name, labels), _ in now.items():  # never a user, channel or game id as a label
            assert not any(str(x) in str(labels) for x in (ALICE, CHANNEL_ID, GUILD_ID)), (name, labels)

        bot.proc.terminate()
        assert await bot.exited() == 0
        lines = [json.loads(line) for line in bot.output().splitlines()]  # every line is one JSON object
        assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
        assert any(line.get("guild") == GUILD_ID and line.get("channel") == CHANNEL_ID and line.get("shard") == 0
                   and isinstance(line.get("game"), int) for line in lines)  # a line written for a click


async def test_each_shard_process_exports_its_own_and_gives_its_shard_up_when_stopped(tmp_path, postgres_url):
    """SHARD_COUNT=2, one process per shard on PostgreSQL: each has its own port and says only its own shard;
    SIGTERM stops one at once (nothing in flight), its shard free for a successor that serves it."""
    guild_0, guild_1 = (734_000 * 2) << 22, (734_000 * 2 + 1) << 22
    channel_0, channel_1 = 734_000_000_000_000_010, 734_000_000_000_000_011
    ports = [free_port(), free_port()]
    async with FakeDiscord(guild_id=guild_0, channel_id=channel_0, more_guilds={guild_1: [channel_1]},
                           users=[FakeUser(ALICE, "Alice")]) as fake, \
            bots(fake, tmp_path, DATABASE_URL=postgres_url, SHARD_COUNT="2") as start:
        shard_0 = await start("shard-0", SHARD_IDS="0", METRICS_PORT=str(ports[0]))
        shard_1 = await start("shard-1", SHARD_IDS="1", METRICS_PORT=str(ports[1]))
        for port in ports:
            await fake.wait_until(lambda p=port: get(p, "/readyz")[0] == 200, timeout=60, what="both ready")
        await fake.slash(ALICE, "augsburg status", channel_id=channel_1)
        for shard, port in enumerate(ports):
            scraped = samples(get(port, "/metrics")[1])
            assert value(scraped, "augsburg_gateway_connected", shard=str(shard)) == 1
            assert ("augsburg_gateway_connected", (("shard", str(1 - shard)),)) not in scraped  # only its own
            assert value(scraped, "augsburg_interactions_total", kind="command", outcome="answered") == shard

        shard_1.proc.terminate()
        assert await shard_1.exited() == 0
        successor = await start("shard-1-again", SHARD_IDS="1", METRICS_PORT=str(ports[1]))  # not refused: free
        await fake.wait_until(lambda: get(ports[1], "/readyz")[0] == 200, timeout=60, what="the successor ready")
        status = await fake.slash(ALICE, "augsburg status", channel_id=channel_1)
        assert status.answer.ephemeral and successor.proc.returncode is None
        assert shard_0.proc.returncode is None and "Traceback" not in shard_0.output() + shard_1.output()


async def test_a_handler_that_failed_is_counted_as_an_error_of_its_kind():
    metrics = Metrics()
    watch = Watch(metrics)

    class Interaction:  # what Watch reads of one
        def __init__(self, number: int, fails: bool):
            self.id, self.type, self.extras, self.fails = number, discord.InteractionType.component, {}, fails

    async def handle(interaction: Interaction) -> None:
        assert await watch.serving(interaction, held=True)
        if interaction.fails:  # what handlers/base.py's guard notes when it says sorry
            interaction.extras["failed"] = True

    await asyncio.gather(*(asyncio.create_task(handle(Interaction(n, fails=n % 2 == 0))) for n in range(5)))
    await asyncio.sleep(0)  # (the tasks' done callbacks)
    scraped = samples(metrics.exposition().decode())
    assert value(scraped, "augsburg_interaction_errors_total", kind="component") == 3
