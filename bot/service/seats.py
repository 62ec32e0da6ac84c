"""Seats during a game: leaving (a computer plays on), the host handing a silent seat to the computer,
and coming back. When every human has left, the game is abandoned."""

from __future__ import annotations

from storage import GameRecord, Table, TableEvent

from .core import Outcome, back_to_seat, own_seat, refuse


class SeatsMixin:
    async def leave_game(self, channel_id: int, game_id: int, user: int | str) -> Outcome:
        """The player leaves for good: a computer plays their seat for the rest of the game."""
        async with self.lock(channel_id):
            record = await self._playing(channel_id, game_id)
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
                announce = self._announce_at()
                record = await self.store.games.finish_game(record.id, record.version, "abandoned", table=table,
                                                            log=log, announce_at=announce)
                self._planned(None, announce)
                return Outcome(True, record=self._keep(record))
            if table.host == player:  # the host's say (replacing, cancelling) passes on
                table = table.model_copy(update={"host": present[0]})
                log.append(TableEvent(what="host", player=present[0]))
            return await self._seat_change(record, table, log)

    async def replace(self, channel_id: int, game_id: int, user: int | str, target: str, can_manage: bool) -> Outcome:
        """The host (or a channel manager) hands a seat whose time has run out before to the computer at once;
        its owner can still come back."""
        async with self.lock(channel_id):
            record = await self._playing(channel_id, game_id)
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
            return await self._seat_change(record, table, [TableEvent(what="replaced", player=target, by=str(user))])

    async def reclaim(self, channel_id: int, user: int | str) -> Outcome:
        """The owner of a stood-in seat, or one on time away, is back: they decide again from their next
        decision on (with a new clock)."""
        async with self.lock(channel_id):
            record = await self.current(channel_id)
            player = str(user)
            seat = record.table.seat(player) if record is not None and record.status == "active" else None
            if seat is None or not (seat.stand_in or seat.away_until is not None):
                return refuse("not_stood_in", record)
            table, log = back_to_seat(record.table, player)
            return await self._seat_change(record, table, log, restart=player)

    async def _playing(self, channel_id: int, game_id: int) -> GameRecord | Outcome:
        record = await self.current(channel_id)
        if record is None or record.id != game_id:
            return refuse("game_gone")
        if record.status != "active":
            return refuse("not_started", record)
        return record

    async def _seat_change(self, record: GameRecord, table: Table, log: list, restart: str | None = None) -> Outcome:
        """Commit a change of seats with the deadlines after it (`restart`: that player's clock starts anew)."""
        deadlines = self._plan(record, table, restart=frozenset({restart} - {None}))
        announce = self._announce_at()
        record = await self.store.games.update_table(record.id, record.version, table, log=log,
                                                     deadlines=deadlines, announce_at=announce)
        self._planned(deadlines, announce)
        return Outcome(True, record=self._keep(record))

    async def channel_gone(self, channel_id: int, game_id: int | None = None) -> Outcome | None:
        """The channel was deleted: its open game ends as abandoned (nobody can see or play it any more), and
        nothing of it (or of `game_id`, a game that ended there) is left to announce."""
        async with self.lock(channel_id):
            record = await self.current(channel_id)
            ended = None
            if record is not None:
                ended = await self.store.games.finish_game(record.id, record.version, "abandoned")
                self._keep(ended)
            for gone in {g for g in (game_id, record.id if record else None) if g is not None}:
                await self.store.deadlines.clear_deadlines(gone, kind="announce")
            return Outcome(True, record=ended) if ended else None

