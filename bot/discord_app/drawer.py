"""The one owner of each game's public side: its table message, its "your move" pings, its final standings.

A burst of changes becomes one round of work (it waits `delay` and for people first, then reads the newest
record just before sending): the ping of whoever became due, one table edit, the deletion of the pings whose
decision is made (ping_messages.py), and at the end the standings. Edits are paced under Discord's limits; an
edit still pending when a newer state exists (Discord is throttling us) is given up and the newest state is
sent instead, never a stale one. It posts a table again only if an open game's table message was deleted, and
never a second lobby. A table edit with a picture to draw waits for a drawing's turn (the pictures' budget) in
one queue served by one task, holding neither a task of its own nor its game meanwhile.

Every change was promised durably with the move that made it (an "announce" row, storage/games.py); once a
round has done all of it, the version drawn and the promise kept are stored in one write. A round that fails
(Discord down, a restart) leaves the promise, and the scheduler asks for the round again (`want(record,
again=True)`), which pings everyone still due.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

import discord

from storage import OPEN, GameRecord

from ..service import GameService
from . import threads
from .drawing_queue import DrawingQueue
from .pacing import Pacing
from .people_first import after_people
from .tasks import ChannelTasks

log = logging.getLogger(__name__)
PATIENCE = 1.0  # seconds an edit may take before a newer state replaces it
UNKNOWN_CHANNEL = 10003  # Discord's error code for a deleted channel (or thread)
T = TypeVar("T")


class Looks(Protocol):
    def __call__(self, record: GameRecord, slotted: bool = False, /) -> Awaitable[threads.TableMessage]:
        """What the table looks like for a record (Presenter.looks; `slotted`: see Pictures.slot)."""


class ChannelGone(Exception):
    """Discord says the game's channel no longer exists."""


# A record waiting for its round without its game, which the service's cache holds (that version or a newer
# one) and parses again when the round comes: a thousand parsed games waiting their turn under Discord's pace
# would be walked by every full garbage collection, a pause of the whole bot. Its channel, version and status
# only, as a plain tuple: the collector stops walking one at once (a dataclass it walks for ever).
_Parked = tuple[int, int, str]


def _mark(latest: GameRecord | _Parked) -> _Parked:
    """The channel, version and status of the newest record to draw, parked or not."""
    return latest if isinstance(latest, tuple) else (latest.channel_id, latest.version, latest.status)


def _order(latest: GameRecord | _Parked) -> tuple[int, bool]:
    """Which record is newer: the later version, and of one version the ended one."""
    _, version, status = _mark(latest)
    return version, status not in OPEN


