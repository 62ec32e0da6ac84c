"""Issue 43's storage on both backends: a person's open games in every server (`seated_games`), and their own
deadlines (the daily word), fired with the games' deadlines and claimed alike."""

from __future__ import annotations

from support.storage_helpers import table_of

from engine import new_game
from storage import Deadline, Table


async def test_a_persons_open_games_in_every_server_newest_first(store):
    made = []
    for channel, guild, ids in ((1, 10, ["ada", "ben"]), (2, 10, ["ben", "cleo"]), (3, 20, ["cleo", "ada"])):
        state, _ = new_game(ids, seed=channel)
        made.append(await store.games.create_game(guild, channel, table_of(ids, channel), state))
    lobby = await store.games.open_lobby(30, 4, Table(host="ada", seats=table_of(["ada"], 1).seats))
    assert [g.id for g in await store.games.seated_games("ada")] == [lobby.id, made[2].id, made[0].id]
    left = made[2].table.with_seat("ada", left=True)
    await store.games.update_table(made[2].id, made[2].version, left)
    await store.games.finish_game(made[0].id, made[0].version, "cancelled")
    assert [g.id for g in await store.games.seated_games("ada")] == [lobby.id]  # left, ended: gone
    assert await store.games.seated_games("nobody") == []
    assert [g.id for g in await store.games.seated_games("ben")] == [made[1].id]


async def test_a_persons_own_deadline_fires_with_the_games_and_is_claimed_once(store):
    state, _ = new_game(["a", "b"], seed=1)
    record = await store.games.create_game(1, 5, table_of(["a", "b"], 1), state)
    await store.deadlines.set_deadline(record.id, "a", "timeout", 200.0)
    await store.deadlines.set_person_deadline("ada", "daily", 100.0)
    found = await store.deadlines.deadlines()
    assert [(d.game_id, d.player, d.kind, d.due_at) for d in found] == [(0, "ada", "daily", 100.0),
                                                                        (record.id, "a", "timeout", 200.0)]
    assert await store.deadlines.deadlines(due_before=150.0, limit=5) == found[:1]
    daily = found[0]
    assert await store.deadlines.postpone_deadline(daily, 100.0 + 86400)  # the claim: on to tomorrow
    assert not await store.deadlines.postpone_deadline(daily, 100.0 + 86400)  # a second scheduler loses
    moved = Deadline(0, "ada", "daily", 100.0 + 86400, {})
    assert not await store.deadlines.drop_deadline(daily) and await store.deadlines.drop_deadline(moved)
    await store.deadlines.set_person_deadline("ada", "daily", 50.0)
    await store.deadlines.set_person_deadline("ada", "daily", None)
    assert [d.kind for d in await store.deadlines.deadlines()] == ["timeout"]
