"""Taking a decision back, as Board Game Arena allows it: a player may take back their own last decision
while nothing hidden was revealed or dealt by it or after it, no random draw happened, and no other
player has acted since (in a secret choice made by several at once, until everybody has chosen).

An undo needs the game's log, which `apply` does not see: `History` is a game with its log, move by
move. A take-back is a move of the log too (a TakeBack row, never a deletion): the decision and the
player's own moves with no choice that followed it (a privilege card finished for them) are left out,
and the game is replayed from its seed without them, so it stands exactly as if they had never been
made, other players' secret choices made meanwhile included. `state.moves` counts every row of the log.

Whether a move can ever be taken back is read from its events (FINAL): each kind of event that shows
or deals something hidden, or comes from the generator, closes the way back for good.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from . import events as ev
from .actions import ActionModel, Buy, Reveal, TakeBack
from .edition import Edition
from .game import Applied, ReplayError, apply, new_game, only_action, replay_plain
from .refusals import Refused
from .state import RULES_VERSION, GameState

# The events that make a move final, and why (the reason of an "undo_final" refusal).
FINAL: dict[str, str] = {
    "reveal": "revealed",  # R13/R12: the lay-downs are shown
    "purchase_made": "purchase_resolved",  # R4/R23: the secret purchases are paid and told
    "cards_drawn": "drew",  # R17: cards from the deck, unseen until drawn
    "hand_cards": "drew",
    "cards_dealt": "dealt",  # R23: the round-end deal
    "offered_cards": "dealt",
    "deck_reshuffled": "shuffled",  # R24: the generator shuffles the deck
    "round_started": "new_round",  # R26/R7: new privilege cards, shuffled on odd rounds
    "game_over": "game_over",  # R27
}
SECRET_CHOICES = (Buy, Reveal)  # chosen by several at once, in secret: others may choose meanwhile


def final_reason(events: Iterable[ev.Event]) -> str | None:
    """Why a move that caused `events` can never be taken back (None: nothing in them forbids it)."""
    return next((FINAL[e.type] for e in events if e.type in FINAL), None)


@dataclass(frozen=True)
class Row:
    """One move of the log as the undo rules need it."""

    move: int
    player: str
    action: ActionModel
    events: tuple[ev.Event, ...]
    forced: bool = False  # the player's only legal option: no decision (made for them, or finished for them)
    by_player: bool = True  # False: the clock or a stand-in decided it for them
    taken_back: bool = False


@dataclass(frozen=True)
class Undoable:
    """What taking back would do: the decision `move` (verb `decision`) and the `moves` left out with it."""

    move: int
    decision: str
    moves: tuple[int, ...]


def undoable(rows: Sequence[Row], player: str, move: int | None = None) -> Undoable | Refused:
    """Whether `player` may take back their last decision now (`move`: the one an Undo button was made for)."""
    effective = [r for r in rows if not r.taken_back and not isinstance(r.action, TakeBack)]
    index = next((i for i in range(len(effective) - 1, -1, -1)
                  if effective[i].player == player and not effective[i].forced), None)
    if index is None:
        return Refused("nothing_to_undo") if move is None else Refused("undo_stale", {"move": move})
    decision = effective[index]
    if move is not None and move != decision.move:
        return Refused("undo_stale", {"move": move})
    if not decision.by_player:
        return Refused("undo_made_for_you")
    reason = final_reason(decision.events)
    if reason is not None:
        return Refused("undo_final", {"reason": reason})
    for row in effective[index + 1:]:  # what came after it showed or dealt something: the most telling reason
        reason = final_reason(row.events)
        if reason is not None:
            return Refused("undo_final", {"reason": reason})
    secret = isinstance(decision.action, SECRET_CHOICES)
    for row in rows[decision.move:]:  # every later row, taken back or not: an act is an act
        if row.player != player and not (secret and _same_secret_choice(row, rows)):
            return Refused("undo_other_acted", {"player": row.player})
    later = tuple(r.move for r in effective[index + 1:] if r.player == player)
    return Undoable(decision.move, decision.action.do, (decision.move, *later))


def _same_secret_choice(row: Row, rows: Sequence[Row]) -> bool:
    """Another player's part of the same secret choice (or their taking back of it): it does not close the
    way back, since nobody sees a secret choice until all are in (and all in resolves it: final)."""
    action = row.action
    if isinstance(action, TakeBack):
        action = rows[action.move - 1].action
    return isinstance(action, SECRET_CHOICES)


class History:
    """A game with its log, move by move: `play` applies a move as `apply` does, and a TakeBack too.

    `rows` holds every move played (taken back ones marked), `deal` the events of the deal."""

    def __init__(self, player_ids: list[str], seed: int, start_player: str | None = None,
                 edition: Edition | None = None, rules: int = RULES_VERSION):
        self._origin = (list(player_ids), seed, start_player, edition, rules)
        self.state, self.deal = new_game(*self._origin)
        self.rows: list[Row] = []

    def play(self, player: str, action: ActionModel, *, by_player: bool = True) -> Applied | Refused:
        """One move of the log. `by_player`: False when the clock or a stand-in decided it for the player."""
        if isinstance(action, TakeBack):
            return self.take_back(player, action.move)
        forced = only_action(self.state, player) == action
        result = apply(self.state, player, action)
        if result.ok:
            self.rows.append(Row(len(self.rows) + 1, player, action, tuple(result.events), forced, by_player))
            self.state = result.state
        return result

    def undoable(self, player: str, move: int | None = None) -> Undoable | Refused:
        return undoable(self.rows, player, move)

    def take_back(self, player: str, move: int | None = None) -> Applied | Refused:
        """Take back `player`'s last decision (`move`: only if it is still that one), or say why not."""
        found = self.undoable(player, move)
        if isinstance(found, Refused):
            return found
        gone = set(found.moves)
        rows = [r if r.move not in gone else _marked(r) for r in self.rows]
        state, _ = new_game(*self._origin)
        for r in rows:
            if r.taken_back or isinstance(r.action, TakeBack):
                continue
            result = apply(state, r.player, r.action)
            if not result.ok:  # cannot happen: what stayed never depended on what was left out
                raise ReplayError(r.move - 1, result)
            state = result.state
        events: list[ev.Event] = [ev.TakenBack(player=player, decision=found.decision, moves=list(found.moves))]
        self.rows = [*rows, Row(len(rows) + 1, player, TakeBack(move=found.move), tuple(events))]
        self.state = state.model_copy(update={"moves": len(self.rows)})
        return Applied(self.state, events)


