"""Shared helpers for the storage tests: playing random legal actions through a Store."""

from __future__ import annotations

import asyncio
import random
import threading

from engine import GameState, apply, new_game
from engine.randomplay import random_action
from storage import GameRecord, Seat, Store, Table


async def new_stored_game(store: Store, channel: int, seed: int, players: int = 3, guild: int = 1) -> GameRecord:
    ids = [f"u{channel}-{i}" for i in range(players)]
    state, _ = new_game(ids, seed=seed)
    return await store.games.create_game(guild, channel, table_of(ids, seed), state)


def table_of(ids: list[str], seed: int) -> Table:
    """A started table of human players."""
    return Table(host=ids[0], seats=tuple(Seat(id=i, name=i) for i in ids), seed=seed)


async def play_random(store: Store, record: GameRecord, moves: int, rnd: random.Random) -> GameRecord:
    for _ in range(moves):
        if record.state.phase == "game_over":
            break
        player, action = random_action(record.state, rnd)
        result = apply(record.state, player, action)
        record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(), result.state)
    return record


async def up_to_the_last_move(store: Store, guild: int, channel: int, table: Table,
                              rnd: random.Random) -> tuple[GameRecord, str, dict, GameState]:
    """A game of `table` (dealt from its seed) played at random up to the move that ends it, which is left to
    make: the record, and that move's player, action and the state it leads to."""
    state, _ = new_game(table.players, seed=table.seed)
    record = await store.games.create_game(guild, channel, table, state)
    while True:
        player, action = random_action(record.state, rnd)
        result = apply(record.state, player, action)
        if result.state.phase == "game_over":
            return record, player, action.to_json_dict(), result.state
        record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                                 result.state)


HOLD = 20.0  # seconds a transaction held half-way waits for its release at most (a test that failed first)


class Halfway:
    """A write held open half-way: `reached` once it got there, going on once `release`d. On SQLite a
    transaction runs in the writer's thread (storage/sqlite/database.py), where it is held by blocking that
    thread; on PostgreSQL on the writes' own loop in a thread (storage/postgres/thread.py), where it awaits."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.reached, self._go, self._go_here = asyncio.Event(), threading.Event(), asyncio.Event()

    async def pause(self) -> None:
        if threading.current_thread() is threading.main_thread():
            self.reached.set()
            await self._go_here.wait()
        else:
            self.loop.call_soon_threadsafe(self.reached.set)
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # SQLite's writer: no loop there
                self._go.wait(HOLD)
                return
            for _ in range(int(HOLD / 0.005)):
                if self._go.is_set():
                    return
                await asyncio.sleep(0.005)

    def release(self) -> None:
        self._go.set()
        self._go_here.set()
