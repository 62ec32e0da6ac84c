"""Work the bot owes is done first after every start, however soon the next crash comes (issue 41, point 3).

A showdown in which Ada and Ben have one lay-down each, which the bot makes for them once Cleo has chosen
(bot/service/automatic.py). The bot is killed (kill -9, in process: its tasks stop wherever they are, nothing of a
clean close runs) at every point of an automatic move's life, and a new bot on the same database must make
what is owed at once, each move exactly once, and announce it: with the clock standing still, so nothing
comes due meanwhile (the markers are due only half a minute or more later).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from support.bot_support import ADA, BEN, CLEO, clocked_harness, game, make_bot, open_and_start, service
from support.clock import ManualClock
from support.fake_discord import Harness
from support.storage_helpers import Halfway

from bot.app.discord_bot import AugsburgBot
from bot.discord_app.people import people
from bot.wording import ENGLISH, phases
from engine import spectator_view
from engine.state import Auction, GameState, Showdown
from storage import GameRecord, chain

ONE_OPTION = {ADA: ["philipp-3", "philipp-9", "maria-4"], BEN: ["philipp-5", "joker"]}  # one lay-down each
A_CHOICE = ["philipp-4", "philipp-11", "joker"]  # Cleo's: three ways to lay down two cards


def bot(path: Path, clock: ManualClock, **settings: Any) -> AugsburgBot:
    return make_bot(path, clock=clock, **settings)


@pytest.fixture
async def h(tmp_path):
    harness = await clocked_harness(tmp_path / "owed.sqlite3", bot)
    yield harness
    await harness.close()


def dealt(state: GameState, hands: dict[int, list[str]]) -> None:
    """Give these players these hands, every card still existing exactly once (the rest go to the deck)."""
    wanted = Counter(card for hand in hands.values() for card in hand)

    def without_wanted(cards: Iterable[str]) -> list[str]:
        kept: list[str] = []
        for card in cards:
            if wanted[card]:
                wanted[card] -= 1
            else:
                kept.append(card)
        return kept

    state.deck, state.discard = tuple(without_wanted(state.deck)), tuple(without_wanted(state.discard))
    freed: list[str] = []
    for player in state.players:
        player.hand, player.offered = tuple(without_wanted(player.hand)), tuple(without_wanted(player.offered))
        if int(player.id) in hands:
            freed += [*player.hand, *player.offered]
            player.hand, player.offered = tuple(hands[int(player.id)]), ()
    assert not +wanted, f"cards not found: {+wanted}"
    state.deck += tuple(freed)


async def showdown_of_three(h: Harness) -> int:
    """Ada, Ben and Cleo lay down two cards each for Philipp: Cleo chooses, Ada and Ben have one way to.
    The game's id."""
    await open_and_start(h)
    record = game(h)
    state = record.state.model_copy(deep=True)
    state.phase, state.noble, state.purchase = "showdown", 0, None
    state.auction = Auction(turn=0, offers=[2, 2, 2], passed=[False] * 3, high=2, high_seat=0)
    state.showdown = Showdown(count=2, seats=[0, 1, 2], high_seat=0)
    assert [p.id for p in state.players] == [str(ADA), str(BEN), str(CLEO)]
    dealt(state, {**ONE_OPTION, CLEO: A_CHOICE})
    service(h).core._games.put(dataclasses.replace(record, state=state))
    return int(record.id)


async def cleo_lays_down(h: Harness, settle: bool = True) -> None:
    table = h.find_message(label="My hand & actions").id
    panel = (await h.click(CLEO, table, label="My hand & actions")).answer
    lay_down = next(b["custom_id"] for b in panel.buttons() if "Lay down" in b["label"])
    await h.click(CLEO, panel.message_id, lay_down, settle=settle)


