"""The engine's entry points: new_game, to_act, legal_actions, apply."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from . import auction, flow, privileges, purchase, rng, setup, shortage
from . import events as ev
from .actions import ActionModel, BadAction, LegalOption, allows, parse_action
from .edition import Edition
from .editions import default
from .events import Event
from .refusals import Illegal, Refused
from .state import RULES_PLAYED, RULES_VERSION, GameState, clone, seat_of


@dataclass(frozen=True)
class Applied:
    state: GameState
    events: list[Event] = field(default_factory=list)
    ok = True


class GameSetupError(ValueError):
    pass


def new_game(player_ids: list[str], seed: int, start_player: str | None = None, edition: Edition | None = None,
             rules: int = RULES_VERSION) -> tuple[GameState, list[Event]]:
    """R1-R8: a fresh game with `edition`'s components (None: the shipped default), dealt and waiting for the
    initial purchase. `rules`: the rules version it is played under (an older one to replay an older game)."""
    n = len(player_ids)
    if not 2 <= n <= 5:
        raise GameSetupError("Augsburg 1520 is played by 2 to 5 players.")
    if len(set(player_ids)) != n:
        raise GameSetupError("Every player must have a different id.")
    state_rng = rng.seed_state(seed)
    if start_player is None:
        state_rng, start = rng.randbelow(state_rng, n)  # R8: chosen at random unless the host picks
    elif start_player in player_ids:
        start = player_ids.index(start_player)
    else:
        raise GameSetupError(f"{start_player} is not one of the players.")
    if rules not in RULES_PLAYED:
        raise GameSetupError(f"This game follows rules version {rules}; this program plays {sorted(RULES_PLAYED)}.")
    state = setup.fresh_state(player_ids, seed, start, state_rng, edition or default(), rules)
    events = [ev.GameStarted(players=list(player_ids), start_player=player_ids[start], rounds=state.rounds)]
    flow.start_game(state, events)
    return state, events


def to_act(state: GameState) -> list[str]:
    """Who must act now, in seating order (several at once for secret choices)."""
    return [state.players[s].id for s in _seats_to_act(state)]


def _seats_to_act(state: GameState) -> list[int]:
    phase = _PHASES.get(state.phase)
    return phase.to_act(state) if phase is not None else []


@dataclass(frozen=True)
class _Phase:
    """Who acts in a phase, what they may do, and the handler of each verb."""

    to_act: Callable[[GameState], list[int]]
    legal: Callable[[GameState, int], list[LegalOption]]
    handlers: dict[str, Callable]


_PURCHASE = _Phase(purchase.to_act, purchase.legal, {"buy": purchase.buy})
_PHASES: dict[str, _Phase] = {
    "initial_purchase": _PURCHASE,
    "round_end_purchase": _PURCHASE,
    "auction": _Phase(auction.to_act, auction.legal_auction, {"bid": auction.bid, "call": auction.call,
                                                              "pass": auction.pass_}),
    "showdown": _Phase(auction.showdown_to_act, auction.legal_reveal, {"reveal": auction.reveal}),
    "privilege": _Phase(privileges.to_act, privileges.legal, {
        "take_card": privileges.take_card, "use": privileges.use, "discard": privileges.discard,
        "build": privileges.build, "done": privileges.done, "compensate": privileges.compensate}),
    "shortage": _Phase(shortage.to_act, shortage.legal, {"return_card": shortage.return_card}),
}


def legal_actions(state: GameState, player: str) -> list[LegalOption]:
    """Everything `player` may do now: concrete actions, plus RevealChoice/BuyChoice descriptors."""
    seat = seat_of(state, player)
    if seat is None or seat not in _seats_to_act(state):
        return []
    return _PHASES[state.phase].legal(state, seat)


def is_legal(state: GameState, player: str, action: ActionModel) -> bool:
    return any(allows(option, action) for option in legal_actions(state, player))


def apply(state: GameState, player: str, action: ActionModel | dict, *, in_place: bool = False) -> Applied | Refused:
    """Apply one action. On refusal `state` is untouched and the refusal is for `player` alone.

    `in_place`: change `state` itself rather than a copy (a search's throwaway state, played on and on;
    after a refusal it may be half changed, so only for actions known to be legal)."""
    if isinstance(action, dict):
        try:
            action = parse_action(action)
        except BadAction as exc:
            return Refused("unreadable", {"field": exc.field, "problem": exc.problem})
    seat = seat_of(state, player)
    if seat is None:
        return Refused("not_seated")
    if state.phase == "game_over":
        return Refused("game_over")
    if seat not in _seats_to_act(state):
        return Refused("not_your_turn", {"phase": state.phase})
    handler = _PHASES[state.phase].handlers.get(action.do)
    robbed = state.phase == "privilege" and state.privilege.robbed is not None
    if handler is None or (action.do == "compensate") != robbed:
        if robbed:  # only the robbed player is due now (to_act), and only for compensation
            ed = state.edition
            return Refused("compensate_first", {"money": ed.compensation_money, "prestige": ed.compensation_prestige})
        return Refused("wrong_moment", {"action": action.do, "phase": state.phase})
    new = state if in_place else clone(state)
    events: list[Event] = []
    try:
        outcome = handler(new, seat, action, events)
    except Illegal as exc:
        return Refused(exc.code, exc.params)
    flow.advance(new, outcome, events)
    new.moves += 1
    return Applied(new, events)


class ReplayError(ValueError):
    def __init__(self, index: int, refused: Refused):
        super().__init__(f"action {index + 1} of the log was refused: {refused.code} {refused.params}")
        self.index = index
        self.refused = refused


def replay(player_ids: list[str], seed: int, start_player: str | None, log, edition: Edition | None = None,
           rules: int = RULES_VERSION) -> GameState:
    """Rebuild a game from its creation arguments (its edition and rules version too) and its (player, action) log."""
    state, _ = new_game(player_ids, seed, start_player, edition, rules)
    for index, (player, action) in enumerate(log):
        result = apply(state, player, action)
        if not result.ok:
            raise ReplayError(index, result)
        state = result.state
    return state
