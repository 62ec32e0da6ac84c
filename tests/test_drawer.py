"""The table's drawer (bot/discord_app/drawer.py): one task per game draws its newest state, and a change
that comes while that task is still at work is drawn by it before it ends, never dropped."""

from __future__ import annotations

import asyncio
import gc
from dataclasses import replace

import pytest

from bot.discord_app.drawer import TableDrawer
from bot.service.showing import due_of
from engine import new_game, to_act
from storage import GameRecord, Seat, Table, TableMessages


class Edits:
    """The bot's side of Discord as the drawer uses it: every table edit, by the version it showed."""

    def __init__(self):
        self.shown: list[int] = []
        self.version = 0

    def get_partial_messageable(self, channel_id):
        return self

    def get_partial_message(self, message_id):
        return self

    async def edit(self, embed, view, attachments):
        self.shown.append(embed)


class Service:
    """The game service as the drawer uses it, storing what was drawn; `during_store` runs inside that write."""

    due = staticmethod(due_of)  # who is due, as the real service tells it

    @property
    def games(self):  # the drawer reads games through the service's `games`
        return self

    def __init__(self, record: GameRecord):
        self.record, self.during_store = record, None

    def cached(self, channel_id):
        return self.record

    def cached_version(self, channel_id):
        return self.record.id, self.record.version

    async def set_messages(self, record, drawn=None, standings=None, settled=None):
        hook, self.during_store = self.during_store, None
        if hook is not None:
            await hook()
        self.record = replace(self.record, messages=TableMessages(table=record.messages.table, drawn=drawn))
        return True, self.record


class Pace:
    async def turn(self, channel_id):
        pass


async def test_a_change_that_comes_while_the_drawer_stores_what_it_drew_is_drawn_too():
    table = Table(host="1", seats=())
    first = GameRecord(id=7, guild_id=1, channel_id=2, status="finished", version=3, table=table, state=None,
                       created_at=0.0, updated_at=0.0, messages=TableMessages(table=5, drawn=2))
    service, edits = Service(first), Edits()

    async def looks(record, slotted=False):
        return record.version, None, []

    drawer = TableDrawer(edits, service, Pace(), looks, delay=0.0)
    newer = replace(first, version=4)

    async def a_change_comes():  # the game changes while the round that drew version 3 stores that
        service.record = replace(newer, messages=service.record.messages)
        drawer.want(service.record)

    service.during_store = a_change_comes
    drawer.want(first)
    for _ in range(200):
        await asyncio.sleep(0.01)
        if not drawer.busy(first.id):
            break
    assert edits.shown == [3, 4], "the change that came meanwhile is drawn by the same task"
    assert service.record.messages.drawn == 4


class Games:
    """The service for many games at once, one per channel, each a real game waiting for people."""

    due = staticmethod(due_of)  # who is due, as the real service tells it

    @property
    def games(self):  # the drawer reads games through the service's `games`
        return self

    def __init__(self, records):
        self.records = {r.channel_id: r for r in records}

    def cached(self, channel_id):
        return self.records[channel_id]

    def cached_version(self, channel_id):
        record = self.records[channel_id]
        return record.id, record.version

    async def set_messages(self, record, drawn=None, standings=None, settled=None):
        kept = self.records[record.channel_id]
        self.records[record.channel_id] = replace(kept, messages=TableMessages(table=kept.messages.table, drawn=drawn))
        return True, self.records[record.channel_id]

    def move(self, channel_id):
        """A move was made: the next version (the drawer draws versions; the state itself stays)."""
        record = self.records[channel_id]
        self.records[channel_id] = record = replace(record, version=record.version + 1)
        return record


class Turns:
    """The pictures' budget, held shut until the test opens it; counts the turns handed out."""

    def __init__(self):
        self.open, self.given = asyncio.Event(), 0

    async def slot(self):
        await self.open.wait()
        self.given += 1


def started_games(n):
    state, _ = new_game(["ada", "ben"], seed=1)
    table = Table(host="ada", seats=(Seat(id="ada", name="Ada"), Seat(id="ben", name="Ben")), seed=1)
    return [GameRecord(id=100 + i, guild_id=1, channel_id=200 + i, status="active", version=5, table=table,
                       state=state, created_at=0.0, updated_at=0.0, messages=TableMessages(table=300 + i, drawn=4))
            for i in range(n)]


async def until(condition, what):
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