def frozen_at(obj: object, name: str, when: Callable[..., bool], before: bool = False) -> asyncio.Event:
    """From now on a call `obj.name(...)` for which `when(*args, **kwargs)` holds freezes its task for ever:
    after it has done its work (`before`: instead of doing it). The event tells the test it has frozen."""
    real = getattr(obj, name)
    reached = asyncio.Event()

    async def freezing(*args: Any, **kwargs: Any) -> Any:
        if not when(*args, **kwargs):
            return await real(*args, **kwargs)
        result = None if before else await real(*args, **kwargs)
        reached.set()
        await asyncio.Event().wait()
        return result

    setattr(obj, name, freezing)
    return reached


async def until(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    try:
        async with asyncio.timeout(timeout):
            while not condition():
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"no {what} after {timeout} s") from None


def _the_fake_discords(task: asyncio.Task) -> bool:
    code = getattr(task.get_coro(), "cr_code", None)
    return code is not None and ("/aiohttp/web_" in code.co_filename or "/tests/support/" in code.co_filename)


async def kill(h: Harness) -> None:
    """kill -9, in process: every task of the bot stops where it is, and what the kernel takes from a dead
    process goes (its connections, its lock on the database file); nothing of a clean close runs, so the
    lease row still names it and every promise it had not kept is still in the database."""
    dead, h.bot = h.bot, None
    assert isinstance(dead, AugsburgBot)
    # What it had set to run later on the loop dies with a process too: its computers' timers (a move owed,
    # found at start-up, waits for the loop's next turn), or one would start a turn on the dead bot. Closed
    # first, so no task stopped below sets a new one.
    cog = dead.get_cog("Augsburg")
    runners = {r for r in (getattr(dead.owed, "computers", None), getattr(cog, "computers", None)) if r is not None}
    for runner in runners:
        runner._closed = True
        for timer in runner._waiting.values():
            timer.cancel()
    current = asyncio.current_task()
    tasks = [t for t in asyncio.all_tasks() if t is not current and t not in h._initial_tasks
             and not _the_fake_discords(t)]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await dead.http.close()
    await dead.service.core.store.close()
    h._baseline = None


async def restarted(h: Harness) -> None:
    """A new bot on the same database, the clock standing still: nothing comes due meanwhile."""
    await kill(h)
    await h.attach(bot(h.db_path, h.clock))


async def automatic_moves(h: Harness, game_id: int) -> list[str]:
    """Whose lay-downs the bot made, in the order made (the game's log, as stored)."""
    record = await service(h).games.game(game_id)
    return [m.player for m in await service(h).games.history(record) if m.actor == "only"]


def table_shows(h: Harness, record: GameRecord) -> bool:
    status = phases.status(ENGLISH, spectator_view(record.state), people(ENGLISH, record.table))
    return h.message(record.messages.table).embeds[0]["description"] == status


async def owed_work_was_done(h: Harness, game_id: int) -> None:
    """Ada's and Ben's lay-downs were made once each, and the game's newest state was announced: the table
    shows it and no promise to announce it or to move is left."""
    record = await service(h).games.game(game_id)
    assert record.state is not None and record.state.phase != "showdown", "the owed lay-downs were not made"
    assert sorted(await automatic_moves(h, game_id)) == [str(ADA), str(BEN)], "each made exactly once"
    assert table_shows(h, record), "the table does not show the game as it is"
    left = [d for d in await service(h).deadlines.deadlines() if d.kind == "announce"]
    assert not left, f"promises to announce left unkept: {left}"
    assert not [d for d in await service(h).deadlines.deadlines() if d.kind == "computer"], "a marker is left"
    h.assert_no_errors()




async def test_killed_right_after_the_move_that_made_the_lay_downs_owed(h):
    game_id = await showdown_of_three(h)
    committed = frozen_at(service(h).core.store.games, "commit_action", lambda *a, **k: a[2] == str(CLEO))
    await cleo_lays_down(h, settle=False)
    await until(committed.is_set, "Cleo's move committed")
    await restarted(h)
    await owed_work_was_done(h, game_id)


