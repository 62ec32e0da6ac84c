"""The heads-up (`/augsburg seat notify heads_up:`): the person who bids after the one now on the clock is
told quietly, if they asked to be: by a direct message, or by a channel line that names them and pings nobody.
Not to a person with a daily word (it lists the game), nor now to one outside their hours: theirs is owed until
their hours begin (service/pings.py), sent then if they still bid next after the same decision."""

from __future__ import annotations

from typing import Protocol

import discord

from storage import GameRecord

from ..service import GameService
from ..wording import Words, clock, words
from .people import mention, people
from .ping_messages import PingMessages


class Announcer(Protocol):
    """What the heads-up needs of the table's presenter (presenter.py), which calls it."""

    service: GameService
    pings: PingMessages  # the line is deleted once the decision it names is made

    async def reader(self, player: str) -> Words: ...

    async def direct(self, player: str, text: str, nonce: str | None = None) -> None: ...

    def table_link(self, record: GameRecord) -> str: ...

    async def post(self, channel_id: int, content: str) -> discord.Message | None: ...


async def heads_up(presenter: Announcer, record: GameRecord, due: set[str]) -> None:
    """`presenter`: the table's Presenter (its service, posts and direct messages), passed in by it."""
    service = presenter.service
    after = service.games.next_up(record, due)
    if after is None or await service.mine.quiet({after}):
        return
    how = await service.settings.heads_up(after)
    if how == "off":
        return
    later = (await service.settings.hours.outside({after})).get(after)
    if later is not None:
        await service.pings.heads_up_later(record, after, later)
        return
    (now,) = due
    if how == "dm":
        mine = await presenter.reader(after)
        await presenter.direct(after, clock.heads_up_dm(mine, people(mine, record.table).plain().name(now),
                                                         presenter.table_link(record)))
    else:
        w = words(record.table.lang)  # the table's language
        line = clock.heads_up_line(w, mention(after), people(w, record.table).name(now))
        message = await presenter.post(record.channel_id, line)  # names them, notifies nobody
        await presenter.pings.posted(record, message, {now})  # its job is done once `now` has decided
