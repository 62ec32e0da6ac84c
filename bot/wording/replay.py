"""`augsburg replay FILE`: the sentences of playing an exported game back in the terminal (plain text)."""

from __future__ import annotations

from engine.state import GameState

from . import names
from .terminal import columns
from .terminal import public_board as public_board  # replay's board
from .words import People, Words


def title(w: Words, game: int, players: list[str]) -> str:
    return w._("=== Replay of game {game}: {players} ===", game=game, players=w.both(players))


def public_only(w: Words) -> str:
    return w._("This file holds the public record of a game that had not finished: its log, and its table as "
               "everyone saw it last.")


def no_reveal(w: Words) -> str:
    return w._("Hands are shown only for a finished game.")


def how_to_step(w: Words) -> str:
    return w._("Press Enter for the next move, or q and Enter to stop.")


def move_heading(w: Words, number: int, name: str) -> str:
    return w._("--- Move {move}: {name} ---", move=number, name=name)


def deal_heading(w: Words) -> str:
    return w._("--- The deal ---")


def hands(w: Words, state: GameState, people: People) -> str:
    """Every player's money and hand (--reveal, a finished game only)."""
    rows = [(people.name(p.id), w.money(p.money), names.cards(w, names.in_hand_order(p.hand, state.edition)))
            for p in state.players]
    return "\n".join([w._("Hands:"), *columns(rows)])


def same_end(w: Words, same: bool) -> str:
    if same:
        return w._("The replay ends with the game's stored final state.")
    return w._("The replay does NOT end with the game's stored final state.")


def no_such_file(w: Words, path: str) -> str:
    return w._("No such file: {path}", path=path)


def cannot_read(w: Words, path: str, why: str) -> str:
    return w._("Cannot read {path}: {why}", path=path, why=why)


def unreadable(w: Words, why: str) -> str:
    return w._("This is not a game file of augsburg-bot: {why}", why=why)


def stopped(w: Words) -> str:
    return w._("Replay stopped.")
