"""Child process for the ratings' kill test (tests/test_rating_crash.py): it is killed (SIGKILL, by itself) at
one step of rating games, then the test checks that every finished game is rated exactly once.

    rating_crash_worker.py DATABASE catch_up STEP   open the database, whose finished games are not rated yet
        (as migration 12 found them): the catch-up rates them one transaction each; STEP counts the points
        where it may die: in a game's transaction before it wrote anything (2i), after it wrote the rating (2i+1)
    rating_crash_worker.py DATABASE finish STEP     play the database's one active game to its end: STEP 0
        dies inside the transaction that finishes and rates it, STEP 1 just after its commit, else it lives
It prints "done" if it was not killed.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import apply  # noqa: E402
from engine.randomplay import random_action  # noqa: E402
from storage import Store, ratings, stats  # noqa: E402


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


async def main(database: str, mode: str, step: int) -> None:
    points = iter(range(10**6))
    real = ratings.rate_game

    async def counted(tx, dialect, game_id, now):  # type: ignore[no-untyped-def]
        if mode == "catch_up" and next(points) == step:
            die()  # in this game's transaction, before it wrote anything
        done = await real(tx, dialect, game_id, now)
        if next(points) == step:
            die()  # inside the transaction: the rating written, not committed
        return done

    ratings.rate_game = counted  # type: ignore[assignment]
    stats.rate_game = counted  # type: ignore[assignment]
    if mode == "finish":
        points = iter(range(10**6))
    store = await Store.open(database)  # the catch-up
    if mode == "finish":
        (record,), _ = await store.games.active_games()
        rnd = random.Random(0)
        while record.status == "active":  # (the test leaves it near its end: the last commit finishes it)
            player, action = random_action(record.state, rnd)
            result = apply(record.state, player, action)
            record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                                     result.state)
        if step == 1:
            die()  # committed: finished and rated
    await store.close()
    print("done", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
