"""The all-seeing report that scenario checks read (SCENARIOS.md, "The report").

This is a test instrument: it shows every hand. Players only ever get views.py.
"""

from __future__ import annotations

from .game import to_act
from .state import GameState
from .views import _noble


def report(state: GameState) -> dict[str, object]:
    """The report as JSON-like data: dicts, lists, strings, numbers and None."""
    phase = state.phase
    high: dict[str, object] | None = None
    if phase == "auction":
        a = state.auction
        assert a is not None
        if a.high:
            assert a.high_seat is not None  # a high bid was made by someone
            high = {"player": state.players[a.high_seat].id, "count": a.high}
    elif phase == "showdown":
        sd = state.showdown
        assert sd is not None
        high = {"player": state.players[sd.high_seat].id, "count": sd.count}
    return {
        "round": state.round,
        "phase": phase,
        "noble": _noble(state),
        "lead": state.players[state.lead].id,
        "to_act": to_act(state),
        "high_bid": high,
        "deck_size": len(state.deck),
        "deck_top_price": state.edition.card_price[state.deck[0]] if state.deck else None,
        "discard_top": state.discard[-1] if state.discard else None,
        "privilege_display": list(state.privilege_display),
        "players": {
            p.id: {
                "money": p.money,
                "score": p.score,
                "hand": list(p.hand),
                "hand_size": len(p.hand),
                "levels": dict(p.levels),
                "tiles": p.tiles.model_dump(),
                "offered": list(p.offered),
            }
            for p in state.players
        },
        "step_supply": {k: sorted(v) for k, v in state.step_supply.items()},
        "tile_stacks": {k: list(v) for k, v in state.tile_stacks.items()},
        "winners": list(state.winners) if state.winners is not None else None,
    }
