"""Shared helpers for the storage tests: playing random legal actions through a Store."""

from __future__ import annotations

import random

from engine import apply, new_game
from engine.randomplay import random_action
from storage import GameRecord, Store


async def new_stored_game(store: Store, channel: int, seed: int, players: int = 3, guild: int = 1) -> GameRecord:
    ids = [f"u{channel}-{i}" for i in range(players)]
    state, _ = new_game(ids, seed=seed)
    return await store.create_game(guild, channel, {"players": ids, "seed": seed, "start_player": None}, state)


async def play_random(store: Store, record: GameRecord, moves: int, rnd: random.Random) -> GameRecord:
    for _ in range(moves):
        if record.state.phase == "game_over":
            break
        player, action = random_action(record.state, rnd)
        result = apply(record.state, player, action)
        record = await store.commit_action(record.id, record.version, player, action.to_json_dict(), result.state)
    return record
