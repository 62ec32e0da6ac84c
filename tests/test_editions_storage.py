"""Stored games and their editions (issue 30): a game keeps the edition it began with, is repaired, exported and
replayed with it, and waits (refused, never quarantined nor replayed with other values) when it is missing."""

from __future__ import annotations

import io
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from support.played import play_game

from bot.service import GameService
from bot.service.export import export_bytes, export_game
from bot.terminal.replay import Replay, read_file, replay
from bot.terminal.screen import Terminal
from bot.wording import ENGLISH
from engine.editions import Library, default
from engine.editions import read_file as read_edition
from storage import GameNotPlayable, Seat, Store
from storage.repair import playable, replay_table

TEST_BOX = Path(__file__).resolve().parent / "editions" / "test-box.toml"


def editions_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "editions"
    folder.mkdir(exist_ok=True)
    shutil.copy(TEST_BOX, folder / "test-box.toml")
    return folder


async def opened(path: Path, library: Library) -> GameService:
    return GameService(await Store.open(path, editions=library))


def damage_snapshot(path: Path, game_id: int) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET snapshot_sha256 = 'x' WHERE id = ?", (game_id,))


async def test_a_game_keeps_its_edition_after_the_operator_adds_another(tmp_path):
    path = tmp_path / "games.sqlite3"
    service = await opened(path, Library())
    old = await play_game(service, 1, 10, ["a", "b"], seed=3, moves=40)
    assert old.state.edition is default() and old.table.edition == default().ref and old.table.rules == 1
    await service.core.store.close()

    service = await opened(path, Library.load(editions_dir(tmp_path), default_id="test-box"))
    try:
        again = await service.games.current(10)
        assert again.state.edition is default() and again.state == old.state
        damage_snapshot(path, old.id)  # rebuilt with its own edition, not the new default
        service = GameService(service.core.store)
        assert (await service.games.current(10)).state == old.state
        new = await play_game(service, 1, 11, ["c", "d"], seed=3)  # a new table gets the new default
        assert new.status == "finished" and new.state.edition.id == "test-box"
        assert new.table.edition == new.state.edition.ref
        # The same seed dealt with other components: the two games differ from the deal on.
        assert new.state.tile_stacks["master_builder"] != old.state.tile_stacks["master_builder"]
        finished = await play_game(service, 1, 12, ["e", "f"], seed=4)
        rows = await service.core.store.log.action_log(finished.id)
        table = finished.table
        edition = playable(service.core.store.editions, table, finished.id, 12)
        assert replay_table(table, rows, edition) == finished.state
    finally:
        await service.core.store.close()


async def test_a_changed_edition_file_keeps_its_games_waiting_until_it_is_back(tmp_path):
    path, folder = tmp_path / "games.sqlite3", editions_dir(tmp_path)
    service = await opened(path, Library.load(folder, default_id="test-box"))
    record = await play_game(service, 1, 10, ["a", "b"], seed=5, moves=30)
    assert record.state.edition.id == "test-box"
    await service.core.store.close()

    original = (folder / "test-box.toml").read_text(encoding="utf-8")
    (folder / "test-box.toml").write_text(original.replace("church = [800, 650,", "church = [850, 650,"))
    changed = Library.load(folder, default_id="test-box")
    assert changed.get("test-box").sha256 != record.state.edition.sha256
    service = await opened(path, changed)
    try:
        with pytest.raises(GameNotPlayable) as err:
            await service.games.current(10)
        assert err.value.edition == "test-box" and "other values" in err.value.reason
        assert record.state.edition.sha256[:12] in err.value.reason and "EDITIONS_DIR" in err.value.reason
        damage_snapshot(path, record.id)  # not even a damaged snapshot is "repaired" with the other values
        with pytest.raises(GameNotPlayable):
            await service.core.store.games.load_game(record.id)
        refused = await service.lobby.open_table(1, 10, Seat(id="a", name="A"))
        assert not refused.ok and refused.notice.code == "not_playable"
        assert refused.notice.params == {"game": record.id, "edition": "test-box"}
        assert (await service.core.store.log.export_game(record.id))["status"] == "active"  # not quarantined
        assert await service.core.store.log.notes(record.id) == []
    finally:
        await service.core.store.close()

    (folder / "test-box.toml").unlink()
    service = await opened(path, Library.load(folder))
    try:
        with pytest.raises(GameNotPlayable, match="there is no edition 'test-box' here"):
            await service.games.current(10)
    finally:
        await service.core.store.close()

    (folder / "test-box.toml").write_text(original)  # the file is back: the game goes on where it was
    service = await opened(path, Library.load(folder))
    try:
        back = await service.games.current(10)
        notes = await service.core.store.log.notes(record.id)
        assert back.state == record.state and [k for k, _ in notes] == ["repaired"]
        assert (await play_game(service, 1, 11, ["c", "d"], seed=6)).state.edition is default()
    finally:
        await service.core.store.close()


async def test_a_game_of_a_rules_version_this_code_does_not_play_is_refused(tmp_path):
    path = tmp_path / "games.sqlite3"
    service = await opened(path, Library())
    record = await play_game(service, 1, 10, ["a", "b"], seed=7, moves=10)
    await service.core.store.close()
    with sqlite3.connect(path) as db:  # as a newer version of the bot would have written it
        table = json.loads(db.execute("SELECT setup FROM games WHERE id = ?", (record.id,)).fetchone()[0])
        db.execute("UPDATE games SET setup = ? WHERE id = ?", (json.dumps({**table, "rules": 2}), record.id))
    service = await opened(path, Library())
    try:
        with pytest.raises(GameNotPlayable, match="rules version 2") as err:
            await service.games.current(10)
        assert err.value.edition is None
    finally:
        await service.core.store.close()


async def test_an_export_carries_its_edition_and_replays_with_it_anywhere(tmp_path):
    service = await opened(tmp_path / "games.sqlite3", Library.load(editions_dir(tmp_path), default_id="test-box"))
    try:
        record = await play_game(service, 1, 10, ["a", "b"], computers=1, seed=8)
        data = json.loads(export_bytes(await export_game(service.core.store.log, record)))
        running = await play_game(service, 1, 11, ["c", "d"], seed=9, moves=15)
        public = json.loads(export_bytes(await export_game(service.core.store.log, running)))
    finally:
        await service.core.store.close()
    box = read_edition(TEST_BOX)
    assert data["version"] == 2 and data["edition"] == {"id": "test-box", "sha256": box.sha256, "rules": 1,
                                                        "toml": TEST_BOX.read_text(encoding="utf-8")}
    assert public["edition"]["id"] == "test-box" and public["table"]["edition"]["sha256"] == box.sha256
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    state = Replay(read_file(str(path)), Terminal(io.StringIO(), out, ENGLISH), step=False, reveal=False).run()
    assert state == record.state and state.edition is box
    assert "Edition: Test box" in out.getvalue()
    path.write_text(json.dumps(public))
    assert replay(str(path), step=False, stdout=io.StringIO()) == 0

    for broken, why in (({**data["edition"], "toml": data["edition"]["toml"].replace("[800,", "[801,")},
                         "is not the one it names"),
                        ({**data["edition"], "toml": "format = 1"}, "Field required"),
                        (None, "does not say which edition"),
                        ({**data["edition"], "rules": 9}, "rules version 9")):
        path.write_text(json.dumps({**data, "edition": broken}))
        out = io.StringIO()
        assert replay(str(path), step=False, stdout=out) == 2
        assert why in out.getvalue(), out.getvalue()
