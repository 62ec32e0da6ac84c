"""Augsburg 1520 rules engine: pure Python + pydantic, no I/O.

    state, events = new_game(["ada", "ben", "cleo"], seed=7)
    to_act(state)                      # who must act now
    legal_actions(state, "ada")        # what they may do: LegalOption models
    result = apply(state, "ada", Buy(cards=[]))
    if result.ok: state = result.state # else result.code and result.params say why (engine/refusals.py)
"""

from .actions import (
    Bid,
    Build,
    Buy,
    BuyChoice,
    Call,
    Compensate,
    Discard,
    Done,
    LegalOption,
    Pass,
    ReturnCard,
    Reveal,
    RevealChoice,
    TakeBack,
    TakeCard,
    Use,
    parse_action,
)
from .events import EVENTS, Event
from .game import (
    Applied,
    GameSetupError,
    ReplayError,
    apply,
    is_legal,
    legal_actions,
    new_game,
    only_action,
    to_act,
)
from .refusals import Refused
from .state import GameState
from .undo import replay
from .views import View, player_view, spectator_view

__all__ = [
    "EVENTS", "Applied", "Bid", "Build", "Buy", "BuyChoice", "Call", "Compensate", "Discard", "Done", "Event",
    "GameSetupError", "GameState", "LegalOption", "Pass", "Refused", "ReplayError", "ReturnCard", "Reveal",
    "RevealChoice", "TakeBack", "TakeCard", "Use", "View", "apply", "is_legal", "legal_actions", "new_game",
    "only_action", "parse_action", "player_view", "replay", "spectator_view", "to_act",
]
