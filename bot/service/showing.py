"""What a front-end shows of a game, as the service's rules see it: who must decide now, whom the bot moves,
and each person's decision in the form a panel renders (their own view, their legal options, the move the
bot makes for them, what they may settle ahead). Pure: the Discord panels, the table, the live panels and
the terminal render these, and never call the engine's rules or the turn clock themselves."""

from __future__ import annotations

from dataclasses import dataclass

from engine import GameState, LegalOption, View, legal_actions, only_action, player_view, to_act
from engine.actions import ActionModel
from engine.state import seat_of
from storage import Actor, Ahead, GameRecord

from .automatic import ahead_choices, automatic
from .turns import bot_decides, computers_due


def decision_key(state: GameState) -> str:
    """Names the decision a panel was built for, so a stale button is recognised.

    A turn-based decision lasts one move. A secret simultaneous choice lasts
    until everyone has chosen, though others' choices add moves meanwhile.
    The initial purchase and the one ending round 1 both happen in round 1: the
    initial one is "buy0", so a panel left open since then is recognised as stale.
    """
    if state.phase == "initial_purchase":
        return "buy0"
    if state.phase == "round_end_purchase":
        return f"buy{state.round}"
    if state.phase == "showdown":
        return f"show{state.round}.{state.noble}"
    return str(state.moves)


@dataclass(frozen=True)
class Made:
    """A decision the bot makes for its person, with no click: `actor` 'only' (their only option) or 'ahead'
    (settled ahead); `waiting`: made once the others in the same secret choice have chosen."""

    action: ActionModel
    actor: Actor
    waiting: bool


@dataclass(frozen=True)
class Decision:
    """One seated person's part of the game now, as their panel shows it."""

    player: str
    key: str  # the decision's name (decision_key), carried by its buttons
    view: View  # what they may see
    options: tuple[LegalOption, ...]  # what they may decide now (empty: nothing now)
    made: Made | None  # the bot decides it for them
    ahead: tuple[Ahead, ...]  # what they may settle ahead for their next turn in the running auction
    settled: Ahead | None  # what they have settled ahead, if it is still one of those

    @property
    def due(self) -> bool:
        """Whether they are to decide now (themselves, or the bot for them)."""
        return bool(self.options)


@dataclass(frozen=True)
class Due:
    """Who is due in a game now."""

    acting: tuple[str, ...]  # everyone due, in the engine's order
    people: frozenset[str]  # the people who must decide themselves now: whom to tell
    computers: frozenset[str]  # the seats the bot must move now (computers, stand-ins, people's automatic moves)
    bot_decides: frozenset[str]  # everyone due whose decision the bot makes, now or once the others chose

    @property
    def any_computer(self) -> bool:
        return bool(self.computers)


NOBODY = Due((), frozenset(), frozenset(), frozenset())


def due_of(record: GameRecord | None) -> Due:
    """Who is due in the game of `record` (nobody in a lobby or an ended game)."""
    if record is None or not record.open or record.state is None or record.state.phase == "game_over":
        return NOBODY
    state, table = record.state, record.table
    acting = tuple(to_act(state))
    auto = automatic(state, table)
    made = bot_decides(state, table, auto)
    return Due(acting, frozenset(acting) - made, frozenset(computers_due(state, table, auto)), frozenset(made))


def panel_marks(record: GameRecord, player: str) -> tuple[object, ...]:
    """What `player`'s panel shows that is worth redrawing it for: the decision due (its key, "" if none),
    their hand and money; ("over",) once the game is over. The same as their `decision_of` says, from the
    state alone: every move asks it of every live panel of the game, and their whole view is what costs."""
    state = record.state
    if not record.open or state is None:
        return ("over",)
    seat = seat_of(state, player)
    assert seat is not None, "a panel is a seated player's"
    you = state.players[seat]
    # One flat tuple of text and numbers: a live panel keeps it (live.py), and a tuple inside a tuple inside
    # the panel's would reach the old generation still walked by the collector (issue 44)
    return decision_key(state) if legal_actions(state, player) else "", you.money, *you.hand


def decision_of(record: GameRecord, player: str) -> Decision:
    """`player`'s part of an active game now (`record.state` must not be None)."""
    state = record.state
    assert state is not None, "a lobby has no decisions"
    view = player_view(state, player)
    options = tuple(legal_actions(state, player)) if record.open else ()
    made = None
    if options:
        auto = automatic(state, record.table)
        if player in auto.now:
            action, actor = auto.now[player]
            made = Made(action, actor, False)
        elif player in auto.waiting:
            only = only_action(state, player)
            assert only is not None, "waiting with one option"
            made = Made(only, "only", True)
    ahead = tuple(ahead_choices(state, player)) if record.open else ()
    seat = record.table.seat(player)
    settled = seat.ahead if seat is not None and seat.ahead in ahead else None
    return Decision(player, decision_key(state), view, options, made, ahead, settled)
