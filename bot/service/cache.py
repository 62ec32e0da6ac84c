"""The open game of each channel, kept compact.

A parsed game is a tree of a hundred small objects; a thousand live tables kept
that way are what Python's garbage collector walks on every full collection (a
pause of the whole bot). Kept as JSON text instead (which the collector never
walks), each is parsed again when a request needs it (a fraction of a millisecond).

Yet a game being played is asked for many times within a moment (the move, its
table, the live panels, the pings): the games used last (`HOT` of them) are kept
parsed as well, and the newest state of a game is made text only once it leaves
them. A game the bot is about to move in (a computer's turn, a moment after the
move before) is held (`hold`): it stays parsed until `release`, whatever else is
used meanwhile, so the turn does not parse it again. A parsed game is some 60
objects for every full collection to walk; parsing one again takes about 0.1 ms
and making it text as much, yet keeping fewer (64 rather than 256, and holding a
computer's game only during its move) cost more CPU an interaction and more
young collections at 5,000 live games, for no shorter full collection
(docs/benchmarks.md, nineteenth session).
The records handed out are shared, never copied: nothing may change a record or
its state in place (the engine's `apply` works on a copy; a test that sets up a
state copies it and `put`s it).
"""

from __future__ import annotations

import sys
from collections import Counter, OrderedDict
from dataclasses import fields
from typing import cast

from engine import GameState
from storage import GameRecord, Table, TableMessages

HOT = 256  # games kept parsed: a few seconds' worth of the games in play at 200 interactions a second
PARSED = ("state", "table", "messages")  # a record's models, kept as text when it cools
PLAIN = tuple(f.name for f in fields(GameRecord) if f.name not in PARSED)  # its ids, status, version, times
_ID, _VERSION = PLAIN.index("id"), PLAIN.index("version")


# A cooled record: PLAIN's values (numbers and text), then its state, table and messages as JSON text. A plain
# tuple of those is no object the collector walks: it stops tracking such a tuple once it has seen it (not a
# NamedTuple's, nor a dataclass's), where a record with its table's and messages' models was some eight
# objects for every full collection to walk, a pause of the whole bot at 5,000 live games.
Kept = tuple[tuple[int | float | str | None, ...], str | None, str, str]


def _as_text(record: GameRecord) -> Kept:
    state = record.state.model_dump_json() if record.state is not None else None
    return (tuple(getattr(record, name) for name in PLAIN), state, record.table.model_dump_json(),
            record.messages.model_dump_json())


def full(kept: Kept) -> GameRecord:
    """The record again, parsed from its text."""
    plain, state, table, messages = kept
    return GameRecord(**dict(zip(PLAIN, plain)),  # type: ignore[arg-type]
                      state=GameState.model_validate_json(state) if state is not None else None,
                      table=Table.model_validate_json(table), messages=TableMessages.model_validate_json(messages))


class GameCache:
    def __init__(self, hot: int = HOT) -> None:
        self._kept: dict[int, Kept] = {}  # as text: every game not hot, and a hot one whose text is still true
        self._hot: OrderedDict[int, GameRecord] = OrderedDict()  # parsed: the games used last, newest at the end
        self._room = hot
        self._held: set[int] = set()  # channels whose game stays parsed (hold): beyond the room of the others
        self._aside: dict[int, GameRecord] = {}  # held games that would have cooled: parsed, out of the order
        self._phase: dict[int, str] = {}  # each game's phase ("lobby" before the start), for the operator's count

    def get(self, channel_id: int) -> GameRecord | None:
        record = self._hot.get(channel_id)
        if record is not None:
            self._hot.move_to_end(channel_id)
            return record
        record = self._aside.get(channel_id)
        if record is not None:
            return record
        kept = self._kept.get(channel_id)
        if kept is None:
            return None
        record = full(kept)
        self._warm(channel_id, record)
        return record

    def version(self, channel_id: int) -> tuple[int, int] | None:
        """(game id, version) of the channel's game, without parsing it."""
        hot = self._hot.get(channel_id) or self._aside.get(channel_id)
        if hot is not None:
            return hot.id, hot.version
        kept = self._kept.get(channel_id)
        return (cast(int, kept[0][_ID]), cast(int, kept[0][_VERSION])) if kept is not None else None

    def put(self, record: GameRecord) -> None:
        self._phase[record.channel_id] = str(record.state.phase) if record.state is not None else "lobby"
        self._kept.pop(record.channel_id, None)  # its text is of an older state: made again if it cools
        self._hot.pop(record.channel_id, None)
        self._aside.pop(record.channel_id, None)
        self._warm(record.channel_id, record)

    def drop(self, channel_id: int) -> None:
        self._kept.pop(channel_id, None)
        self._hot.pop(channel_id, None)
        self._aside.pop(channel_id, None)
        self._phase.pop(channel_id, None)

    def hold(self, channel_id: int) -> None:
        """Keep the channel's game parsed until `release` (if it is parsed now; else it is when next asked for)."""
        self._held.add(channel_id)

    def release(self, channel_id: int) -> None:
        self._held.discard(channel_id)
        record = self._aside.pop(channel_id, None)
        if record is not None:  # it waits in the order again, as the game used last
            self._warm(channel_id, record)

    def phases(self) -> Counter[str]:
        """How many games kept are in each phase, without parsing them."""
        return Counter(self._phase.values())

    def held(self) -> tuple[int, int, int]:
        """(games parsed, games kept as text, the bytes of their text), for the operator (the monitor, the
        metrics): without walking the parsed ones."""
        text = sum(sys.getsizeof(state or "") + sys.getsizeof(table) + sys.getsizeof(messages)
                   for _, state, table, messages in self._kept.values())
        return len(self._hot) + len(self._aside), len(self._kept), text

    def _warm(self, channel_id: int, record: GameRecord) -> None:
        self._hot[channel_id] = record
        while len(self._hot) > self._room:
            cold, was = self._hot.popitem(last=False)
            if cold in self._held:  # set aside, still parsed (its text, if any, is still true too)
                self._aside[cold] = was
            elif cold not in self._kept:
                self._kept[cold] = _as_text(was)

    def __len__(self) -> int:
        parsed_only = [c for c in (*self._hot, *self._aside) if c not in self._kept]
        return len(self._kept) + len(parsed_only)
