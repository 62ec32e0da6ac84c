"""Shared helpers for the storage tests: playing random legal actions through a Store."""

from __future__ import annotations

import random

from engine import apply, new_game
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
