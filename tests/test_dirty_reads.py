"""A read outside a transaction sees committed data only, on both backends, even while a write is half-way.

On SQLite the bot used one connection for everything, so a read made while another coroutine's transaction
was open ran inside that transaction: it saw a game's row already at the new move while the move's action row
was not yet written (a sound game noted as `log_damaged`), or a change that was then rolled back.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable

import pytest
from support.storage_helpers import Halfway, new_stored_game

from engine import apply
from engine.randomplay import random_action
from storage import Store, chain
from storage.sql import Transaction

WAIT = 5.0  # seconds a read may take beside an open write before the test calls it blocked


async def _beside(halfway: Halfway, write: asyncio.Task[object], read: Callable[[], Awaitable[object]]) -> object:
    """`read()` while `write` is held half-way; the write is let go whatever happens."""
    try:
        await asyncio.wait_for(halfway.reached.wait(), WAIT)
        return await asyncio.wait_for(read(), WAIT)  # reads never wait for a write to commit
    finally:
        halfway.release()
        await asyncio.gather(write, return_exceptions=True)


class RolledBack(Exception):
    pass


@pytest.mark.parametrize("outcome", ["commits", "rolls back"])
async def test_a_read_beside_an_open_transaction_sees_only_committed_data(store: Store, outcome: str) -> None:
    await store.settings.set_meta("colour", "red")
    halfway = Halfway()

    async def work(tx: Transaction) -> None:
        assert await tx.execute("UPDATE meta SET value = 'blue' WHERE key = 'colour'") == 1
        assert (await tx.fetchone("SELECT value FROM meta WHERE key = 'colour'"))["value"] == "blue"  # its own
        await halfway.pause()
        if outcome == "rolls back":
            raise RolledBack

    write = asyncio.create_task(store.db.transaction(work))
    seen = await _beside(halfway, write, lambda: store.settings.meta("colour"))
    assert seen == "red"
    assert await store.settings.meta("colour") == ("blue" if outcome == "commits" else "red")
    if outcome == "rolls back":
        with pytest.raises(RolledBack):
            await write


@pytest.mark.parametrize("outcome", ["commits", "rolls back"])
async def test_a_game_loaded_while_a_move_is_half_committed_is_the_previous_version_and_sound(
        store: Store, outcome: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move's game row is updated first, its action row appended after: a load between the two must not
    see the one without the other (it read move n + 1 with n actions and noted a sound log as damaged)."""
    record = await new_stored_game(store, channel=7, seed=11)
    rnd = random.Random(11)
    for _ in range(3):
        player, action = random_action(record.state, rnd)
        record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                                 apply(record.state, player, action).state)
    halfway = Halfway()
    append = chain.append

    async def held_append(tx: Transaction, content: tuple[object, ...], previous: bytes | None = None) -> bytes:
        await halfway.pause()  # the game's row is at the new move already; its action row is not written yet
        if outcome == "rolls back":
            raise RolledBack
        return await append(tx, content, previous)

    monkeypatch.setattr(chain, "append", held_append)
    # The move's transaction of several statements: PostgreSQL writes a move whose previous hash is kept as one
    # statement (storage/onestatement.py), which has no halfway for a reader; the transaction stays for the rest.
    monkeypatch.setattr(type(store.db.dialect), "writes_in_one_statement", False)
    player, action = random_action(record.state, rnd)
    moved = apply(record.state, player, action).state
    write = asyncio.create_task(store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                                          moved))

    async def read() -> list[int]:
        return [(await store.games.load_game(record.id)).version, (await store.games.load_channel(7)).version,
                *(g.version for g in (await store.games.active_games())[0])]

    seen = await _beside(halfway, write, read)
    assert seen == [record.version] * 3
    assert await store.log.notes(record.id) == []  # no `log_damaged` on a sound game
    after = await store.games.load_game(record.id)
    assert after.version == record.version + (1 if outcome == "commits" else 0)
    assert await store.log.notes(record.id) == []
