"""Setting up a game (R1-R8): the state before the first action, and the initial deal.

position.py builds scenario positions with the same pieces.
"""

from __future__ import annotations

from . import events as ev
from . import rng
from .components import (
    ALL_CARDS,
    CATEGORIES,
    INITIAL_DEAL,
    JOKER,
    PRIVILEGE_CARDS,
    PRIVILEGE_DISPLAY_SIZE,
    START_JOKERS,
    START_MONEY,
    TILE_STACKS,
    rounds_for,
    step_tiles,
)
from .state import GameState, Player, Tiles, clockwise_from


def fresh_player(pid: str, hand: list[str]) -> Player:
    return Player(id=pid, money=START_MONEY, score=0, hand=hand, levels={c: 1 for c in CATEGORIES}, tiles=Tiles())


def fresh_state(player_ids: list[str], seed: int, start: int, state_rng: int) -> GameState:
    """R2-R7: money, jokers, shuffled deck, supplies and privilege cards; nothing dealt yet."""
    n = len(player_ids)
    deck = list(ALL_CARDS)
    for _ in range(START_JOKERS * n):
        deck.remove(JOKER)
    state_rng = rng.shuffle(state_rng, deck)
    cards = sorted(PRIVILEGE_CARDS, key=int)
    state_rng = rng.shuffle(state_rng, cards)
    return GameState(
        seed=seed,
        rng=state_rng,
        players=[fresh_player(pid, hand=[JOKER] * START_JOKERS) for pid in player_ids],
        rounds=rounds_for(n),
        round=1,
        phase="initial_purchase",
        lead=start,
        deck=deck,
        discard=[],
        step_supply={c: step_tiles(n) for c in CATEGORIES},
        tile_stacks={k: list(v) for k, v in TILE_STACKS.items()},
        privilege_display=cards[:PRIVILEGE_DISPLAY_SIZE],
        privilege_waiting=cards[PRIVILEGE_DISPLAY_SIZE:],
    )


def deal_initial(state: GameState, events: list) -> None:
    """R4: seven cards each, one at a time from the start player clockwise."""
    order = clockwise_from(state, state.lead)
    for _ in range(INITIAL_DEAL):
        for seat in order:
            card = state.deck.pop(0) if state.deck else None
            if card is not None:
                state.players[seat].offered.append(card)
    for seat in order:
        p = state.players[seat]
        events.append(ev.OfferedCards(to=p.id, cards=p.offered[:]))
