"""Online backups, a damaged database at start-up, and `augsburg restore` (issue 12)."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import ROOT
from support.bot_support import long_lived, make_bot
from support.fake_discord import Harness
from support.storage_helpers import new_stored_game, play_random

from bot.app.backups import Backups, damaged_database
from bot.app.cli import main as augsburg
from bot.app.config import Settings
from storage import Store
from storage.sqlite.backup import BackupFailed, back_up, backups, integrity, taken_at
from storage.sqlite.restore import damage

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


async def stored_game(path: Path, channel: int = 7, moves: int = 20, seed: int = 7):
    """A database with one game `moves` into play; returns the store (open) and the game's record."""
    store = await Store.open(path)
    record = await play_random(store, await new_stored_game(store, channel=channel, seed=seed), moves,
                               random.Random(seed))
    return store, record


def damage_a_page(path: Path) -> None:
    """Overwrite the middle of the fullest table b-tree page with 0xFF, as a failing disk might (an empty
    page, such as a released lease's, would hide the damage)."""
    data = bytearray(path.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    pages = [n for n in range(1, len(data) // size) if data[n * size] in (0x05, 0x0D)]  # interior, leaf
    start = max(pages, key=lambda n: int.from_bytes(data[n * size + 3:n * size + 5], "big")) * size
    data[start + size // 4: start + 3 * size // 4] = b"\xff" * (size // 2)
    path.write_bytes(bytes(data))


async def test_a_backup_is_a_checked_copy_taken_while_the_bot_writes(tmp_path):
    store, record = await stored_game(tmp_path / "augsburg.sqlite3")
    try:
        copying = asyncio.create_task(asyncio.to_thread(back_up, store.path, tmp_path / "backups", 5))
        later = await play_random(store, record, 10, random.Random(8))  # the bot goes on meanwhile
        path = await copying
        assert path.parent == tmp_path / "backups" and path.name.startswith("augsburg-")
        assert backups(store.path, tmp_path / "backups") == [path] and integrity(path) == "ok"
        assert not Path(f"{path}-wal").exists() and not list(path.parent.glob("*.partial"))
        copy = await Store.open(path)
        try:
            restored = await copy.games.load_channel(7)  # a consistent snapshot: some move between the two
            assert record.state.moves <= restored.state.moves <= later.state.moves
            assert await copy.log.notes(restored.id) == []  # snapshot and log agree, the chain is whole
        finally:
            await copy.close()
    finally:
        await store.close()


async def test_only_the_newest_backups_are_kept(tmp_path):
    store, _ = await stored_game(tmp_path / "augsburg.sqlite3", moves=2)
    await store.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "other-20250301T110000.000000Z.sqlite3").write_bytes(b"another database's")
    (folder / "augsburg-20250301T110000.000000Z.sqlite3.partial").write_bytes(b"a crash mid-copy")
    made = [back_up(store.path, folder, 3, now=T0 + timedelta(hours=h)) for h in range(5)]
    assert backups(store.path, folder) == made[:1:-1]  # the newest three, newest first
    assert [taken_at(p) for p in backups(store.path, folder)] == [T0 + timedelta(hours=h) for h in (4, 3, 2)]
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith("augsburg-")) == [
        "other-20250301T110000.000000Z.sqlite3"]
    assert not list(folder.glob("*.partial"))
    with pytest.raises(BackupFailed):
        back_up(tmp_path / "missing.sqlite3", folder, 3)


async def test_backups_come_on_schedule_and_a_failure_never_stops_them(tmp_path, caplog):
    store, _ = await stored_game(tmp_path / "augsburg.sqlite3", moves=2)
    folder = tmp_path / "backups"
    task = Backups(store.path, folder, every=0.05, keep=2)
    try:
        task.start()  # no backup yet: the first is due at once
        await wait_for(lambda: len(list(folder.glob("augsburg-*.sqlite3"))) == 2)  # and the next on schedule
        await task.stop()  # a copy under way finishes in its thread: count only once none can be
        for _ in range(3):
            await task.once()
        assert len(backups(store.path, folder)) == 2  # the oldest go
        task.start()
        task.folder = tmp_path / "a-file" / "backups"  # the folder cannot be made: every backup fails
        (tmp_path / "a-file").write_text("in the way")
        with caplog.at_level(logging.ERROR, logger="bot.app.backups"):
            await wait_for(lambda: sum("backup of" in r.message for r in caplog.records) >= 2)
        task.folder = folder
        newest = backups(store.path, folder)[0]
        await wait_for(lambda: backups(store.path, folder)[0] != newest)  # still running, and backing up again
    finally:
        await task.stop()
        await store.close()
    assert task._task is None
    # A restart keeps the schedule: the newest backup is fresh, so the next is a whole interval away.
    assert 3500 < Backups(store.path, folder, every=3600, keep=2)._first_due() <= 3600
    assert Backups(store.path, tmp_path / "none", every=3600, keep=2)._first_due() == 0


async def test_the_bot_backs_up_from_setup_until_it_closes(tmp_path):
    folder = tmp_path / "backups"
    bot = make_bot(tmp_path / "bot.sqlite3", backup_dir=str(folder), backup_every_seconds=3600, backup_keep=2)
    h = await Harness.create(bot, ignore=(long_lived, lambda t: t.get_name() == "database backups"))
    try:
        await wait_for(lambda: len(backups(tmp_path / "bot.sqlite3", folder)) == 1)
        task = bot.backups._task
        assert not task.done()
    finally:
        await h.close()
    assert task.done() and bot.backups._task is None
    assert make_bot(tmp_path / "x.sqlite3").settings.backup_dir is None  # unset: no backups


async def test_a_damaged_database_stops_the_start_with_one_line_and_restore_puts_the_backup_back(
        tmp_path, monkeypatch, capsys):
    live, folder = tmp_path / "data" / "augsburg.sqlite3", tmp_path / "backups"
    live.parent.mkdir()
    store, record = await stored_game(live)
    back_up(live, folder, 24)
    await play_random(store, record, 5, random.Random(9))  # played after the backup: lost in a restore
    await store.close()
    damage_a_page(live)
    assert damage(live) is not None
    damaged_bytes = live.read_bytes()

    # python -m bot: one line on stderr naming the command, a non-zero exit, before connecting anywhere.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "BACKUP_"))}
    env |= {"DISCORD_TOKEN": "not-a-real-token", "DATABASE_PATH": str(live), "BACKUP_DIR": str(folder),
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10", "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway",
            "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, cwd=tmp_path, env=env,
                         timeout=60)
    assert out.returncode == 4 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert "is damaged" in lines[0] and f"augsburg restore --database {live} --from {folder}" in lines[0]

    # augsburg restore, with its defaults from the settings (the environment, as the bot reads them).
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_PATH", str(live))
    monkeypatch.setenv("BACKUP_DIR", str(folder))
    assert augsburg(["restore"]) == 0
    said = capsys.readouterr().out
    aside = {p.name: p for p in live.parent.iterdir() if ".damaged-" in p.name}
    kept = next(p for name, p in aside.items() if name.endswith("Z"))  # NAME.damaged-STAMP, and its -wal, -shm
    assert kept.name.startswith("augsburg.sqlite3.damaged-") and set(aside) <= {
        kept.name, f"{kept.name}-wal", f"{kept.name}-shm"}
    assert kept.read_bytes() == damaged_bytes  # kept aside as it was found
    assert f"aside to {kept}" in said and f"Restored {live} from {backups(live, folder)[0]}" in said
    assert damage(live) is None and damaged_database(Settings(_env_file=None)) is None
    store = await Store.open(live)
    try:
        loaded = await store.games.load_channel(7)
        assert loaded.state == record.state and await store.log.notes(loaded.id) == []  # as it was at the backup
    finally:
        await store.close()


async def test_restore_takes_the_newest_good_backup_and_refuses_politely_without_one(tmp_path, capsys):
    live, folder = tmp_path / "augsburg.sqlite3", tmp_path / "backups"
    store, _ = await stored_game(live, moves=3)
    await store.close()
    older = back_up(live, folder, 24, now=T0)
    newer = back_up(live, folder, 24, now=T0 + timedelta(hours=1))
    restore = ["restore", "--database", str(live), "--from", str(folder)]
    # A sound database is not replaced unless asked to (--force).
    assert augsburg(restore) == 1
    assert "passes its check: nothing was changed" in capsys.readouterr().out
    assert augsburg([*restore, "--force"]) == 0
    assert f"Restored {live} from {newer}" in capsys.readouterr().out
    # The newest backup is damaged: the one before it is taken.
    damage_a_page(live)
    damage_a_page(newer)
    assert augsburg(restore) == 0
    said = capsys.readouterr().out
    assert f"Skipped backup {newer}: damaged" in said and f"Restored {live} from {older}" in said
    assert damage(live) is None
    # No good backup at all: a polite refusal, and every file stays as it was.
    damage_a_page(live)
    damage_a_page(older)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert augsburg(restore) == 1
    said = capsys.readouterr().out
    assert "Nothing was changed: no good backup of augsburg.sqlite3" in said and "2 found, all damaged" in said
    with pytest.raises(SystemExit) as stopped:  # a folder that is not there: a usage error, in one line
        augsburg(["restore", "--database", str(live), "--from", str(tmp_path / "empty")])
    assert stopped.value.code == 2 and "empty is not a folder of backups: it does not exist" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert augsburg(["restore", "--database", str(live), "--from", str(tmp_path / "empty")]) == 1
    assert "none found" in capsys.readouterr().out
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


async def wait_for(condition, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_settings_read_backups_from_the_environment(monkeypatch):
    monkeypatch.setenv("BACKUP_DIR", "/srv/backups")
    monkeypatch.setenv("BACKUP_EVERY_SECONDS", "600")
    monkeypatch.setenv("BACKUP_KEEP", "48")
    settings = Settings(_env_file=None)
    assert (settings.backup_dir, settings.backup_every_seconds, settings.backup_keep) == ("/srv/backups", 600, 48)
    monkeypatch.setenv("BACKUP_KEEP", "0")
    with pytest.raises(ValueError):
        Settings(_env_file=None)


async def test_restore_refuses_while_a_bot_still_serves_the_database(tmp_path, capsys):
    live, folder = tmp_path / "augsburg.sqlite3", tmp_path / "backups"
    store, _ = await stored_game(live, moves=3)
    back_up(live, folder, 24, now=T0)
    await store.leases.take_lease("bot-1", 4242, "host-a", seconds=30)  # a bot is running on it
    before = live.read_bytes()
    assert augsburg(["restore", "--database", str(live), "--from", str(folder), "--force"]) == 1
    said = capsys.readouterr().out
    assert "pid 4242 on host-a" in said and "stop it first" in said and live.read_bytes() == before
    await store.leases.release_lease("bot-1")
    await store.close()
    assert augsburg(["restore", "--database", str(live), "--from", str(folder), "--force"]) == 0