def replay(player_ids: list[str], seed: int, start_player: str | None,
           log: Iterable[tuple[str, ActionModel]], edition: Edition | None = None,
           rules: int = RULES_VERSION) -> GameState:
    """Rebuild a game from its creation arguments (its edition and rules version too) and its (player, action) log;
    each decision taken back in it (a TakeBack move) is checked as it was when it was taken back."""
    log = list(log)
    if not any(isinstance(action, TakeBack) for _, action in log):
        return replay_plain(player_ids, seed, start_player, log, edition, rules)
    history = History(player_ids, seed, start_player, edition, rules)
    for index, (player, action) in enumerate(log):
        result = history.play(player, action)
        if not result.ok:
            raise ReplayError(index, result)
    return history.state


def _marked(row: Row) -> Row:
    return Row(row.move, row.player, row.action, row.events, row.forced, row.by_player, True)


def without_taken_back(moves: Iterable[tuple[int, Sequence[ev.Event]]]) -> list[ev.Event]:
    """The events of logged moves `(move, events)` as if the moves taken back had never been made (for
    readers who build on what happened, such as a computer's picture of the others' hands)."""
    kept: dict[int, list[ev.Event]] = {}
    for move, events in moves:
        gone = [e for e in events if e.type == "taken_back"]
        for e in gone:
            for m in e.moves:
                kept.pop(m, None)
        if not gone:
            kept[move] = list(events)
    return [e for move in sorted(kept) for e in kept[move]]
