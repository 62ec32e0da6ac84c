"""Each game's newest moves are kept as they are written (storage/recent.py, issue 44): a panel's catch-up,
its live redraws and the table's latest lines read them from memory. What memory answers must be what the
database holds, at every version, for every player and every start; and what memory cannot vouch for (an
older move, a version another process wrote) is read."""

from __future__ import annotations

import random
import sys

import pytest
from support.storage_helpers import table_of

from engine import apply, new_game
from engine.randomplay import random_action
from storage import Store
from storage.recent import MOVES_KEPT, RecentMoves


class Reads:
    """Counts the log's reads of the database."""

    def __init__(self, store: Store):
        self.count = 0
        fetchall = store.log.db.fetchall

        async def counted(*args, **kwargs):
            self.count += 1
            return await fetchall(*args, **kwargs)

        store.log.db = type("Counted", (), {"fetchall": staticmethod(counted)})()  # the log's own view of it


async def started_game(store: Store, channel: int, seed: int, players: int = 3):
    ids = [f"u{channel}-{i}" for i in range(players)]
    lobby = await store.games.open_lobby(1, channel, table_of(ids, seed))
    state, deal = new_game(ids, seed=seed)
    return await store.games.start_game(lobby.id, lobby.version, table_of(ids, seed), state, log=deal)


async def test_the_newest_moves_from_memory_are_what_the_database_holds_at_every_version(store):
    record = await started_game(store, channel=1, seed=11)
    players = record.table.players
    rnd = random.Random(11)
    log = store.log
    memory = Reads(store)
    answered = 0
    for i in range(60):
        if i % 7 == 3:  # seats change: table events after the move, a version of their own
            told = apply(record.state, *random_action(record.state, rnd)).events[:1]  # an entry to log
            record = await store.games.update_table(record.id, record.version, record.table, log=told)
        else:
            player, action = random_action(record.state, rnd)
            result = apply(record.state, player, action)
            record = await store.games.commit_action(
                record.id, record.version, player, action.to_json_dict(), result.state, events=result.events,
                actor=rnd.choice(["player", "player", "clock", "stand_in"]), log=result.events[:i % 3])
        moves = record.state.moves
        for player in (*players, "nobody"):
            before = memory.count
            kept = await log.moves_since_decision(record.id, player, record.version)
            answered += memory.count == before
            assert kept == await log.moves_since_decision(record.id, player), (i, player)
        for after in (-1, 0, moves - 16, moves - 1, moves):
            before = memory.count
            kept = await log.moves_since(record.id, after, record.version)
            answered += memory.count == before
            assert kept == await log.moves_since(record.id, after), (i, after)
    assert answered > 400, answered  # most from memory: the table's lines and every catch-up but the oldest
    reloaded = await store.games.load_game(record.id)  # the chain of hashes written from memory holds
    assert reloaded.version == record.version and reloaded.state == record.state


async def test_a_version_written_elsewhere_or_an_ended_game_is_read_from_the_database(database, store):
    record = await started_game(store, channel=2, seed=5)
    rnd = random.Random(5)
    for _ in range(5):
        player, action = random_action(record.state, rnd)
        result = apply(record.state, player, action)
        record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                                 result.state, events=result.events)
    other = await Store.open(database)  # another process, which took the game over
    try:
        player, action = random_action(record.state, rnd)
        result = apply(record.state, player, action)
        theirs = await other.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                                 result.state, events=result.events)
    finally:
        await other.close()
    reads = Reads(store)
    for p in record.table.players:  # at the newer version: nothing here vouches for it
        assert await store.log.moves_since_decision(theirs.id, p, theirs.version) == \
            await store.log.moves_since_decision(theirs.id, p)
    assert reads.count == 2 * len(record.table.players)
    # this process writes on from the version the other wrote: its next move is chained to theirs
    player, action = random_action(theirs.state, rnd)
    result = apply(theirs.state, player, action)
    mine = await store.games.commit_action(theirs.id, theirs.version, player, action.to_json_dict(), result.state,
                                           events=result.events)
    assert (await store.games.load_game(mine.id)).version == mine.version  # verified: the chain holds
    ended = await store.games.finish_game(mine.id, mine.version, "cancelled")
    before = reads.count
    assert await store.log.moves_since(ended.id, 0, ended.version) == await store.log.moves_since(ended.id, 0)
    assert reads.count == before + 2


