"""Golden compatibility (issue 30): games stored and exported by older code still load, go on, finish and replay.

tests/golden/compat/ was written once by the code of the day before games recorded their edition
(tests/golden/make_compat.py says how) and is never regenerated: this test must keep passing in every
later change. A rule or component fix that breaks it breaks games people are playing.
"""

from __future__ import annotations

import io
import json
import random
import sqlite3
from pathlib import Path

import pytest

from bot.service import GameService
from bot.service.export import export_bytes, export_game
from bot.terminal.replay import Replay, read_file, replay
from bot.terminal.screen import Terminal
from bot.wording import ENGLISH
from engine import legal_actions, to_act
from engine.randomplay import concrete
from engine.state import GameState
from storage import GameQuarantined, Seat, Store

GOLDEN = Path(__file__).resolve().parent / "golden" / "compat"
FINISHED, RUNNING, QUARANTINED = 1, 2, 3


@pytest.fixture
async def service(tmp_path):
    path = tmp_path / "golden.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript((GOLDEN / "games.sql").read_text(encoding="utf-8"))
    store = await Store.open(path)  # migrations written since are applied here, as at an upgrade
    yield GameService(store)
    await store.close()


def _damage_snapshot(store: Store, game_id: int) -> None:
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE games SET snapshot_sha256 = 'x' WHERE id = ?", (game_id,))


def _replayed(path: Path) -> GameState:
    """What `augsburg replay FILE` reaches, read from a file; it must say nothing went wrong."""
    out = io.StringIO()
    state = Replay(read_file(str(path)), Terminal(io.StringIO(), out, ENGLISH), step=False, reveal=False).run()
    assert replay(str(path), step=False, stdout=io.StringIO()) == 0
    return state


async def test_the_finished_game_loads_repairs_counts_and_replays(service, tmp_path):
    store = service.core.store
    record = await store.games.load_game(FINISHED)
    assert record.status == "finished" and record.state.phase == "game_over"
    assert len(record.table.seats) == 2 and await store.log.notes(FINISHED) == []
    _damage_snapshot(store, FINISHED)  # rebuilt from its seed and log by today's rules: the same game
    assert (await store.games.load_game(FINISHED)).state == record.state
    assert [k for k, _ in await store.log.notes(FINISHED)] == ["repaired"]
    for p in record.state.players:  # the statistics it wrote are those of the game its log replays to
        stats = await store.records.player_stats(p.id, record.guild_id)
        assert (stats.games, stats.wins, stats.best_score) == (1, int(p.id in record.state.winners), p.score)
    old_file = GOLDEN / "export-finished-2p.json"  # exported by the old code
    assert _replayed(old_file) == record.state == GameState.model_validate(json.loads(old_file.read_text())["state"])
    new_file = tmp_path / "again.json"  # exported again by today's code
    new_file.write_bytes(export_bytes(await export_game(store.log, record)))
    assert _replayed(new_file) == record.state


async def test_the_running_game_goes_on_to_its_end(service, tmp_path):
    store = service.core.store
    record = await service.games.current(11)
    assert record.id == RUNNING and record.status == "active" and len(record.state.players) == 5
    before = record.state
    _damage_snapshot(store, RUNNING)
    assert (await store.games.load_game(RUNNING)).state == before
    public = GOLDEN / "export-running-5p.json"  # a running game's public record
    assert read_file(str(public))["complete"] is False and _replayed(public) is None
    rnd = random.Random(30)
    moves = 0
    while record.status == "active":
        player = rnd.choice(to_act(record.state))
        if record.table.computer_plays(player):
            out = await service.decisions.play_computer(11)
        else:
            action = concrete(rnd.choice(legal_actions(record.state, player)), rnd)
            out = await service.decisions.act(11, record.id, player, None, action)
        assert out is not None and out.ok, out and out.notice
        record, moves = out.record, moves + 1
        assert moves < 2000
    assert record.status == "finished" and record.state.phase == "game_over" and record.state.winners
    assert record.state.moves > before.moves
    for p in record.table.humans():  # (computers' ids are the same at every table)
        assert (await store.records.player_stats(p, record.guild_id)).games == 1
    path = tmp_path / "finished-5p.json"
    path.write_bytes(export_bytes(await export_game(store.log, record)))
    assert _replayed(path) == record.state


async def test_the_quarantined_game_stays_quarantined(service):
    store = service.core.store
    with pytest.raises(GameQuarantined):
        await store.games.load_game(QUARANTINED)
    assert (await store.log.export_game(QUARANTINED))["status"] == "quarantined"
    assert [k for k, _ in await store.log.notes(QUARANTINED)] == ["quarantined"]
    assert await service.games.current(12) is None  # the channel is free for a new table
    assert (await service.lobby.open_table(1, 12, Seat(id="301", name="P301"))).ok
