"""Taking a decision back: the public line, the Undo button, the player's confirmation and the refusals.

The public line names the kind of decision only, never what a secret choice held (R28)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .words import People, Words


def taken_back(w: Words, decision: str, who: str) -> str:
    """The public log's line for a TakenBack event."""
    lines = {
        "bid": lambda: w._("{who} took back their bid.", who=who),
        "call": lambda: w._("{who} took back their call.", who=who),
        "pass": lambda: w._("{who} took back their pass.", who=who),
        "reveal": lambda: w._("{who} took back their choice of cards to lay down.", who=who),
        "buy": lambda: w._("{who} took back their purchase choice.", who=who),
        "take_card": lambda: w._("{who} took back the privilege card they took; it is on display again.", who=who),
        "use": lambda: w._("{who} took back the use of a privilege.", who=who),
        "build": lambda: w._("{who} took back their extra building.", who=who),
        "discard": lambda: w._("{who} took back their discard; the card goes back to their hand.", who=who),
        "done": lambda: w._("{who} took back finishing their privilege card.", who=who),
        "compensate": lambda: w._("{who} took back their choice of compensation.", who=who),
        "return_card": lambda: w._("{who} took back the card they returned under the deck.", who=who),
    }
    line = lines.get(decision)
    return line() if line is not None else w._("{who} took back their last decision.", who=who)


def button(w: Words) -> str:
    return w._("Undo")


def done(w: Words) -> str:
    """The player's own confirmation, above their panel."""
    return w._("You took back your last decision: it is as if you had not made it. Decide again below.")


def refusals(w: Words, p: dict[str, Any], people: People) -> dict[str, Callable[[], str]]:
    """The refusal codes of taking back (engine/refusals.py, service/undo.py); `p`: the refusal's parameters
    (their types vary by code, as engine/refusals.py's are Any)."""
    return {
        "nothing_to_undo": lambda: w._("You have no decision of your own to take back in this game."),
        "undo_stale": lambda: w._("That Undo is out of date: the decision it was for is no longer your last one "
                                  "(or was taken back already). Nothing was changed."),
        "undo_made_for_you": lambda: w._("Your last move was made for you (your time had run out): only your own "
                                         "decisions can be taken back. Nothing was changed."),
        "undo_other_acted": lambda: w._("{player} has acted since, so your last decision stands. Nothing was "
                                        "changed.", player=people.name(p["player"])),
        "undo_final": lambda: _final(w, p["reason"]),
        "undo_unavailable": lambda: w._("This game's log cannot be read back just now, so nothing can be taken "
                                        "back; the game goes on."),
    }


def _final(w: Words, reason: str) -> str:
    reasons = {
        "revealed": lambda: w._("Your last decision can no longer be taken back: the cards laid down have been "
                                "shown."),
        "purchase_resolved": lambda: w._("Your last decision can no longer be taken back: everybody has chosen "
                                         "and the purchases have been made."),
        "drew": lambda: w._("Your last decision can no longer be taken back: cards have been drawn from the "
                            "deck."),
        "dealt": lambda: w._("Your last decision can no longer be taken back: new cards have been dealt."),
        "shuffled": lambda: w._("Your last decision can no longer be taken back: the deck has been shuffled."),
        "new_round": lambda: w._("Your last decision can no longer be taken back: a new round has begun."),
        "game_over": lambda: w._("Your last decision can no longer be taken back: the game is over."),
    }
    text = reasons.get(reason)
    return text() if text is not None else w._("Your last decision can no longer be taken back.")