@pytest.mark.parametrize("moves", [3, 30])
async def test_what_is_kept_per_game_is_bounded(store, moves):
    record = await started_game(store, channel=3, seed=2)
    rnd = random.Random(2)
    for _ in range(moves):
        player, action = random_action(record.state, rnd)
        result = apply(record.state, player, action)
        record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                                 result.state, events=result.events)
    reads = Reads(store)
    everything = await store.log.moves_since(record.id, -1, record.version)
    assert everything == await store.log.moves_since(record.id, -1)
    # the whole game from memory while it is short; once longer than what is kept, the start is read
    assert reads.count == (1 if moves <= MOVES_KEPT else 2)
    before, after = reads.count, record.state.moves - MOVES_KEPT + 1  # the newest kept: from memory, any length
    newest = await store.log.moves_since(record.id, after, record.version)
    assert reads.count == before and newest == await store.log.moves_since(record.id, after)
    assert len(newest) == min(moves + 1, MOVES_KEPT - 1)  # (the deal too, while the game is short)


def test_what_is_kept_of_all_games_is_counted_and_its_bytes_weighed_from_a_sample():
    """The operator's figure (issue 44): exact in rows, within a tenth in bytes, weighed in a sample."""
    recent, rnd = RecentMoves(), random.Random(5)
    rows = weight = 0
    for game in range(1, 2001):
        deal = ["{}" * rnd.randrange(1, 40)]
        recent.started(game, 1, deal, at=0.0)
        made = [(1, 0, None, None, deal[0], 0.0)]
        for move in range(1, rnd.randrange(60)):
            body = "x" * rnd.randrange(50, 2000)
            recent.moved(game, move + 1, move, "p", "player", body, [], float(move), b"h")
            made.append((0, move, "p", "player", body, float(move)))
        actions = [r for r in made if r[0] == 0]
        kept = actions[-MOVES_KEPT:] + (made[:1] if len(actions) <= MOVES_KEPT else [])
        rows += len(kept)
        weight += sum(sys.getsizeof(r) + sys.getsizeof(r[4]) + sys.getsizeof(r[5]) for r in kept)
    games, counted, about = recent.held()
    assert (games, counted) == (2000, rows)
    assert abs(about - weight) < weight / 10
    recent.drop(7)
    assert recent.held()[0] == 1999


def test_what_is_kept_of_a_game_is_let_go_of_by_the_collections_that_come_often():
    """Issue 44: each game's moves are kept as tuples of text and numbers. The young and middle collections,
    which come every second or so, must let go of what a write keeps: a tuple still tracked when it reaches
    the old generation is walked by every full collection (the one that pauses the bot longest) until one
    lets go of it, minutes later, and a bot writes to thousands of games meanwhile."""
    import gc

    recent = RecentMoves()
    gc.collect()
    gc.disable()  # (no collection but the two below)
    try:
        for game in range(1, 201):
            recent.started(game, 1, ['{"deal": 1}', '{"deal": 2}'], at=0.0)
            for move in range(1, 4):
                recent.moved(game, move + 1, move, "p", "player", '{"moved": 1}', ['{"seat": 1}'], float(move),
                             b"hash%d" % move)
            recent.table_changed(game, 5, 3, ['{"seat": 2}'], 4.0)
        gc.collect(0)
        gc.collect(1)
        kept = list(recent._tails.values())
        assert len(kept) == 200 and not [t for t in kept if gc.is_tracked(t)]
    finally:
        gc.enable()
    # (what is kept still answers: the rows since a move, the newest hash)
    assert [r[1] for r in recent.since(7, 5, 1) or []] == [2, 3, 1, 2, 3, 3]  # actions after 1, events from 1
    assert recent.previous_hash(7, 5, 3) == b"hash3" and recent.previous_hash(7, 5, 2) is None
