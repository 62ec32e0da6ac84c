"""State-changing helpers shared by the phase modules: scoring, money, drawing cards."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from . import events as ev
from . import rng
from .events import Event
from .rules import capped_score, prestige_limit
from .state import GameState

# Why guilders or prestige were gained: the reasons of GuildersGained and PrestigeGained.
GuildersReason = Literal["trade", "privilege", "compensation"]
PrestigeReason = Literal["privilege", "round_end", "declined", "compensation"]


def gain_prestige(state: GameState, seat: int, amount: int, reason: PrestigeReason, events: list[Event]) -> int:
    """Add prestige up to the player's limit; what would pass it is lost (R21)."""
    p = state.players[seat]
    new = capped_score(p.score, amount, prestige_limit(p.tiles, state.edition))
    gained = new - p.score
    p.score = new
    events.append(ev.PrestigeGained(player=p.id, amount=gained, requested=amount, reason=reason))
    return gained


def gain_money(state: GameState, seat: int, amount: int, reason: GuildersReason, events: list[Event]) -> None:
    p = state.players[seat]
    p.money += amount
    events.append(ev.GuildersGained(player=p.id, amount=amount, reason=reason))


def draw(state: GameState, events: list[Event]) -> str | None:
    """Top card of the deck; an empty deck is refilled from the discard pile only now (R24)."""
    if not state.deck:
        if not state.discard:
            return None
        deck = list(state.discard)
        state.rng = rng.shuffle(state.rng, deck)
        state.deck, state.discard = tuple(deck), ()
        events.append(ev.DeckReshuffled())
    card, state.deck = state.deck[0], state.deck[1:]
    return card


def without(cards: tuple[str, ...], gone: Iterable[str]) -> tuple[str, ...]:
    """`cards` less one of each of `gone`, all of which it holds (a hand is replaced, never changed in place)."""
    left = list(cards)
    for c in gone:
        left.remove(c)
    return tuple(left)


def ids(state: GameState, seats: Iterable[int]) -> list[str]:
    return [state.players[s].id for s in seats]
