"""Decisions: a player's own, a computer's (a computer seat or one standing in), and the clock's when a
player's time runs out. All go through `_move`, which commits the move with its events, who made it,
and the game's deadlines after it, in one transaction."""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine import apply, legal_actions, only_action, player_view, to_act
from engine.actions import ActionModel, Done
from engine.ai.levels import DEFAULT_LEVEL, computer, visible_to
from engine.state import GameState
from engine.undo import final_reason
from storage import Deadline, GameRecord, StorageUnavailable, Table, TableEvent, VersionConflict

from ..automatic import automatic, lapsed
from ..turns import computers_due, on_clock
from .core import Outcome, back_to_seat, cannot_decide, decision_key, refuse
from .thinking import Thinkers

log = logging.getLogger(__name__)


def chose_already(state: GameState, player: str) -> bool:
    """Whether `player` has made their part of the secret choice under way (a purchase, a lay-down)."""
    seat = next((i for i, p in enumerate(state.players) if p.id == player), None)
    if state.phase in ("initial_purchase", "round_end_purchase"):
        return seat in state.purchase.choices
    return state.phase == "showdown" and seat in state.showdown.reveals


def computer_seat(record: GameRecord, player: str) -> tuple[str, int]:
    """The level and seed the computer plays `player` with: a computer seat's own level, a human's stood in
    for (timed out, left) at normal; each seat with a seed of its own, so each plays its own way."""
    seat = record.table.seat(player)
    level = seat.playing_level if seat is not None else DEFAULT_LEVEL
    return level, record.table.seed + record.table.players.index(player)


def computer_choice(record: GameRecord, player: str, level: str | None = None,
                    thinkers: Thinkers | None = None) -> ActionModel:
    """What the computer plays for `player` at once, from that player's own view only (`level`: instead of
    the seat's). Heavy levels go through `MovesMixin.play_computer`, off the event loop."""
    seat_level, seed = computer_seat(record, player)
    bot, view = computer(level or seat_level, seed), player_view(record.state, player)
    return thinkers.at_once(bot, view) if thinkers is not None else bot.decide(view)


