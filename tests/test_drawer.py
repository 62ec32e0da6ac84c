"""The table's drawer (bot/discord_app/drawer.py): one task per game draws its newest state, and a change
that comes while that task is still at work is drawn by it before it ends, never dropped."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.discord_app.drawer import TableDrawer
from storage import GameRecord, Table, TableMessages


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
