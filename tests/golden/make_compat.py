"""How the golden compatibility fixtures in tests/golden/compat/ were made (issue 30). Do not run it again.

They were written once, by the code of the day before games recorded their edition (commit fb64651), so
that tests/test_golden_compat.py can check forever that games stored and exported by that code still
load, go on, finish and replay. Regenerating them with newer code would test nothing: the test reads the
committed files only. Kept to show how they were made:

    .venv/bin/python tests/golden/make_compat.py

- games.sql: a whole database (`sqlite3` iterdump; no database file is committed) holding
  game 1, a finished 2-player game (a person and a computer, channel 10);
  game 2, a 5-player game in progress (three people, two computers, channel 11);
  game 3, a 3-player game quarantined because both its snapshot and its log were damaged (channel 12).
- export-finished-2p.json and export-running-5p.json: `/augsburg records export` of games 1 and 2.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.played import play_game  # noqa: E402

from bot.service import GameService  # noqa: E402
from bot.service.export import export_bytes, export_game  # noqa: E402
from storage import GameQuarantined, Store  # noqa: E402

OUT = Path(__file__).resolve().parent / "compat"


async def make(db_path: Path) -> None:
    store = await Store.open(db_path)
    service = GameService(store)
    finished = await play_game(service, 1, 10, ["101"], computers=1, seed=2030)
    assert finished.status == "finished", finished.status
    running = await play_game(service, 1, 11, ["201", "202", "203"], computers=2, seed=2031, moves=140)
    assert running.status == "active" and running.state.round >= 2, running.state.round
    damaged = await play_game(service, 1, 12, ["301", "302", "303"], seed=2032, moves=30)
    for name, record in (("export-finished-2p.json", finished), ("export-running-5p.json", running)):
        (OUT / name).write_bytes(export_bytes(await export_game(store.log, await store.games.load_game(record.id))))
    await store.close()
    with sqlite3.connect(db_path) as db:  # both the snapshot and a row of the log damaged: no way back
        db.execute("UPDATE games SET snapshot = 'garbage' WHERE id = ?", (damaged.id,))
        db.execute("UPDATE actions SET action = '{\"do\": \"fly\"}' WHERE game_id = ? AND move = 7", (damaged.id,))
    store = await Store.open(db_path)
    try:
        await store.games.load_game(damaged.id)
        raise AssertionError("game 3 should have been quarantined")
    except GameQuarantined:
        pass
    await store.close()


def main() -> None:
    random.seed(0)
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "golden.sqlite3"
        asyncio.run(make(db_path))
        with sqlite3.connect(db_path) as db:
            sql = "\n".join(db.iterdump()) + "\n"
    (OUT / "games.sql").write_text(sql, encoding="utf-8")
    for name in ("export-finished-2p.json", "export-running-5p.json"):
        json.loads((OUT / name).read_text(encoding="utf-8"))  # well-formed
    print(f"wrote {OUT}/games.sql ({len(sql)} bytes) and two exports")


if __name__ == "__main__":
    main()
