"""The cache of open games (bot/service/cache.py): the games used last are kept parsed and shared, the others
as text; a game leaves the parsed ones and comes back unchanged, and a newer state replaces an older one."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.service.cache import GameCache
from engine import new_game
from storage import GameRecord, Seat, Table


def record(channel: int, version: int = 1) -> GameRecord:
    players = [str(channel), str(channel + 1)]
    table = Table(host=players[0], seats=tuple(Seat(id=p, name=f"P{p}") for p in players), seed=channel)
    return GameRecord(id=channel, guild_id=1, channel_id=channel, status="active", version=version,
                      state=new_game(players, seed=channel)[0], table=table, created_at=0.0, updated_at=0.0)


def text(r: GameRecord) -> str:
    assert r.state is not None
    return r.state.model_dump_json() + r.table.model_dump_json()


def test_a_game_in_use_is_shared_not_parsed_again():
    cache = GameCache(hot=2)
    cache.put(first := record(10))
    assert cache.get(10) is first and cache.get(10) is first
    assert cache.get(11) is None and cache.version(10) == (10, 1)


def test_games_that_cool_come_back_equal_and_are_counted_once():
    cache = GameCache(hot=2)
    games = [record(c) for c in (10, 20, 30, 40)]
    for g in games:
        cache.put(g)
    assert len(cache) == 4
    assert [cache.version(g.channel_id) for g in games] == [(g.id, 1) for g in games]
    again = cache.get(10)  # cold: parsed from its text
    assert again is not None and again is not games[0] and text(again) == text(games[0])
    assert again == replace(games[0], state=again.state, table=again.table)  # the rest of the record too
    for g in games:  # round and round: every one leaves and comes back
        back = cache.get(g.channel_id)
        assert back is not None and text(back) == text(g)
    assert len(cache) == 4


def test_a_newer_state_replaces_the_older_one_hot_or_cold():
    cache = GameCache(hot=1)
    old = record(10)
    cache.put(old)
    cache.put(record(20))  # 10 cools: its text is the old state
    assert old.state is not None
    newer = replace(old, version=2, state=old.state.model_copy(update={"moves": old.state.moves + 1}))
    cache.put(newer)  # hot again, with the newer state
    cache.put(record(30))  # and cold again: its text must be the newer state's, not the older
    back = cache.get(10)
    assert back is not None and back.version == 2 and text(back) == text(newer) != text(old)
    cache.drop(10)
    assert cache.get(10) is None and cache.version(10) is None and len(cache) == 2


@pytest.mark.parametrize("hot", [1, 3])
def test_the_checking_cache_of_the_tests_catches_a_change_in_place(hot):
    from support.shared_games import CheckedGameCache

    cache = CheckedGameCache(hot)
    cache.put(r := record(10))
    shared = cache.get(10)
    assert shared is r and shared.state is not None
    shared.state.players[0].money += 1  # what nothing in the bot may do
    with pytest.raises(AssertionError, match="changed in place"):
        cache.get(10)


def test_a_held_game_stays_parsed_while_others_are_used_and_cools_once_released():
    """The bot is about to move in a held game (a computer's turn, a moment later): it is not parsed again
    however many other games are used meanwhile (issue 44: that reparse was a tenth of the bot's time)."""
    cache = GameCache(hot=2)
    cache.put(held := record(10))
    cache.hold(10)
    for c in (20, 30, 40):
        cache.put(record(c))
    assert cache.get(10) is held and cache.version(10) == (10, 1)  # the very object: not parsed again
    assert cache.get(20) is not None and cache.get(20) is not None  # (a cold one is parsed, as ever)
    assert len(cache) == 4
    newer = replace(held, version=2)
    cache.put(newer)  # the bot's move: the newer record is the one kept
    cache.put(record(50))
    cache.put(record(60))
    assert cache.get(10) is newer
    cache.release(10)
    for c in (20, 30, 40):
        cache.get(c)
    back = cache.get(10)  # cooled as any other: parsed from its text, the newer one's
    assert back is not None and back is not newer and back.version == 2 and text(back) == text(newer)
    assert len(cache) == 6
    cache.hold(70)  # a channel with no game: nothing to keep
    cache.drop(10)
    assert cache.get(10) is None and cache.get(70) is None and len(cache) == 5


def test_cooled_games_are_nothing_for_the_garbage_collector_to_walk():
    """At 5,000 live games nearly all are cold. Kept as text, each was still a record with its table's and
    messages' models: some eight objects for every full collection to walk, a pause of the whole bot that
    grew with the games (issue 44). The objects the collector tracks no longer grow with the games kept cold."""
    import gc

    gc.collect()
    before = len(gc.get_objects())
    cache = GameCache(hot=1)
    for channel in range(10, 1010, 2):  # 500 games, all but one cold
        cache.put(record(channel))
    gc.collect()
    gc.collect()  # (the first untracks the plain values' tuples, the second the tuples that hold them)
    assert len(cache) == 500
    assert len(gc.get_objects()) - before < 250  # the hot one and the cache itself; was over 1,000
    back = cache.get(10)  # and each comes back whole
    assert back is not None and text(back) == text(record(10)) and back.messages == record(10).messages


def test_what_the_cache_holds_is_told_without_parsing():
    """The operator's figure of the cooled games' text (issue 44: a bounded part of the RSS)."""
    cache = GameCache(hot=2)
    games = [record(c) for c in (10, 20, 30, 40)]
    for g in games:
        cache.put(g)
    parsed, cooled, size = cache.held()
    assert (parsed, cooled) == (2, 2)  # the two used last parsed, the others as text
    text_of_cooled = sum(len(text(g)) for g in games[:2])
    assert text_of_cooled < size < 2 * text_of_cooled  # their state and table, and their (small) messages
    cache.drop(10)  # an ended game: its text goes
    assert cache.held()[:2] == (2, 1) and cache.held()[2] < size
