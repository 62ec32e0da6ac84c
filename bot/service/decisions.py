"""Decisions: a player's own, a computer's (a computer seat or one standing in), the bot's for a person (their
only option, or what they settled ahead), and the clock's when a player's time runs out. All are committed
by the core with who made them and the game's deadlines after them, in one transaction."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from engine import legal_actions, only_action, player_view, to_act
from engine.actions import ActionModel, Done
from engine.ai.levels import DEFAULT_LEVEL, computer, visible_to
from engine.state import GameState
from engine.undo import final_reason
from storage import Actor, Deadline, GameRecord, TableEvent

from .automatic import automatic
from .core import Core
from .hours import put_off
from .outcome import Outcome, refuse
from .showing import decision_key
from .thinking import Thinkers
from .turns import computers_due, on_clock

log = logging.getLogger(__name__)
Chosen = ActionModel | Callable[[GameState, str], ActionModel]  # an action, or one read from the state under the lock


def chose_already(state: GameState, player: str) -> bool:
    """Whether `player` has made their part of the secret choice under way (a purchase, a lay-down)."""
    seat = next((i for i, p in enumerate(state.players) if p.id == player), None)
    if state.phase in ("initial_purchase", "round_end_purchase"):
        return state.purchase is not None and seat in state.purchase.choices
    return state.phase == "showdown" and state.showdown is not None and seat in state.showdown.reveals


def computer_seat(record: GameRecord, player: str) -> tuple[str, int]:
    """The level and seed the computer plays `player` with: a computer seat's own level, a human's stood in
    for (timed out, left) at normal; each seat with a seed of its own, so each plays its own way."""
    seat = record.table.seat(player)
    level = seat.playing_level if seat is not None else DEFAULT_LEVEL
    seed = record.table.seed
    assert seed is not None, "a started game has its seed"
    return level, seed + record.table.players.index(player)


def computer_choice(record: GameRecord, player: str, level: str | None = None,
                    thinkers: Thinkers | None = None) -> ActionModel:
    """What the computer plays for `player` at once, from that player's own view only (`level`: instead of
    the seat's). Heavy levels go through `Decisions.play_computer`, off the event loop."""
    assert record.state is not None
    seat_level, seed = computer_seat(record, player)
    bot, view = computer(level or seat_level, seed), player_view(record.state, player)
    return thinkers.at_once(bot, view) if thinkers is not None else bot.decide(view)


def _bot_moves(record: GameRecord, made: dict[str, tuple[ActionModel, Actor]]) -> str | None:
    """The first seat due that the bot moves: a computer's, a human's stood in for, or one in `made` (a
    person's only option, or a decision settled ahead); None if there is none."""
    assert record.state is not None
    due = [p for p in to_act(record.state) if record.table.computer_plays(p) or p in made]
    return due[0] if due else None