class MovesMixin:
    async def act(
        self,
        channel_id: int,
        game_id: int,
        user: int | str,
        key: str | None,
        action: ActionModel | Callable[[GameState, str], ActionModel],
    ) -> Outcome:
        """Apply one player's decision. `key` is the decision the button was made for (None: a typed command).

        `action` may be a function of the current state and player, for choices named by position
        (the 2nd and 5th offered card), which are read under the lock. A player whose seat a computer
        stands in for takes it back by deciding.
        """
        async with self.lock(channel_id):
            record = await self.current(channel_id)
            player = str(user)
            refused = cannot_decide(record, game_id, player)
            if refused is not None:
                return refused
            if key is not None and key != decision_key(record.state):
                return refuse("stale_decision", record)
            if chose_already(record.state, player):
                return refuse("already_chosen", record)  # an older panel, or typed again: not "not your turn"
            if callable(action):
                try:
                    action = action(record.state, player)
                except (ValueError, IndexError, KeyError):
                    return refuse("stale_choice", record)
            table, log = back_to_seat(record.table, player)
            outcome = await self._move(record, player, action, "player", table, log)
            decided = outcome.record.state.moves if outcome.ok else None
            if decided is not None and only_action(record.state, player) == action:
                decided = None  # their only option: no decision to take back
            outcome = await self._finish_card(outcome, player)
            if decided is not None and outcome.ok and final_reason(outcome.events) is None:
                outcome.undo = decided
            return outcome

    async def _finish_card(self, outcome: Outcome, player: str) -> Outcome:
        """A privilege card with nothing left to decide on it (both privileges used, nothing to build) is
        finished for its player at once: a click that confirms nothing is no decision."""
        record = outcome.record
        if not outcome.ok or not record.open or legal_actions(record.state, player) != [Done()]:
            return outcome
        more = await self._move(record, player, Done(), "player", record.table, [])
        if not more.ok:
            return outcome
        return Outcome(True, record=more.record, events=outcome.events + more.events,
                       previous_to_act=outcome.previous_to_act, player=player, actor=outcome.actor,
                       action=outcome.action)

    async def play_computer(self, channel_id: int) -> Outcome | None:
        """Let the first seat due that the bot moves (a computer's, a human's stood in for, or a person's
        only option or decision settled ahead) move; None when there is none. If somebody moved meanwhile,
        the choice is refused as stale.

        A heavy level (strong) thinks off the event loop and outside the lock, from a snapshot (the
        player's view and the events they know); its move is applied only if the game is still where it
        was, else dropped as stale (the runner asks again)."""
        async with self.lock(channel_id):
            record = self.cached(channel_id)
            if record is None or record.status != "active":
                return None
            made = automatic(record.state, record.table).now
            due = [p for p in to_act(record.state) if record.table.computer_plays(p) or p in made]
            if not due:
                return None
            player = due[0]
            if player in made:  # a person's: no thinking to do
                action, actor = made[player]
                return await self._move(record, player, action, actor, record.table, [])
            seat = record.table.seat(player)
            actor = "player" if seat.kind == "computer" else "away" if seat.away_until is not None else "stand_in"
            level, seed = computer_seat(record, player)
            view = player_view(record.state, player)
            bot = computer(level, seed, self.thinkers.think_seconds)
            if not bot.heavy:  # decided at once, from the view alone
                return await self._move(record, player, self.thinkers.at_once(bot, view), actor, record.table, [])
            history = visible_to(await self.thinkers.history(self.store.log, record.id), player)
        try:
            action = await self.thinkers.decide(level, seed, view, history)
        except Exception:  # a failing player must not stall the table: this decision is played at normal
            log.exception("the %s computer failed in channel %s: it plays normal this once", level, channel_id)
            action = None
        async with self.lock(channel_id):
            now = self.cached(channel_id)
            if now is None or now.status != "active":
                return None
            if now.id != record.id or now.version != record.version or not now.table.computer_plays(player):
                return refuse("stale_decision", now)  # a move or a seat changed meanwhile
            if action is None:
                action = computer_choice(now, player, DEFAULT_LEVEL, self.thinkers)
            return await self._move(now, player, action, actor, now.table, [])

    async def expire(self, deadline: Deadline) -> Outcome | None:
        """Time ran out: the computer decides this one decision for the player, from their view only.
        After two in a row it stands in for them until they come back. None if the deadline is stale."""
        async with self.lock(deadline.channel_id):
            record = await self._still_due(deadline)
            if record is None:
                return None
            player = deadline.player
            waiting = automatic(record.state, record.table).waiting
            if player in waiting:  # their only option, which waited for the others: no missed turn
                return await self._move(record, player, only_action(record.state, player), "only", record.table, [])
            seat = record.table.seat(player)
            streak = seat.streak + 1
            table = record.table.with_seat(player, missed=seat.missed + 1, streak=streak, stand_in=streak >= 2)
            log = [TableEvent(what="stand_in", player=player)] if streak >= 2 else []
            return await self._move(record, player, computer_choice(record, player, thinkers=self.thinkers), "clock",
                                    table, log)

    async def computer_due(self, deadline: Deadline) -> bool:
        """Whether a computer's marker still stands for a seat it must play (a stale one is dropped)."""
        async with self.lock(deadline.channel_id):
            record = await self.current(deadline.channel_id)
            if record is not None and record.id == deadline.game_id and deadline.player in computers_due(
                    record.state, record.table):
                return True
            await self.store.deadlines.drop_deadline(deadline)
            return False

    async def remind(self, deadline: Deadline) -> GameRecord | None:
        """The game to remind `deadline.player` of, if they are still to decide; a stale reminder is dropped,
        and so is one for a person whose only option waits for the others (nothing to remind them of)."""
        async with self.lock(deadline.channel_id):
            record = await self._still_due(deadline)
            if record is not None and deadline.player in automatic(record.state, record.table).waiting:
                await self.store.deadlines.drop_deadline(deadline)
                return None
            return record

    async def reminded(self, deadline: Deadline) -> None:
        await self.store.deadlines.drop_deadline(deadline)

    async def _still_due(self, deadline: Deadline) -> GameRecord | None:
        """The game if this very deadline stands (not one re-armed since) and its player must still decide."""
        stored = await self.store.deadlines.deadlines_of(deadline.game_id)
        current = {(d.player, d.kind): d.due_at for d in stored}
        if current.get((deadline.player, deadline.kind)) != deadline.due_at or self.clock.now() < deadline.due_at:
            return None
        record = await self.current(deadline.channel_id)
        if record is None or record.id != deadline.game_id or deadline.player not in on_clock(record.state,
                                                                                                record.table):
            await self.store.deadlines.drop_deadline(deadline)
            return None
        return record

    async def _move(self, record: GameRecord, player: str, action, actor: str, table: Table, log: list) -> Outcome:
        """Apply and commit one move (under the channel's lock)."""
        state = record.state
        result = apply(state, player, action)
        if not result.ok:
            return refuse(result.code, record, **result.params)
        return await self._commit(record, player, action, result, actor, table, log)

    async def _commit(self, record: GameRecord, player: str, action, result, actor: str, table: Table,
                      log: list) -> Outcome:
        """Commit a move the engine applied (`result`) with the game's deadlines after it."""
        state = record.state
        table = lapsed(table, result.state, player if state.phase == "auction" else None)
        deadlines = self._plan(record, table, result.state, restart=frozenset({player}))
        announce = self._announce_at()
        try:
            new = await self.store.games.commit_action(
                record.id, record.version, player, action.to_json_dict(), result.state, events=result.events,
                actor=actor, table=table if table is not record.table else None, log=log, deadlines=deadlines,
                keep_table=record.table, keep_messages=record.messages, announce_at=announce,
            )
        except VersionConflict:
            # Another process wrote first: drop our copy so the next click sees the truth.
            self._games.drop(record.channel_id)
            return refuse("raced")
        except StorageUnavailable:
            # The database stayed out of reach (storage retried meanwhile): nothing of the move was stored, and
            # the player is told so; our copy is dropped, so the next click reads what is stored.
            self._games.drop(record.channel_id)
            return refuse("not_stored")
        self._planned(deadlines, announce)
        return Outcome(True, record=self._keep(new), events=result.events, previous_to_act=to_act(state),
                       player=player, actor=actor, action=action)
