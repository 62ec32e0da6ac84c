"""Computer levels (issue 17): a seat's level is stored, chosen by the host, and played at; a strong player
thinks off the event loop and outside the channel's lock, and its decision is dropped if the game moved on."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import threading
import time

import pytest

from bot.app import cli
from bot.service import GameService, Thinkers, thinking
from bot.service import decisions as service_moves
from engine import legal_actions, to_act
from engine.actions import Buy
from engine.ai.belief import Belief
from engine.editions import default
from engine.randomplay import concrete
from storage import Seat, Store, Table

ED = default()  # the shipped edition

CHANNEL, OTHER, GUILD = 700, 701, 1


def code(outcome) -> str | None:
    return outcome.notice.code if outcome.notice else None


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "bot.sqlite3")
    yield store
    await store.close()


@pytest.fixture
async def service(store):
    service = GameService(store, thinkers=Thinkers(workers=0, think_seconds=0.05))
    yield service
    service.decisions.thinkers.close()


async def lobby(service: GameService, *levels: str, channel: int = CHANNEL, humans=("11",)):
    record = (await service.lobby.open_table(GUILD, channel, Seat(id=humans[0], name="Host"))).record
    for h in humans[1:]:
        assert (await service.lobby.join(channel, record.id, Seat(id=h, name=f"P{h}"))).ok
    for level in levels:
        record = (await service.lobby.add_computer(channel, record.id, humans[0], level)).record
    return record


# --- storage


def test_a_seat_without_a_level_or_with_an_unknown_one_plays_normal():
    old = Table.model_validate_json('{"host": "1", "seats": [{"id": "1"}, {"id": "ai1", "kind": "computer"}]}')
    assert [s.level for s in old.seats] == ["normal", "normal"]
    broken = Table.model_validate({"host": "1", "seats": [{"id": "ai1", "kind": "computer", "level": "godlike"},
                                                          {"id": "ai2", "kind": "computer", "level": 3}]})
    assert [s.level for s in broken.seats] == ["normal", "normal"]
    strong = Seat(id="ai1", kind="computer", level="strong")
    assert Seat.model_validate_json(strong.model_dump_json()).level == "strong"
    assert Seat(id="7", level="strong", stand_in=True).playing_level == "normal"  # a stand-in plays normal


async def test_levels_are_stored_and_old_or_broken_rows_load(tmp_path, store, service):
    record = await lobby(service, "easy", "strong")
    assert [s.level for s in record.table.seats] == ["normal", "easy", "strong"]
    reread = await store.games.load_channel(CHANNEL)
    assert [s.level for s in reread.table.seats[1:]] == ["easy", "strong"]
    with sqlite3.connect(tmp_path / "bot.sqlite3") as db:  # a row from before levels, and a damaged level
        setup = db.execute("SELECT setup FROM games WHERE id = ?", (record.id,)).fetchone()[0]
        db.execute("UPDATE games SET setup = ? WHERE id = ?",
                   (setup.replace('"level":"easy",', "").replace('"strong"', '"grandmaster"'), record.id))
    reread = await Store.open(tmp_path / "bot.sqlite3")
    try:
        seats = (await reread.games.load_channel(CHANNEL)).table.seats
        assert [s.level for s in seats] == ["normal", "normal", "normal"]
    finally:
        await reread.close()


# --- the lobby


async def test_the_host_sets_each_computers_level(service):
    record = await lobby(service, "normal", "normal")
    assert code(await service.lobby.set_computer_level(CHANNEL, record.id, 22, "ai1", "strong")) == "host_only_levels"
    assert code(await service.lobby.set_computer_level(CHANNEL, record.id, 11, "ai1", "genius")) == "unknown_choice"
    assert code(await service.lobby.set_computer_level(CHANNEL, record.id, 11, "11", "easy")) == "computer_gone"
    assert code(await service.lobby.add_computer(CHANNEL, record.id, 11, "genius")) == "unknown_choice"
    changed = await service.lobby.set_computer_level(CHANNEL, record.id, 11, "ai2", "strong")
    assert changed.ok and [s.level for s in changed.record.table.seats] == ["normal", "normal", "strong"]
    assert (await service.lobby.remove_computer(CHANNEL, record.id, 11)).ok
    assert code(await service.lobby.set_computer_level(CHANNEL, record.id, 11, "ai2", "easy")) == "computer_gone"
    assert (await service.lobby.start(CHANNEL, record.id, 11, seed=3)).ok
    assert code(await service.lobby.set_computer_level(CHANNEL, record.id, 11, "ai1", "easy")) == "already_started"


# --- playing at the seat's level


async def test_each_seat_is_played_at_its_level_and_a_stand_in_at_normal(service, monkeypatch):
    asked: list[tuple[str, int]] = []
    real = thinking.computer

    def spy(level, seed, think_seconds=1.0):
        asked.append((level, seed))
        return real(level, seed, think_seconds)

    monkeypatch.setattr(service_moves, "computer", spy)
    monkeypatch.setattr(thinking, "computer", spy)
    record = await lobby(service, "easy", "strong", humans=("11", "22"))
    record = (await service.lobby.start(CHANNEL, record.id, "11", seed=9)).record
    assert (await service.seats.leave_game(CHANNEL, record.id, "22")).ok  # the computer plays 22's seat from now on
    rnd = random.Random(2)
    while record.status == "active":
        if "11" in to_act(record.state):
            action = concrete(rnd.choice(legal_actions(record.state, "11")), rnd)
            outcome = await service.decisions.act(CHANNEL, record.id, "11", None, action)
        else:
            outcome = await service.decisions.play_computer(CHANNEL)
        assert outcome is not None and outcome.ok, outcome and outcome.notice
        record = outcome.record
    players, seed = record.table.players, record.table.seed
    played: dict[str, set[str]] = {}
    for level, s in asked:  # each seat has a seed of its own: the table's plus its place
        played.setdefault(players[s - seed], set()).add(level)
    assert played == {"22": {"normal"}, "ai1": {"easy"}, "ai2": {"strong"}}


# --- a strong player thinks off the event loop


async def test_a_slow_strong_decision_blocks_neither_the_loop_nor_its_table_and_goes_stale(service, monkeypatch):
    started, release = threading.Event(), threading.Event()
    real = thinking.decide

    def slow(*args):
        started.set()
        release.wait(10)  # a CPU-bound search, as far as the event loop can tell
        return real(*args)

    monkeypatch.setattr(thinking, "decide", slow)
    strong = await lobby(service, "strong")
    strong = (await service.lobby.start(CHANNEL, strong.id, "11", seed=4)).record
    other = await lobby(service, humans=("31", "32"), channel=OTHER)
    other = (await service.lobby.start(OTHER, other.id, "31", seed=5)).record
    thinking_task = asyncio.create_task(service.decisions.play_computer(CHANNEL))
    while not started.is_set():
        await asyncio.sleep(0.005)
    began = time.monotonic()
    elsewhere = await service.decisions.act(OTHER, other.id, "31", None, Buy(cards=[]))  # another table's click
    here = await service.decisions.act(CHANNEL, strong.id, "11", None, Buy(cards=[]))  # this table: no lock held
    assert elsewhere.ok and here.ok and time.monotonic() - began < 5  # the search holds on for 10 s
    assert not thinking_task.done()
    release.set()
    dropped = await thinking_task
    assert code(dropped) == "stale_decision"  # made for a game that has moved on: dropped, nothing applied
    assert service.games.cached(CHANNEL).version == here.record.version
    again = await service.decisions.play_computer(CHANNEL)  # the runner asks again, for the game as it is now
    assert again.ok and again.record.state.moves == here.record.state.moves + 1


async def test_a_strong_computer_is_told_the_whole_public_history(service, monkeypatch):
    """What the strong player samples from must add up: the events it is handed start with the deal
    and, replayed, give its own money and number of cards exactly (and nobody's private events)."""
    seen = []
    real = thinking.decide

    def spy(level, seed, think_seconds, view, history):
        seen.append((view, history))
        return real(level, seed, think_seconds, view, history)

    monkeypatch.setattr(thinking, "decide", spy)
    record = await lobby(service, "strong", "normal")
    record = (await service.lobby.start(CHANNEL, record.id, "11", seed=6)).record
    rnd = random.Random(3)
    while len(seen) < 12 and record.status == "active":
        if "11" in to_act(record.state):
            outcome = await service.decisions.act(CHANNEL, record.id, "11", None,
                                        concrete(rnd.choice(legal_actions(record.state, "11")), rnd))
        else:
            outcome = await service.decisions.play_computer(CHANNEL)
        record = outcome.record
    assert len(seen) == 12
    for view, history in seen:
        belief = Belief.from_events(history, ED)
        assert belief.complete and all(e.to in (None, view.you.id) for e in history)
        assert (belief.money[view.you.id], belief.hand[view.you.id]) == (view.you.money, len(view.you.hand))


async def test_a_failing_strong_player_is_played_at_normal_for_that_decision(service, monkeypatch):
    def broken(*args):
        raise RuntimeError("search blew up")

    monkeypatch.setattr(thinking, "decide", broken)
    record = await lobby(service, "strong")
    record = (await service.lobby.start(CHANNEL, record.id, "11", seed=4)).record
    outcome = await service.decisions.play_computer(CHANNEL)
    assert outcome.ok and "ai1" not in to_act(outcome.record.state)


async def test_five_strong_computers_play_a_whole_game_in_worker_processes(store):
    """All five seats strong (the host's too: a computer opens this table), thinking in a worker process
    (everything sent there is pickled), through the service to the end."""
    service = GameService(store, thinkers=Thinkers(workers=1, think_seconds=0.05))
    try:
        host = Seat(id="ai5", kind="computer", number=5, level="strong")
        record = (await service.lobby.open_table(GUILD, CHANNEL, host, clock=False)).record
        for _ in range(4):
            record = (await service.lobby.add_computer(CHANNEL, record.id, "ai5", "strong")).record
        record = (await service.lobby.start(CHANNEL, record.id, "ai5", seed=12)).record
        moves = 0

        async def play() -> None:
            nonlocal record, moves
            while record.status == "active":
                outcome = await service.decisions.play_computer(CHANNEL)
                assert outcome is not None and outcome.ok, outcome and outcome.notice
                record, moves = outcome.record, moves + 1

        await asyncio.wait_for(play(), timeout=600)
        assert record.status == "finished" and record.state.phase == "game_over" and moves > 100
        assert service.decisions.thinkers._thinking.pool is not None  # they did think in a process of their own
    finally:
        service.decisions.thinkers.close()


async def test_a_thinking_worker_that_dies_leaves_the_computers_thinking_on_a_thread(store, caplog):
    """The worker killed between two heavy decisions: the next one is thought on a thread, one warning line,
    and the game goes on."""
    service = GameService(store, thinkers=Thinkers(workers=1, think_seconds=0.02))
    thinkers = service.decisions.thinkers
    try:
        host = Seat(id="ai5", kind="computer", number=5, level="strong")
        record = (await service.lobby.open_table(GUILD, CHANNEL, host, clock=False)).record
        record = (await service.lobby.add_computer(CHANNEL, record.id, "ai5", "strong")).record
        record = (await service.lobby.start(CHANNEL, record.id, "ai5", seed=3)).record
        for turn in range(6):
            if turn == 3:
                assert thinkers._thinking.pool is not None
                (pid,) = thinkers._thinking.pool.pids()
                assert pid is not None
                os.kill(pid, signal.SIGKILL)
            outcome = await asyncio.wait_for(service.decisions.play_computer(CHANNEL), 120)
            assert outcome is not None and outcome.ok, outcome and outcome.notice
            assert outcome.record.version > record.version
            record = outcome.record
        assert thinkers.workers == 0 and "thinking on a thread from now on" in caplog.text
    finally:
        thinkers.close()


# --- the terminal


def test_terminal_level_option(monkeypatch, capsys):
    seen = []
    monkeypatch.setattr("bot.terminal.game.main", lambda args, library: seen.append(args) or 0)
    assert cli.main(["play", "--opponents", "3", "--level", "strong"]) == 0
    assert seen[-1].level == ["strong", "strong", "strong"]
    assert cli.main(["play", "--opponents", "3", "--level", "easy, Normal,strong"]) == 0
    assert seen[-1].level == ["easy", "normal", "strong"]
    assert cli.main(["play", "--opponents", "2"]) == 0
    assert seen[-1].level == ["normal", "normal"]
    for wrong, says in ((["--level", "godlike"], "unknown level 'godlike'"),
                        (["--opponents", "2", "--level", "easy,strong,normal"], "3 levels for 2 computer players")):
        with pytest.raises(SystemExit) as stopped:
            cli.main(["play", *wrong])
        assert stopped.value.code == 2 and says in capsys.readouterr().err


async def test_terminal_game_seats_computers_at_their_levels(tmp_path):
    import io

    from bot.terminal.game import run

    out = io.StringIO()
    assert await run(str(tmp_path / "t.sqlite3"), 2, False, True, 5, stdin=io.StringIO(""), stdout=out,
                     levels=["easy", "strong"]) == 0
    assert "Your opponents: Computer 1 (Easy), Computer 2 (Strong)." in out.getvalue()
    store = await Store.open(tmp_path / "t.sqlite3")
    try:
        record = await store.games.load_channel(0)
        assert [(s.kind, s.level) for s in record.table.seats][1:] == [("computer", "easy"), ("computer", "strong")]
    finally:
        await store.close()
