"""Survive kill -9: every acknowledged action is still there, every snapshot equals its replay (issue 3), on
SQLite and on PostgreSQL (where the server lives on: the writer's transactions in flight are rolled back)."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
from pathlib import Path

from engine import replay
from storage import Store, Table

WORKER = Path(__file__).with_name("crash_worker.py")
KILLS = 20


async def verify(database: str, acknowledged: set[tuple[int, int]]) -> int:
    store = await Store.open(database)
    try:
        if store.kind == "sqlite":
            assert await store.db.integrity_check() == "ok"
        ids = [row[0] for row in await store.db.fetchall("SELECT id FROM games ORDER BY id")]
        logged = set()
        for game_id in ids:
            history = await store.log.export_game(game_id)
            logged.update((game_id, a["version"]) for a in history["actions"])
            actions = await store.log.action_log(game_id)
            table = Table.model_validate(history["table"])
            rebuilt = replay(table.players, table.seed, table.start_player, actions)
            record = await store.games.load_game(game_id)
            assert record.state == rebuilt, f"game {game_id}: snapshot differs from the replay of its log"
            assert await store.log.notes(game_id) == [], f"game {game_id} needed a repair"
        missing = acknowledged - logged
        assert not missing, f"acknowledged actions lost: {sorted(missing)[:5]}"
        return len(logged)
    finally:
        await store.close()


def test_kill_minus_nine_loses_nothing_acknowledged(database):
    path = database
    rnd = random.Random(KILLS)  # the worker's games and moves; where the kill lands is the machine's
    acknowledged: set[tuple[int, int]] = set()
    kills = 0
    # At least KILLS kills, and on until enough was acknowledged to mean something (a busy machine commits less
    # in the same while): the test's outcome does not depend on the machine's speed.
    while kills < KILLS or len(acknowledged) <= 100:
        assert kills < 10 * KILLS, "the worker made too little progress to mean anything"
        kills += 1
        child = subprocess.Popen([sys.executable, str(WORKER), str(path), str(rnd.randrange(2**32))],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        # Let it commit for a random while, then kill it wherever it is.
        try:
            child.wait(timeout=rnd.uniform(0.05, 0.6))
        except subprocess.TimeoutExpired:
            pass
        assert child.poll() is None, f"the worker died by itself: {child.stderr.read()}"
        child.send_signal(signal.SIGKILL)
        # Through the same buffered reader as "ready": on a busy machine its read may already hold the first
        # acknowledged lines (communicate() would read past them, from the middle of a line).
        out = child.stdout.read()
        child.stderr.read()
        child.wait()
        lines = out.split("\n")[:-1]  # the last piece has no newline: it may be cut off mid-line
        acknowledged.update((int(a), int(b)) for a, b in (line.split() for line in lines))
        assert child.returncode == -signal.SIGKILL
        logged = asyncio.run(verify(path, acknowledged))
        assert logged >= len(acknowledged)