class TableDrawer:
    def __init__(self, client: discord.Client, service: GameService, pacing: Pacing, looks: Looks,
                 delay: float = 1.0,
                 ping: Callable[[GameRecord, set[str]], Awaitable[None]] | None = None,
                 standings: Callable[[GameRecord], Awaitable[int | None]] | None = None,
                 gone: Callable[[GameRecord], Awaitable[object]] | None = None,
                 slot: Callable[[], Awaitable[None]] | None = None,
                 sweep: Callable[[GameRecord], Awaitable[GameRecord]] | None = None):
        self.client = client
        self.service = service
        self.pacing = pacing
        self.looks = looks  # what the table looks like for a record: its embed and buttons
        self.delay = delay
        self.ping = ping  # tell these players it is their move
        self.standings = standings  # post a finished game's standings; their message id
        self.gone = gone  # the game's channel was deleted
        self.slot = slot  # wait for a picture's turn (the pictures' own pace), before reading the game to draw
        self.sweep = sweep  # delete the pings whose decision is made; the record without them (ping_messages.py)
        self._latest: dict[int, GameRecord | _Parked] = {}  # per game: the newest record to draw
        self._due: dict[int, set[str]] = {}  # per game: players to ping (who became due since the last ping)
        self._tasks = ChannelTasks()  # keyed by game: a new /augsburg new never takes over an old draw
        # Games waiting for a drawing's turn: one queue and one task for them all (no task, no game each).
        self._queued = DrawingQueue(slot or (lambda: asyncio.sleep(0)),  # (without a slot, nothing waits in it)
                                    lambda g: self._tasks.get(g) is not None, self._turn)

    async def close(self) -> None:
        await self._queued.close()
        await self._tasks.close()

    def want(self, record: GameRecord, due: set[str] | frozenset[str] = frozenset(), again: bool = False) -> None:
        """Announce this game's newest state soon: ping `due` (with `again`: everyone due), draw the table."""
        known = self._latest.get(record.id)
        if known is None or (record.version, not record.open) >= _order(known):
            self._latest[record.id] = self._park(record)
        if again:
            due = set(due) | set(self.service.games.due(record).acting)
        if due:
            self._due.setdefault(record.id, set()).update(due)
        elif record.id in self._queued:
            return  # its drawing's turn will come, and it draws the newest state then
        self._tasks.start(record.id, lambda: self._work(record.id))

    def busy(self, game_id: int) -> bool:
        """Whether a round for this game is under way (it will keep the game's promise)."""
        return self._tasks.get(game_id) is not None or game_id in self._queued

    def waiting(self, game_id: int) -> int:
        """How many drawings, at most, come before a round under way for this game keeps its promise (0: none)."""
        return len(self._queued) if self.busy(game_id) else 0

    def stale(self, record: GameRecord) -> bool:
        return record.state is not None and record.messages.drawn != record.version

    async def _work(self, game_id: int, turn: bool = False) -> None:
        """Rounds of work for this game until all is done, or until it waits in the queue for a drawing's turn
        (`turn`: the drawing queue started it because that turn has come)."""
        channel_id, _, _ = _mark(self._latest[game_id])
        try:
            while turn or await self._prepare(game_id):
                if await self._finish(game_id, channel_id, slotted=turn):
                    return
                turn = False
        except ChannelGone:
            self._forget(game_id)
            log.info("the channel %s of game %s was deleted", channel_id, game_id)
            if self.gone is not None:
                record = self.service.games.cached(channel_id)
                await self.gone(record if record is not None and record.id == game_id
                                else await self.service.games.game(game_id))
        except discord.HTTPException as exc:
            self._forget(game_id)  # the promise stays: the scheduler asks again
            log.warning("could not announce game %s in channel %s (%s %s); trying again later", game_id, channel_id,
                        exc.status, exc.text)
        except Exception:
            self._forget(game_id)
            log.exception("could not announce game %s in channel %s; trying again later", game_id, channel_id)

    async def _prepare(self, game_id: int) -> bool:
        """A round's start: ping who became due. True to draw now; False if nothing is left to do or the game
        now waits in the queue for its drawing's turn (no task, no parsed game is kept while it waits)."""
        await asyncio.sleep(self.delay)
        await after_people()  # a click waiting to be answered goes first
        record = await self._newest(game_id)
        if self.service.games.due(record).any_computer:
            del self._latest[game_id]  # a computer moves in a moment: its move draws (and pings)
            self._queued.remove(game_id)
            return False
        await self._ping(record)
        if self.slot is not None and self._will_draw(record):
            self._queue(game_id)
            return False
        return True

    async def _finish(self, game_id: int, channel_id: int, slotted: bool) -> bool:
        """A round's end, once any drawing's turn has come: the edit, the standings, the pings whose decision
        is made deleted, and what was kept stored. True once all of it is done, False to go again (a newer
        state came, or a player to ping)."""
        await self.pacing.turn(channel_id)  # Discord's pace, counted when the edit goes out
        record = await self._newest(game_id)
        if not await self._draw(record, slotted):
            return False  # given up for a newer state
        standings = await self._standings(record)
        if self.sweep is not None:
            record = await _gone_if_unknown(self.sweep(record))
        if not self._done(game_id, record):
            return False
        await self.service.games.set_messages(record, drawn=record.version, standings=standings, settled=record.version)
        if not self._done(game_id, record):  # a newer state came while that was stored: this task draws it
            return False
        del self._latest[game_id]
        return True

    def _queue(self, game_id: int) -> None:
        """Called by the game's own task as it ends: the game waits for its drawing's turn."""
        self._tasks.release(game_id)  # its turn may start at once
        self._queued.add(game_id)

    def _turn(self, game_id: int) -> None:
        if game_id in self._latest:  # else a computer's move took the round over meanwhile
            self._tasks.start(game_id, lambda: self._work(game_id, turn=True))

    def _done(self, game_id: int, record: GameRecord) -> bool:
        """Whether `record` is the newest state to draw and nobody waits for a ping (a later `want` is covered
        by this task while it runs, so it must look again after every wait before it ends)."""
        _, version, status = _mark(self._latest[game_id])
        return (version, status) == (record.version, record.status) and not self._due.get(game_id)

    def _forget(self, game_id: int) -> None:
        self._queued.remove(game_id)
        self._latest.pop(game_id, None)
        self._due.pop(game_id, None)

    def _park(self, record: GameRecord) -> GameRecord | _Parked:
        cached = self.service.games.cached_version(record.channel_id)
        if record.open and cached is not None and cached[0] == record.id and cached[1] >= record.version:
            return record.channel_id, record.version, record.status
        return record

    async def _newest(self, game_id: int) -> GameRecord:
        """The newest record, with the newest message ids (the cache has them while the game is open)."""
        kept = self._latest[game_id]
        channel_id, version, _ = _mark(kept)
        cached = self.service.games.cached(channel_id)
        if cached is not None and cached.id == game_id and cached.version >= version:
            self._latest[game_id] = self._park(cached)
            return cached
        if isinstance(kept, tuple):  # parked, and the cache let the game go meanwhile (it ended, or was cancelled)
            self._latest[game_id] = record = await self.service.games.game(game_id)
            return record
        return kept

    async def _ping(self, record: GameRecord) -> None:
        """Ping who became due and still is (players who acted meanwhile are left out)."""
        wanted = self._due.pop(record.id, set())
        if not wanted or not record.open or self.ping is None:
            return
        due = wanted & self.service.games.due(record).people
        if due:
            try:
                await _gone_if_unknown(self.ping(record, due))
            except Exception:
                self._due.setdefault(record.id, set()).update(due)  # not pinged: the promise stays
                raise

    async def _standings(self, record: GameRecord) -> int | None:
        if record.status != "finished" or self.standings is None:
            return record.messages.standings
        if record.messages.standings is None:
            return await _gone_if_unknown(self.standings(record))
        return record.messages.standings

    @staticmethod
    def _will_draw(record: GameRecord) -> bool:
        return record.state is not None and record.messages.table is not None \
            and record.messages.drawn != record.version

    async def _draw(self, record: GameRecord, slotted: bool = False) -> bool:
        """One edit (none if the table shows this version already); False if given up for a newer state."""
        if record.messages.table is None or record.messages.drawn == record.version:
            return True  # the interaction that opens the table posts it; or it is drawn already
        first = [await self.looks(record, slotted)]  # its picture, if any, replaces the one before

        async def looks() -> threads.TableMessage:  # drawn before the edit is timed; again only to edit it
            return first.pop() if first else await self.looks(record, slotted)  # in an unarchived thread

        attempt = asyncio.ensure_future(_outcome(threads.edit_table(self.client, record.channel_id,
                                                                    record.messages.table, looks)))
        while True:
            done, _ = await asyncio.wait({attempt}, timeout=PATIENCE)
            if done:
                break
            if _mark(self._latest[record.id])[1] != record.version:  # throttled: send the newest instead
                attempt.cancel()
                return False
        try:
            await _gone_if_unknown(_result(attempt))
        except discord.NotFound:
            if not record.open:
                return True  # an ended game's deleted table stays deleted
            await self.pacing.turn(record.channel_id)  # drawn again: the files were read by the failed edit
            message = await _gone_if_unknown(threads.send_table(self.client, record.channel_id,
                                                                lambda: self.looks(record)))
            _, updated = await self.service.games.set_messages(record, table=message.id)
            if updated.version >= _mark(self._latest[record.id])[1]:
                self._latest[record.id] = self._park(updated)
        return True


async def _outcome(awaitable: Awaitable[T]) -> tuple[T | None, Exception | None]:
    """(result, None) or (None, the failure): the edit's own task never ends in an exception, so one given up
    (for a newer state, or as the bot stops) leaves none behind unretrieved; `_result` raises it where it is
    awaited. Any failure: Discord's refusals, and a connection dropped mid-request (aiohttp's own errors)."""
    try:
        return await awaitable, None
    except Exception as exc:
        return None, exc


async def _result(attempt: asyncio.Future[tuple[T | None, Exception | None]]) -> T | None:
    value, failed = await attempt
    if failed is not None:
        raise failed
    return value


async def _gone_if_unknown(awaitable: Awaitable[T]) -> T:
    """Await a request to the game's channel; a deleted channel raises ChannelGone."""
    try:
        return await awaitable
    except discord.NotFound as exc:
        if exc.code == UNKNOWN_CHANNEL:
            raise ChannelGone from exc
        raise
