"""Deciding ahead: a player settles their next decision in the running auction before their turn comes
(pass, or call or raise up to a number of cards), and the bot makes it for them when it does, with no
ping (bot/automatic.py). What they set is stored on their seat, so it survives a restart; it is private
(only their own panel shows it), can be changed or cleared until it is used, and lapses with the auction.
Setting it changes nothing anyone else can see: the table is not redrawn for it."""

from __future__ import annotations

from dataclasses import replace

from engine import to_act
from storage import Ahead, GameRecord, VersionConflict

from .automatic import ahead_action, ahead_choices, auction_id
from .core import Core, back_to_seat
from .outcome import Outcome, refuse


class DecidingAhead:
    def __init__(self, core: Core):
        self.core = core

    async def settle(self, channel_id: int, game_id: int, user: int | str, auction: str,
                     ahead: Ahead | None) -> Outcome:
        """Set (or with None clear) a player's decision ahead for `auction`. If their turn has come meanwhile,
        it is their decision now, made at once (and offered to be taken back, as any decision of theirs)."""

        async def work(record: GameRecord, player: str) -> Outcome:
            state = record.state
            assert state is not None
            if auction_id(state) != auction or not ahead_choices(state, player, due_too=True):
                return refuse("ahead_lapsed", record)
            if ahead is not None and ahead not in ahead_choices(state, player, due_too=True):
                return refuse("stale_choice", record)
            if player in to_act(state):
                if ahead is None:
                    return Outcome(True, record=record)  # nothing was set that could be used
                assert state.auction is not None
                return await self.core.decide(record, player, ahead_action(ahead, state.auction.high))
            seat = record.table.seat(player)
            if seat is not None and seat.ahead == ahead and seat.away_until is None:
                return Outcome(True, record=record)
            return await self._store(record, player, ahead)

        return await self.core.deciding(channel_id, game_id, user, work)

    async def _store(self, record: GameRecord, player: str, ahead: Ahead | None) -> Outcome:
        """Keep what `player` settled on their seat; nothing public changes, unless it brings them back from
        time away."""
        core = self.core
        table, log = back_to_seat(record.table.with_seat(player, ahead=ahead), player)  # back from time away
        deadlines = await core.plan(record, table, restart=frozenset({player})) if log else None
        try:
            new = await core.store.games.update_table(record.id, record.version, table, log=log, deadlines=deadlines)
        except VersionConflict:
            core.forget(record.channel_id)
            return refuse("raced")
        core.planned(deadlines)
        if record.messages.drawn == record.version and not log:  # the table still shows the game: as it was
            messages = new.messages.model_copy(update={"drawn": new.version})
            await core.store.games.set_messages(new.id, messages)
            new = replace(new, messages=messages)
        return Outcome(True, record=core.keep(new))