async def test_killed_while_the_runner_waits_to_make_them(h):
    game_id = await showdown_of_three(h)
    runner = h.bot.get_cog("Augsburg").computers
    runner.delay = 60  # a computer's moment before it moves, long enough to be killed in
    await cleo_lays_down(h, settle=False)
    await until(lambda: runner.busy(h.channel_id), "the runner waiting its delay")
    await restarted(h)
    await owed_work_was_done(h, game_id)


async def test_killed_right_after_the_first_lay_down_made_for_them_before_its_announcement(h):
    game_id = await showdown_of_three(h)
    committed = frozen_at(service(h).core.store.games, "commit_action", lambda *a, **k: k.get("actor") == "only")
    await cleo_lays_down(h, settle=False)
    await until(committed.is_set, "the first automatic move committed")
    assert await automatic_moves(h, game_id) == [str(ADA)]
    await restarted(h)
    await owed_work_was_done(h, game_id)


async def test_killed_after_their_announcement_went_out_before_it_was_marked_kept(h):
    game_id = await showdown_of_three(h)
    settling = frozen_at(service(h).games, "set_messages", lambda *a, **k: k.get("settled") is not None
                         and a[0].state.phase != "showdown", before=True)
    await cleo_lays_down(h, settle=False)
    await until(settling.is_set, "the announcement sent")
    assert sorted(await automatic_moves(h, game_id)) == [str(ADA), str(BEN)]
    await restarted(h)
    await owed_work_was_done(h, game_id)


async def test_a_restart_loop_of_kills_before_discord_is_reached_leaves_nothing_owed(h):
    """Each start is killed as soon as it holds the database, Discord's login failing meanwhile; the bot
    that lives makes the owed moves once each and announces them."""
    game_id = await showdown_of_three(h)
    committed = frozen_at(service(h).core.store.games, "commit_action", lambda *a, **k: a[2] == str(CLEO))
    await cleo_lays_down(h, settle=False)
    await until(committed.is_set, "Cleo's move committed")
    for _ in range(3):
        await kill(h)
        h.fail_next("GET", "/users/@me", status=503, message="Service Unavailable", times=1000)
        starting = asyncio.create_task(h.attach(bot(h.db_path, h.clock)))
        await until(lambda: h.bot is not None and getattr(h.bot, "lease", None) is not None
                    and h.bot.lease.held, "the lease taken")
        assert h.bot.get_cog("Augsburg") is None, "killed before its scheduler could start"
        starting.cancel()
        await asyncio.gather(starting, return_exceptions=True)
        h.overrides.clear()
    await restarted(h)
    await owed_work_was_done(h, game_id)


async def test_an_announcement_owed_while_a_move_of_its_game_is_being_written_reads_no_half_write(h, monkeypatch):
    """On SQLite the bot's one connection shows a read half of a write under way: the game read from the
    database while a move of it is being written has a log one move short of its snapshot, which looks like
    damage. The announcements owed at a start, made while the owed moves are, take the open game from memory."""
    await open_and_start(h)
    record = game(h)
    await service(h).core.store.deadlines.set_deadline(record.id, "", "announce", h.clock.now() + 120,
                                                  {"version": record.version})
    halfway = Halfway()
    append = chain.append

    async def held_inside(tx: Any, content: tuple[Any, ...], previous: bytes | None = None) -> bytes:
        await halfway.pause()  # the game's row is written, its log not
        return await append(tx, content, previous)

    monkeypatch.setattr(chain, "append", held_inside)
    panel = (await h.click(ADA, h.find_message(label="My hand & actions").id, label="My hand & actions")).answer
    await h.click(ADA, panel.message_id, label="Buy nothing", settle=False)
    try:
        await until(halfway.reached.is_set, "Ada's move being written")
        announcing = asyncio.create_task(h.bot.get_cog("Augsburg").upkeep._announce_owed())
        await until(lambda: announcing.done() or bool(h.errors), "the announcements owed read")
    finally:
        halfway.release()  # the write goes on, whatever happened
    await announcing
    await h.settle()
    h.assert_no_errors()
    assert await service(h).core.store.log.notes(record.id) == []
