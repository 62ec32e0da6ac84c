"""The log's newest page without reading the whole log (issue 44): pages are cut from the newest back, so
the newest page depends only on the moves it shows, and `/augsburg log` reads and words a long game's last
moves only, however long the game. It shows what the whole log would, and pages back through the same
pages; a young game's whole log is read (from memory) and its pages numbered."""

from __future__ import annotations

import random

from support.bot_support import ADA, BEN, CLEO, due_people, open_and_start, service, take_a_decision
from support.storage_helpers import table_of

from bot.discord_app.handlers import info
from bot.discord_app.people import people
from bot.wording import history, words
from bot.wording.history import PAGE
from bot.wording.words import People
from engine import apply, new_game
from engine.randomplay import random_action
from storage.recent import MOVES_KEPT


def _counting_reads(h) -> list[int]:
    """The whole-log reads of the service's games, as they are asked for."""
    games, reads = service(h).games, []
    whole = games.history

    async def counted(record, after=-1):
        reads.append(record.id)
        return await whole(record, after)

    games.history = counted
    return reads


async def _played(h, decisions: int, seed: int) -> int:
    table = await open_and_start(h, players=(ADA, BEN))
    rnd = random.Random(seed)
    for _ in range(decisions):
        if not due_people(h):
            break
        await take_a_decision(h, rnd.choice(due_people(h)), table, rnd)
    return table


async def test_the_newest_page_of_a_long_game_reads_its_last_moves_only_and_is_the_whole_logs(harness, monkeypatch):
    h = harness
    monkeypatch.setattr(info, "LOG_NEWEST", 45)  # (the bot reads 80: games of 120 moves and more)
    await _played(h, 42, seed=8)
    games, reads = service(h).games, _counting_reads(h)
    record = await games.current(h.channel_id)
    assert record is not None and record.state is not None
    newest_read, whole_read = games.newest_history, games.history
    all_moves = await whole_read(record)
    assert all_moves[-1].move > 45 and reads == [record.id]
    last, whole = await newest_read(record, 45)
    first = all_moves[-1].move - 45  # (and the table events that followed it, if any)
    assert not whole and {m.move for m in last} - {first} == {m.move for m in all_moves if m.move > first}
    reads.clear()
    newest = await h.slash(CLEO, "augsburg log")
    assert newest.answer.content.startswith("**The game's log** (the newest page)\n")
    assert reads == [], "the newest page of a long game read all of its log"
    w = words("en")
    pages = history.log_pages(w, all_moves, people(w, record.table), ed=record.state.edition)
    assert newest.answer.content.partition("\n")[2] == pages[-1] and len(pages) >= 2
    # Paging back from it: the page before it in the whole log (numbered: that read all of it), then the newest.
    earlier = await h.click(CLEO, newest.answer.message_id, label="◀ Earlier")
    n = len(pages)
    assert earlier.answer.content == f"**The game's log** (page {n - 1} of {n})\n{pages[-2]}"
    later = await h.click(CLEO, earlier.answer.message_id, label="Later ▶")
    assert later.answer.content == newest.answer.content
    h.assert_all_answered()
    h.assert_no_errors()


async def test_a_young_game_whose_whole_log_memory_holds_is_numbered_and_read_from_memory(harness):
    h = harness
    await _played(h, 6, seed=3)
    reads, kept = _counting_reads(h), []
    newest = service(h).games.newest_history

    async def counted(record, moves):
        found = await newest(record, moves)
        kept.append(found[1])
        return found

    service(h).games.newest_history = counted
    first = await h.slash(CLEO, "augsburg log")
    assert first.answer.content.startswith("**The game's log** (page 1 of 1)")
    assert reads == [] and kept == [True]  # the whole log, from memory (no read of it after)
    h.assert_all_answered()
    h.assert_no_errors()


async def test_pages_are_cut_from_the_newest_and_the_newest_page_needs_only_its_own_moves(harness):
    h = harness
    await _played(h, 90, seed=11)  # to its end (a whole game)
    games = service(h).games
    record = await games.current(h.channel_id) or await games.last_game(h.channel_id)
    assert record is not None and record.state is not None
    moves = await games.history(record)
    w = words("en")
    who = People(name=lambda p: f"P{p}")
    pages = history.log_pages(w, moves, who, ed=record.state.edition)
    lines = [line for m in moves for line in history.move_lines(w, m, who, None, ed=record.state.edition)]
    assert len(pages) >= 3
    assert "\n".join(pages) == "\n".join(lines)  # every line once, in order
    assert all(len(p) <= PAGE for p in pages)
    # Each page but the oldest is full: the line before it would not have fitted.
    for page, before in zip(pages[1:], pages[:-1]):
        assert len(before.split("\n")[-1]) + 1 + len(page) > PAGE
    newest_lines = len(pages[-1].split("\n"))
    for start in range(len(moves)):
        newest = history.newest_page(w, moves[start:], who, ed=record.state.edition)
        shown = [line for m in moves[start:] for line in history.move_lines(w, m, who, None, ed=record.state.edition)]
        # Given a line before the newest page's, the page is known; given only its own lines (or fewer), not.
        assert newest == (pages[-1] if len(shown) > newest_lines else None), f"the moves from {start} on"
    h.assert_no_errors()


async def test_the_last_moves_read_are_the_logs_tail_on_either_backend(store):
    """`newest_moves` (one query, the last move's number worked out in it) is `moves_since` the move
    `count` before the last, and says when that is the whole log; with the game's version, a whole log kept
    in memory is not read."""
    ids = ["u1", "u2", "u3"]
    lobby = await store.games.open_lobby(1, 1, table_of(ids, 4))
    state, deal = new_game(ids, seed=4)
    record = await store.games.start_game(lobby.id, lobby.version, table_of(ids, 4), state, log=deal)
    rnd = random.Random(4)
    for i in range(40):
        if i % 9 == 4:  # seats change: table events after the move
            told = apply(record.state, *random_action(record.state, rnd)).events[:1]
            record = await store.games.update_table(record.id, record.version, record.table, log=told)
            continue
        player, action = random_action(record.state, rnd)
        result = apply(record.state, player, action)
        record = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(),
                                                 result.state, events=result.events, log=result.events[:i % 2])
        last = record.state.moves
        for count in sorted({1, 5, max(1, last - 1), last, last + 3}):
            moves, whole = await store.log.newest_moves(record.id, count)
            assert whole == (last - count <= 0), (i, count)
            assert moves == await store.log.moves_since(record.id, -1 if whole else last - count), (i, count)
            kept = (await store.log.moves_since(record.id, -1), True) if last <= MOVES_KEPT else (moves, whole)
            assert await store.log.newest_moves(record.id, count, record.version) == kept, (i, count)
