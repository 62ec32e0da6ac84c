"""The parts of a view that its phase guarantees (engine/views.py): a view has its running auction in the
auction phase, its showdown in the showdown, its privilege card in the privilege phase, a noble in those
three, winners once the game is over, and `you` when it is a player's own. The words of a phase read them
through these, which say so instead of assuming it."""

from __future__ import annotations

from engine import View
from engine.views import AuctionView, PrivateView, PrivilegeView, ShowdownView


def auction(view: View) -> AuctionView:
    assert view.auction is not None, f"no auction in phase {view.phase}"
    return view.auction


def showdown(view: View) -> ShowdownView:
    assert view.showdown is not None, f"no showdown in phase {view.phase}"
    return view.showdown


def privilege(view: View) -> PrivilegeView:
    assert view.privilege is not None, f"no privilege card in phase {view.phase}"
    return view.privilege


def noble(view: View) -> str:
    """The noble of the running auction, showdown or privilege card."""
    assert view.noble is not None, f"no noble in phase {view.phase}"
    return view.noble


def winners(view: View) -> list[str]:
    assert view.winners is not None, f"no winners in phase {view.phase}"
    return view.winners


def you(view: View) -> PrivateView:
    """The private part of a player's own view (a spectator's has none)."""
    assert view.you is not None, "not a player's own view"
    return view.you
