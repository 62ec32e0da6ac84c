"""Moving from one noble to the next, and from phase 1 to the round end."""

from __future__ import annotations

from . import auction, round_end
from .components import NOBLES
from .state import GameState


def after_noble(state: GameState, events: list) -> None:
    state.privilege = None
    if state.noble is not None and state.noble < len(NOBLES) - 1:
        auction.start_auction(state, state.noble + 1, events)
    else:
        round_end.begin(state, events)
