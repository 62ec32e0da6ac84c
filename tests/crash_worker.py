"""Child process for the kill -9 test: plays random legal actions on 20 games forever.

It prints "GAME_ID VERSION" for each action only after its commit has returned,
so every printed line is an action the bot would have acknowledged.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.storage_helpers import new_stored_game  # noqa: E402

from engine import apply  # noqa: E402
from engine.randomplay import random_action  # noqa: E402
from storage import Store  # noqa: E402

GAMES = 20


async def main(path: str, seed: int) -> None:
    rnd = random.Random(seed)
    store = await Store.open(path)
    games, _ = await store.games.active_games()
    games = [g for g in games if g.status == "active"]
    print("ready", flush=True)
    while True:
        while len(games) < GAMES:
            games.append(await new_stored_game(store, channel=time.time_ns(), seed=rnd.randrange(2**32),
                                               players=rnd.randint(2, 5)))
        i = rnd.randrange(len(games))
        record = games[i]
        player, action = random_action(record.state, rnd)
        result = apply(record.state, player, action)
        record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(), result.state)
        print(record.id, record.version, flush=True)
        if record.state.phase == "game_over":  # the last commit finished it
            games.pop(i)
        else:
            games[i] = record


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
