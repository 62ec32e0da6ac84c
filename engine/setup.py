"""Setting up a game (R1-R8): the state before the first action, and the initial deal.

position.py builds scenario positions with the same pieces.
"""

from __future__ import annotations

from . import events as ev
from . import rng
from .components import CATEGORIES, JOKER
from .edition import Edition
from .events import Event
from .state import GameState, Player, Tiles, clockwise_from


def fresh_player(pid: str, hand: tuple[str, ...], ed: Edition) -> Player:
    return Player(id=pid, money=ed.start_money, score=0, hand=hand, levels={c: 1 for c in CATEGORIES}, tiles=Tiles())


def fresh_state(player_ids: list[str], seed: int, start: int, state_rng: int, ed: Edition, rules: int) -> GameState:
    """R2-R7: money, jokers, shuffled deck, supplies and privilege cards; nothing dealt yet."""
    n = len(player_ids)
    deck = list(ed.all_cards)
    for _ in range(ed.start_jokers * n):
        deck.remove(JOKER)
    state_rng = rng.shuffle(state_rng, deck)
    cards = sorted(ed.privilege_cards, key=int)
    state_rng = rng.shuffle(state_rng, cards)
    display = ed.privilege_display_size
    return GameState(
        edition=ed,
        rules=rules,
        seed=seed,
        rng=state_rng,
        players=[fresh_player(pid, (JOKER,) * ed.start_jokers, ed) for pid in player_ids],
        rounds=ed.rounds_for(n),
        round=1,
        phase="initial_purchase",
        lead=start,
        deck=tuple(deck),
        discard=(),
        step_supply={c: tuple(ed.step_tiles(n)) for c in CATEGORIES},
        tile_stacks=dict(ed.tile_stacks),
        privilege_display=tuple(cards[:display]),
        privilege_waiting=tuple(cards[display:]),
    )


def deal_initial(state: GameState, events: list[Event]) -> None:
    """R4: seven cards each, one at a time from the start player clockwise."""
    order = clockwise_from(state, state.lead)
    offered: dict[int, list[str]] = {seat: list(state.players[seat].offered) for seat in order}
    for _ in range(state.edition.initial_deal):
        for seat in order:
            if state.deck:
                card, state.deck = state.deck[0], state.deck[1:]
                offered[seat].append(card)
    for seat in order:  # replaced: a clone shares the offered cards (state.clone)
        state.players[seat].offered = tuple(offered[seat])
    for seat in order:
        p = state.players[seat]
        events.append(ev.OfferedCards(to=p.id, cards=list(p.offered)))