async def test_tables_waiting_for_a_drawing_turn_wait_in_one_queue_not_in_a_task_each():
    """At a busy time hundreds of table edits wait for a picture's turn: they wait as ids in one queue, served
    by one task (a task each would be walked by every full garbage collection), and each, once its turn
    comes, draws its game as it is then, oldest first. What the drawer keeps of each while it waits (channel,
    version, status) is plain numbers and text, which the collector stops walking once it has seen them: at
    5,000 live games some 4,500 wait, as an object each a twentieth of what every full collection walked."""
    records = started_games(40)
    service, edits, turns = Games(records), Edits(), Turns()
    drawn = []

    async def looks(record, slotted=False):
        drawn.append((record.id, record.version, slotted))
        return record.version, None, []

    drawer = TableDrawer(edits, service, Pace(), looks, delay=0.0, slot=turns.slot)
    before = len(asyncio.all_tasks())
    for record in records:
        drawer.want(record)
    await until(lambda: len(asyncio.all_tasks()) == before + 1, "the games' own tasks did not end")
    assert all(drawer.busy(r.id) for r in records), "a waiting game counts as under way (its promise is kept)"
    assert drawer.waiting(records[7].id) == 40 and drawer.waiting(999) == 0, "drawings before its promise is kept"
    gc.unfreeze()  # (a bot of an earlier test may have frozen what lived then)
    for _ in range(2):  # a collection untracks a tuple once those inside are
        gc.collect()
    assert not [kept for kept in drawer._latest.values() if gc.is_tracked(kept)], "waiting tables are walked"
    for record in records[:3]:
        drawer.want(service.move(record.channel_id))  # moves while waiting: no task of their own
    assert len(asyncio.all_tasks()) == before + 1
    turns.open.set()
    await until(lambda: not any(drawer.busy(r.id) for r in records), "not every table was drawn")
    assert drawer.waiting(records[7].id) == 0
    assert [d[0] for d in drawn] == [r.id for r in records], "oldest first, each once"
    assert all(slotted for _, _, slotted in drawn), "each drawn in the turn it waited for"
    assert [v for _, v, _ in drawn[:3]] == [6, 6, 6] and {v for _, v, _ in drawn[3:]} == {5}, "the newest state"
    assert turns.given == 40 and edits.shown == [d[1] for d in drawn]
    assert all(r.messages.drawn == r.version for r in service.records.values())
    await until(lambda: len(asyncio.all_tasks()) == before, "the queue's task did not end with the queue")
    await drawer.close()


async def test_a_player_who_becomes_due_is_pinged_while_the_table_waits_for_its_drawing_turn():
    """The ping of a player whose move came does not wait behind the queue of table pictures."""
    (record,) = started_games(1)
    service, edits, turns = Games([record]), Edits(), Turns()
    pinged = []

    async def ping(record, due):
        pinged.append(set(due))

    async def looks(record, slotted=False):
        return record.version, None, []

    drawer = TableDrawer(edits, service, Pace(), looks, delay=0.0, slot=turns.slot, ping=ping)
    drawer.want(record)
    await until(lambda: drawer._tasks.get(record.id) is None, "the game did not go to the queue")
    due = set(to_act(record.state))
    drawer.want(service.move(record.channel_id), due=due)
    await until(lambda: pinged == [due], "not pinged while the table waited")
    assert edits.shown == [] and drawer.busy(record.id)
    turns.open.set()
    await until(lambda: not drawer.busy(record.id), "the table was not drawn")
    assert edits.shown == [6] and pinged == [due]
    await drawer.close()


async def test_a_table_edit_given_up_leaves_no_failure_unretrieved_whatever_it_fails_with():
    """A table edit runs as a task of its own, given up for a newer state or as the bot stops. A connection
    dropped mid-request (aiohttp's ServerDisconnectedError, not a discord.HTTPException) ended that task in
    an exception nobody retrieved: an ERROR with a traceback in the log of a bot stopping under load. Every
    failure is kept for whoever awaits the edit, and raised there."""
    import aiohttp

    from bot.discord_app.drawer import _outcome, _result

    async def dropped() -> None:
        raise aiohttp.ServerDisconnectedError()

    attempt = asyncio.ensure_future(_outcome(dropped()))
    await asyncio.wait({attempt})
    assert attempt.exception() is None  # the task itself ended cleanly: nothing left unretrieved
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await _result(attempt)  # where the edit is awaited, it fails as before
