"""The engine's entry points: new_game, to_act, legal_actions, apply."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from . import auction, flow, privileges, purchase, rng, setup, shortage
from . import events as ev
from .actions import (
    ActionModel,
    BadAction,
    Buy,
    BuyChoice,
    Discard,
    LegalOption,
    ReturnCard,
    Reveal,
    RevealChoice,
    TakeCard,
    allows,
    parse_action,
)
from .components import JOKER
from .edition import Edition
from .editions import default
from .events import Event
from .outcomes import Outcome
from .refusals import Illegal, Refused
from .state import RULES_PLAYED, RULES_VERSION, GameState, clone, seat_of


@dataclass(frozen=True)
class Applied:
    state: GameState
    events: list[Event] = field(default_factory=list)
    ok: ClassVar[Literal[True]] = True  # (Refused.ok is False: `if result.ok` tells them apart)


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
    events: list[Event] = [ev.GameStarted(players=list(player_ids), start_player=player_ids[start],
                                          rounds=state.rounds)]
    flow.start_game(state, events)
    return state, events


def to_act(state: GameState) -> list[str]:
    """Who must act now, in seating order (several at once for secret choices)."""
    return [state.players[s].id for s in _seats_to_act(state)]


def _seats_to_act(state: GameState) -> list[int]:
    phase = _PHASES.get(state.phase)
    return phase.to_act(state) if phase is not None else []


# A verb's handler: (state, seat, action, events) -> the phase's outcome, None while it goes on. (Any: each takes
# its own verb's action model, which `apply` picks it by.)
Handler = Callable[[GameState, int, Any, list[Event]], Outcome | None]


@dataclass(frozen=True)
class _Phase:
    """Who acts in a phase, what they may do, and the handler of each verb."""

    to_act: Callable[[GameState], list[int]]
    legal: Callable[[GameState, int], list[LegalOption]]
    handlers: dict[str, Handler]


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


def only_action(state: GameState, player: str) -> ActionModel | None:
    """The one thing `player` can do now, when there is exactly one (None: a real choice, or nothing to do).

    A lay-down is one choice when the valid cards allow a single set (as many as asked for, or the jokers
    needed beside every certificate); a purchase, when no offered card is affordable; a privilege card to
    take, when the cards on display all carry the same privileges (the edition may print a card twice:
    which of them is taken changes nothing but its number; the first on display is). A card to discard or
    to put under the deck is never counted as one: doing it unasked would tell the others that the hand
    holds one kind of card only.
    """
    options = legal_actions(state, player)
    if _cards_alike(state, options):
        options = options[:1]
    if len(options) != 1 or isinstance(options[0], (Discard, ReturnCard)):
        return None
    only = options[0]
    if isinstance(only, RevealChoice):
        if not _one_lay_down(only):
            return None
        certificates = [c for c in only.cards if c != JOKER]
        return Reveal(cards=certificates + [JOKER] * (only.count - len(certificates)))
    if isinstance(only, BuyChoice):
        return Buy(cards=[]) if all(price > only.budget for price in only.prices) else None
    return only


def _cards_alike(state: GameState, options: list[LegalOption]) -> bool:
    """Whether `options` are privilege cards to take that all carry the same privileges."""
    cards = state.edition.privilege_cards
    return len(options) > 1 and all(isinstance(o, TakeCard) for o in options) \
        and len({cards[o.card] for o in options if isinstance(o, TakeCard)}) == 1


def _one_lay_down(choice: RevealChoice) -> bool:
    """Certificates are unique and only jokers repeat, so the sets differ only in how many jokers they
    take (k, leaving count - k certificates, at least one) and which certificates: one set in all when
    a single k is possible and it takes every certificate."""
    certificates = sum(c != JOKER for c in choice.cards)
    jokers = len(choice.cards) - certificates
    ks = [k for k in range(min(jokers, choice.count - 1) + 1) if 1 <= choice.count - k <= certificates]
    return len(ks) == 1 and choice.count - ks[0] == certificates


def is_legal(state: GameState, player: str, action: ActionModel) -> bool:
    return any(allows(option, action) for option in legal_actions(state, player))


def apply(state: GameState, player: str, action: ActionModel | dict[str, Any], *,
          in_place: bool = False) -> Applied | Refused:
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
    robbed = False
    if state.phase == "privilege":
        assert state.privilege is not None
        robbed = state.privilege.robbed is not None
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


def replay_plain(player_ids: list[str], seed: int, start_player: str | None,
                 log: Iterable[tuple[str, ActionModel | dict[str, Any]]], edition: Edition | None = None,
                 rules: int = RULES_VERSION) -> GameState:
    """Rebuild a game from its creation arguments (its edition and rules version too) and a (player, action) log
    with no decision taken back in it (engine.replay, in undo.py, reads any log)."""
    state, _ = new_game(player_ids, seed, start_player, edition, rules)
    for index, (player, action) in enumerate(log):
        result = apply(state, player, action)
        if not result.ok:
            raise ReplayError(index, result)
        state = result.state
    return state
