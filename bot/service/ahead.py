"""Deciding ahead: a player settles their next decision in the running auction before their turn comes
(pass, or call or raise up to a number of cards), and the bot makes it for them when it does, with no
ping (bot/automatic.py). What they set is stored on their seat, so it survives a restart; it is private
(only their own panel shows it), can be changed or cleared until it is used, and lapses with the auction.
Setting it changes nothing anyone else can see: the table is not redrawn for it."""

from __future__ import annotations

from dataclasses import replace

from engine import only_action, to_act
from engine.undo import final_reason
from storage import Ahead, VersionConflict

from ..automatic import ahead_action, ahead_choices, auction_id
from .core import Outcome, back_to_seat, cannot_decide, refuse


class AheadMixin:
    async def settle_ahead(self, channel_id: int, game_id: int, user: int | str, auction: str,
                           ahead: Ahead | None) -> Outcome:
        """Set (or with None clear) a player's decision ahead for `auction`. If their turn has come meanwhile,
        it is their decision now, made at once."""
        async with self.lock(channel_id):
            record = await self.current(channel_id)
            player = str(user)
            refused = cannot_decide(record, game_id, player)
            if refused is not None:
                return refused
            seat = record.table.seat(player)
            if auction_id(record.state) != auction or not ahead_choices(record.state, player, due_too=True):
                return refuse("ahead_lapsed", record)
            if ahead is not None and ahead not in ahead_choices(record.state, player, due_too=True):
                return refuse("stale_choice", record)
            if player in to_act(record.state):
                if ahead is None:
                    return Outcome(True, record=record)  # nothing was set that could be used
                table, log = back_to_seat(record.table, player)
                action = ahead_action(ahead, record.state.auction.high)
                outcome = await self._move(record, player, action, "player", table, log)
                if outcome.ok and final_reason(outcome.events) is None and only_action(record.state, player) != action:
                    outcome.undo = outcome.record.state.moves  # their own decision: its panel offers Undo, as act's
                return outcome
            if seat.ahead == ahead and seat.away_until is None:
                return Outcome(True, record=record)
            table, log = back_to_seat(record.table.with_seat(player, ahead=ahead), player)  # back from time away
            deadlines = self._plan(record, table, restart=frozenset({player})) if log else None
            try:
                new = await self.store.games.update_table(record.id, record.version, table, log=log,
                                                          deadlines=deadlines)
            except VersionConflict:
                self._games.drop(record.channel_id)
                return refuse("raced")
            self._planned(deadlines)
            if record.messages.drawn == record.version and not log:  # the table still shows the game: as it was
                messages = new.messages.model_copy(update={"drawn": new.version})
                await self.store.games.set_messages(new.id, messages)
                new = replace(new, messages=messages)
            return Outcome(True, record=self._keep(new))