class Decisions:
    def __init__(self, core: Core, thinkers: Thinkers):
        self.core = core
        self.thinkers = thinkers  # where heavy computer players think (thinking.py)

    async def act(self, channel_id: int, game_id: int, user: int | str, key: str | None, action: Chosen) -> Outcome:
        """Apply one player's decision. `key` is the decision the button was made for (None: a typed command).

        `action` may be a function of the current state and player, for choices named by position
        (the 2nd and 5th offered card), which are read under the lock. A player whose seat a computer
        stands in for takes it back by deciding.
        """

        async def work(record: GameRecord, player: str) -> Outcome:
            state = record.state
            assert state is not None
            if key is not None and key != decision_key(state):
                return refuse("stale_decision", record)
            if chose_already(state, player):
                return refuse("already_chosen", record)  # an older panel, or typed again: not "not your turn"
            try:
                chosen = action(state, player) if callable(action) else action
            except (ValueError, IndexError, KeyError):
                return refuse("stale_choice", record)
            outcome = await self._finish_card(await self.core.decide(record, player, chosen), player)
            if final_reason(outcome.events) is not None:
                outcome.undo = None  # finishing the card showed or dealt something: no way back
            return outcome

        return await self.core.deciding(channel_id, game_id, user, work)

    async def _finish_card(self, outcome: Outcome, player: str) -> Outcome:
        """A privilege card with nothing left to decide on it (both privileges used, nothing to build) is
        finished for its player at once: a click that confirms nothing is no decision."""
        record = outcome.record
        if record is None or not record.open or record.state is None \
                or legal_actions(record.state, player) != [Done()]:
            return outcome
        more = await self.core.move(record, player, Done(), "player", record.table, [])
        if not more.ok:
            return outcome
        return Outcome(True, record=more.record, events=outcome.events + more.events,
                       previous_to_act=outcome.previous_to_act, player=player, actor=outcome.actor,
                       action=outcome.action, undo=outcome.undo)

    async def play_computer(self, channel_id: int) -> Outcome | None:
        """Let the first seat due that the bot moves (a computer's, a human's stood in for, or a person's
        only option or decision settled ahead) move; None when there is none. If somebody moved meanwhile,
        the choice is refused as stale.

        A heavy level (strong) thinks off the event loop and outside the lock, from a snapshot (the
        player's view and the events they know); its move is applied only if the game is still where it
        was, else dropped as stale (the runner asks again)."""
        core = self.core
        async with core.lock(channel_id):
            record = await core.current(channel_id)  # not only a cached one: one dropped from memory is read
            if record is None or record.status != "active" or record.state is None:
                return None
            made = automatic(record.state, record.table).now
            player = _bot_moves(record, made)
            if player is None:
                return None
            if player in made:  # a person's: no thinking to do
                action, by = made[player]
                return await core.move(record, player, action, by, record.table, [])
            seat = record.table.seat(player)
            assert seat is not None
            actor: Actor = "player" if seat.kind == "computer" else "away" if seat.away_until is not None \
                else "stand_in"  # the seat the bot moves: a computer's own, one on time away, a stand-in
            level, seed = computer_seat(record, player)
            view = player_view(record.state, player)
            bot = computer(level, seed, self.thinkers.think_seconds)
            if not bot.heavy:  # decided at once, from the view alone
                started = time.perf_counter()
                chosen = self.thinkers.at_once(bot, view)
                core.observer.thought(level, time.perf_counter() - started)
                return await core.move(record, player, chosen, actor, record.table, [])
            history = visible_to(await self.thinkers.history(core.store.log, record.id), player)
        thought: ActionModel | None
        try:
            started = time.perf_counter()
            thought = await self.thinkers.decide(level, seed, view, history)
            core.observer.thought(level, time.perf_counter() - started)
        except Exception:  # a failing player must not stall the table: this decision is played at normal
            log.exception("the %s computer failed in channel %s: it plays normal this once", level, channel_id)
            thought = None
        async with core.lock(channel_id):
            now = await core.current(channel_id)
            if now is None or now.status != "active":
                return None
            if now.id != record.id or now.version != record.version or not now.table.computer_plays(player):
                return refuse("stale_decision", now)  # a move or a seat changed meanwhile
            if thought is None:
                thought = computer_choice(now, player, DEFAULT_LEVEL, self.thinkers)
            return await core.move(now, player, thought, actor, now.table, [])

    def thinker(self, channel_id: int) -> str | None:
        """The seat whose move `play_computer` makes next if that move takes thought (a heavy level's, strong):
        a front-end may say meanwhile that it is thinking. None if the next move is made at once, or none is."""
        record = self.core.cached(channel_id)
        if record is None or record.status != "active" or record.state is None:
            return None
        made = automatic(record.state, record.table).now
        player = _bot_moves(record, made)
        if player is None or player in made:
            return None
        return player if computer(*computer_seat(record, player)).heavy else None

    async def expire(self, deadline: Deadline) -> Outcome | None:
        """Time ran out: the computer decides this one decision for the player, from their view only.
        After two in a row it stands in for them until they come back. None if the deadline is stale."""
        core = self.core
        async with core.lock(deadline.channel_id):
            record = await self._still_due(deadline)
            if record is None or record.state is None:
                return None
            player = deadline.player
            if await self._outside_hours(record, deadline):
                return None
            if player in automatic(record.state, record.table).waiting:  # their only option: no missed turn
                only = only_action(record.state, player)
                assert only is not None
                return await core.move(record, player, only, "only", record.table, [])
            seat = record.table.seat(player)
            assert seat is not None
            streak = seat.streak + 1
            table = record.table.with_seat(player, missed=seat.missed + 1, streak=streak, stand_in=streak >= 2)
            entries = [TableEvent(what="stand_in", player=player)] if streak >= 2 else []
            chosen = computer_choice(record, player, thinkers=self.thinkers)
            return await core.move(record, player, chosen, "clock", table, entries)

    async def computer_due(self, deadline: Deadline) -> bool:
        """Whether a computer's marker still stands for a seat it must play (a stale one is dropped)."""
        async with self.core.lock(deadline.channel_id):
            record = await self.core.current(deadline.channel_id)
            if record is not None and record.id == deadline.game_id and deadline.player in computers_due(
                    record.state, record.table):
                return True
            await self.core.store.deadlines.drop_deadline(deadline)
            return False

    async def remind(self, deadline: Deadline) -> GameRecord | None:
        """The game to remind `deadline.player` of, if they are still to decide; a stale reminder is dropped,
        and so is one for a person whose only option waits for the others (nothing to remind them of)."""
        async with self.core.lock(deadline.channel_id):
            record = await self._still_due(deadline)
            if record is not None and deadline.player in automatic(record.state, record.table).waiting:
                await self.core.store.deadlines.drop_deadline(deadline)
                return None
            return None if record is None or await self._outside_hours(record, deadline) else record

    async def _outside_hours(self, record: GameRecord, deadline: Deadline) -> bool:
        """A timeout or reminder due while its person is outside their hours waits (hours.put_off): True if it
        was put off (or, a reminder too late for their hours, dropped)."""
        core = self.core
        hours = await core.hours.of(deadline.player)
        now = core.clock.now()
        if hours.inside(now):
            return False
        later = put_off(hours, deadline.kind, deadline.payload, record.table.turn_seconds, now)
        if later is None and deadline.kind == "timeout":
            return False  # their time ran out inside their hours: it fires now
        if later is None:
            await core.store.deadlines.drop_deadline(deadline)
        else:
            await core.store.deadlines.postpone_deadline(deadline, later)
            back = hours.back_at(now)
            if deadline.kind == "timeout" and back is not None and back < later:  # reminded as their hours begin
                await core.store.deadlines.set_deadline(record.id, deadline.player, "reminder", back,
                                                        {"timeout": later})
            core.planned(None, min(later, back or later))
        return True

    async def reminded(self, deadline: Deadline) -> None:
        await self.core.store.deadlines.drop_deadline(deadline)

    async def _still_due(self, deadline: Deadline) -> GameRecord | None:
        """The game if this very deadline stands (not one re-armed since) and its player must still decide."""
        core = self.core
        stored = await core.store.deadlines.deadlines_of(deadline.game_id)
        current = {(d.player, d.kind): d.due_at for d in stored}
        if current.get((deadline.player, deadline.kind)) != deadline.due_at or core.clock.now() < deadline.due_at:
            return None
        record = await core.current(deadline.channel_id)
        if record is None or record.id != deadline.game_id or deadline.player not in on_clock(record.state,
                                                                                                record.table):
            await core.store.deadlines.drop_deadline(deadline)
            return None
        return record
