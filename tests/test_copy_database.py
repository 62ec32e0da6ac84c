"""`augsburg copy-database`: a bot's data moves from SQLite to PostgreSQL (and back) without losing a game,
a move, a deadline, a setting or a statistic; it refuses a target that is not empty and a source a live bot
serves (issue 26)."""

from __future__ import annotations

import asyncio
import json

import pytest
from support.played import play_game
from support.raw import tamper

from bot.app.cli import main as augsburg
from bot.service import GameService, Timing
from bot.service.clock import SystemClock
from storage import GameQuarantined, Seat, Store, Table

GUILDS = (1, 2)
PEOPLE = ("a", "b", "c", "d")


async def a_bots_life(database: str) -> None:
    """Finished games on two servers (one in a thread of channel 20), a running one on the clock, a cancelled,
    an abandoned and a lobby, settings, a fact, and a game damaged beyond repair (quarantined)."""
    service = GameService(await Store.open(database), SystemClock(), Timing(turn_seconds=3600))
    try:
        for guild, channel, humans, computers, seed in [(1, 10, ["a", "b"], 1, 1), (2, 20, ["a", "d"], 0, 2),
                                                        (1, 11, ["b", "c", "d"], 1, 3)]:
            assert (await play_game(service, guild, channel, humans, computers, seed)).status == "finished"
        assert (await play_game(service, 2, 24, ["b", "c"], 1, 8, parent=20)).parent_id == 20  # in a thread
        await play_game(service, 1, 12, ["a", "c"], 1, 4, moves=25)  # running, with its deadlines
        await play_game(service, 1, 13, ["b", "d"], 0, 5, moves=10)
        assert (await service.lobby.cancel(13, "b", can_manage=False)).ok
        gone = await play_game(service, 2, 21, ["c"], 1, 6, moves=10)
        assert (await service.seats.leave_game(21, gone.id, "c")).ok
        assert (await service.lobby.open_table(2, 22, Seat(id="d", name="Pd"))).ok  # a lobby
        damaged = await play_game(service, 2, 23, ["a", "b"], 0, 7, moves=12)
        await service.settings.set_notify("a", "dm", "de")
        await service.settings.note_dm_failed("a")
        await service.settings.set_notify("b", "none")
        await service.core.store.settings.set_guild_settings(1, {"something": 1})
        await service.settings.set_fact("synced_commands", "abc123")
    finally:
        await service.close()
    store = await Store.open(database)  # damage beyond repair: the snapshot and the log
    try:
        await tamper(store, "UPDATE games SET snapshot = 'garbage' WHERE id = ?", damaged.id)
        await tamper(store, "UPDATE actions SET player = 'x' WHERE game_id = ? AND move = 3", damaged.id)
        with pytest.raises(GameQuarantined):
            await store.games.load_channel(23)
    finally:
        await store.close()


async def everything(database: str) -> dict:
    """All a bot can read back, through the storage contract."""
    store = await Store.open(database)
    try:
        ids = [r["id"] for r in await store.db.fetchall("SELECT id FROM games ORDER BY id")]
        games = {}
        for game_id in ids:
            exported = await store.log.export_game(game_id)
            try:
                record = await store.games.load_game(game_id)
                state = record.state.model_dump_json() if record.state else None
            except GameQuarantined:
                state = "quarantined"
            moves = [(m.move, m.player, m.actor, [e.model_dump_json() for e in m.entries], m.at)
                     for m in await store.log.moves_since(game_id, -1)]
            games[game_id] = (json.dumps(exported, sort_keys=True), state, moves)
        return {
            "games": games,
            "deadlines": [(d.game_id, d.player, d.kind, d.due_at, d.payload)
                          for d in await store.deadlines.deadlines()],
            "settings": {p: await store.settings.player_settings(p) for p in PEOPLE},
            "guilds": {g: await store.settings.guild_settings(g) for g in GUILDS},
            "fact": await store.settings.meta("synced_commands"),
            "boards": {g: await store.records.leaderboard(g, 0, 50) for g in GUILDS},
            "computers": {g: await store.records.computer_totals(g) for g in GUILDS},
            "stats": {(p, g): await store.records.player_stats(p, g) for p in PEOPLE for g in (*GUILDS, None)},
            "history": {g: await store.records.recent_games(g, limit=50) for g in GUILDS},
            "channel 20": [g.id for g in await store.records.recent_games(2, 20)],  # with its thread's
            "ratings": {g: await store.ratings.board(g, "", 0, 50) for g in (0, *GUILDS)},
            "rated": await store.ratings.rated_games(),
            "changes": {g: await store.ratings.changes(g) for g in ids},
            "reliability": {p: await store.ratings.reliability(p) for p in PEOPLE},
        }
    finally:
        await store.close()


async def copy(source: str, target: str, capsys) -> tuple[int, str]:
    code = await asyncio.to_thread(augsburg, ["copy-database", "--from", source, "--to", target])
    return code, capsys.readouterr().out


async def test_sqlite_to_postgres_and_back_loses_nothing(tmp_path, postgres_url, capsys):
    source = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    await a_bots_life(source)
    before = await everything(source)

    code, said = await copy(source, postgres_url, capsys)
    assert code == 0, said
    assert "games: 9 (1 abandoned, 1 active, 1 cancelled, 4 finished, 1 lobby, 1 quarantined)" in said
    assert "Checked on the target: 8 games load and their hash chains verify." in said
    assert "was already damaged in the source (quarantined): copied as it was" in said
    assert await everything(postgres_url) == before
    assert len(before["channel 20"]) == 2 and '"parent_id": 20' in before["games"][4][0]  # the thread's game
    assert before["reliability"]["c"].left == 1 and sum(map(len, before["changes"].values())) > 0

    back = f"sqlite:///{tmp_path / 'back.sqlite3'}"
    code, said = await copy(postgres_url, back, capsys)
    assert code == 0, said
    assert await everything(back) == before

    store = await Store.open(postgres_url)  # new games are numbered after the copied ones
    try:
        record = await store.games.open_lobby(1, 99, Table(host="z", seats=(Seat(id="z", name="Z"),)))
        assert record.id == max(before["games"]) + 1
    finally:
        await store.close()


async def test_a_target_that_is_not_empty_is_refused_and_left_as_it_was(tmp_path, postgres_url, capsys):
    source = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    await a_bots_life(source)
    assert (await copy(source, postgres_url, capsys))[0] == 0
    after_first = await everything(postgres_url)
    code, said = await copy(source, postgres_url, capsys)
    assert code == 1 and "Nothing was copied" in said and "is not empty" in said
    assert await everything(postgres_url) == after_first


async def test_a_source_a_live_bot_serves_is_refused(tmp_path, postgres_url, capsys):
    source = f"sqlite:///{tmp_path / 'bot.sqlite3'}"
    await a_bots_life(source)
    served = await Store.open(source)
    try:
        await served.leases.take_lease("bot", 4242, "box", 30)
        code, said = await copy(source, postgres_url, capsys)
        assert code == 1 and "pid 4242 on box" in said and "stop it first" in said
    finally:
        await served.close()
    target = await Store.open(postgres_url)
    try:
        assert await target.db.fetchone("SELECT id FROM games") is None  # nothing was copied
    finally:
        await target.close()
