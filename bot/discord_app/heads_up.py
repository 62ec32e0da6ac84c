"""The heads-up (`/augsburg seat notify heads_up:`): the person who bids after the one now on the clock is
told quietly, if they asked to be: by a direct message, or by a channel line that names them and pings nobody."""

from __future__ import annotations

from storage import GameRecord

from ..turns import next_up
from ..wording import clock, words
from .people import mention, people


async def heads_up(presenter, record: GameRecord, due: set[str]) -> None:
    """`presenter`: the table's Presenter (its service, posts and direct messages), passed in by it."""
    after = next_up(record.state, record.table, due)
    if after is None:
        return
    how = await presenter.service.heads_up_setting(after)
    if how == "off":
        return
    (now,) = due
    if how == "dm":
        mine = await presenter._reader(after)
        await presenter._direct(after, clock.heads_up_dm(mine, people(mine, record.table).plain().name(now),
                                                         presenter._table_link(record)))
    else:
        w = words(record.table.lang)  # the table's language
        line = clock.heads_up_line(w, mention(after), people(w, record.table).name(now))
        await presenter.post(record.channel_id, line)  # names them, notifies nobody
