"""Seats during a game: leaving (a computer plays on), the host handing a silent seat to the computer,
and coming back. When every human has left, the game is abandoned."""

from __future__ import annotations

from storage import TableEvent

from .core import Core, back_to_seat, own_seat, playing
from .outcome import Outcome, refuse


class Seats:
    def __init__(self, core: Core):
        self.core = core

    async def leave_game(self, channel_id: int, game_id: int, user: int | str) -> Outcome:
        """The player leaves for good: a computer plays their seat for the rest of the game."""
        async with self.core.lock(channel_id):
            record = playing(await self.core.current(channel_id), game_id)
            if isinstance(record, Outcome):
                return record
            player = str(user)
            seat = own_seat(record, player)
            if isinstance(seat, Outcome):
                return seat
            table = record.table.with_seat(player, left=True, stand_in=False, away_until=None)
            log = [TableEvent(what="left", player=player)]
            present = table.present()
            if not present:
                log.append(TableEvent(what="abandoned", player=player))
                return await self.core.end(record, "abandoned", table, log)
            if table.host == player:  # the host's say (replacing, cancelling) passes on
                table = table.model_copy(update={"host": present[0]})
                log.append(TableEvent(what="host", player=present[0]))
            return await self.core.change_seats(record, table, log)

    async def replace(self, channel_id: int, game_id: int, user: int | str, target: str, can_manage: bool) -> Outcome:
        """The host (or a channel manager) hands a seat whose time has run out before to the computer at once;
        its owner can still come back."""
        async with self.core.lock(channel_id):
            record = playing(await self.core.current(channel_id), game_id)
            if isinstance(record, Outcome):
                return record
            if record.table.host != str(user) and not can_manage:
                return refuse("replace_not_allowed", record)
            seat = record.table.seat(target)
            if seat is None or seat.computer_plays:
                return refuse("not_replaceable", record)
            if seat.away_until is not None:  # on time away: not late, and back when it ends
                return refuse("seat_away", record, player=target)
            if not seat.missed:
                return refuse("never_timed_out", record, player=target)
            table = record.table.with_seat(target, stand_in=True)
            return await self.core.change_seats(record, table,
                                                [TableEvent(what="replaced", player=target, by=str(user))])

    async def reclaim(self, channel_id: int, user: int | str) -> Outcome:
        """The owner of a stood-in seat, or one on time away, is back: they decide again from their next
        decision on (with a new clock)."""
        async with self.core.lock(channel_id):
            record = await self.core.current(channel_id)
            player = str(user)
            seat = record.table.seat(player) if record is not None and record.status == "active" else None
            if record is None or seat is None or not (seat.stand_in or seat.away_until is not None):
                return refuse("not_stood_in", record)
            table, log = back_to_seat(record.table, player)
            return await self.core.change_seats(record, table, log, restart=player)

    async def channel_gone(self, channel_id: int, game_id: int | None = None) -> Outcome | None:
        """The channel was deleted: its open game ends as abandoned (nobody can see or play it any more), and
        nothing of it (or of `game_id`, a game that ended there) is left to announce."""
        store = self.core.store
        async with self.core.lock(channel_id):
            record = await self.core.current(channel_id)
            ended = None
            if record is not None:
                written = await self.core.written(record, store.games.finish_game(record.id, record.version,
                                                                                  "abandoned"))
                ended = None if isinstance(written, Outcome) else written  # raced: the game's new writer ends it
            for gone in {g for g in (game_id, record.id if record else None) if g is not None}:
                await store.deadlines.clear_deadlines(gone, kind="announce")
            return Outcome(True, record=ended) if ended else None
