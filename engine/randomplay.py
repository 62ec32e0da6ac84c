"""Uniformly random legal play: for property tests, benchmarks and as the weakest opponent."""

from __future__ import annotations

import random

from .actions import ActionModel, Buy, BuyChoice, LegalOption, Reveal, RevealChoice
from .game import apply, legal_actions, new_game, to_act
from .state import GameState


def concrete(option: LegalOption, rnd: random.Random) -> ActionModel:
    """Turn one legal_actions entry into an action (choices are sampled)."""
    if isinstance(option, RevealChoice):
        certs = [i for i, c in enumerate(option.cards) if c != "joker"]
        first = rnd.choice(certs)
        others = [i for i in range(len(option.cards)) if i != first]
        picked = [first] + rnd.sample(others, option.count - 1)
        return Reveal(cards=[option.cards[i] for i in picked])
    if isinstance(option, BuyChoice):
        order = list(range(len(option.offered)))
        rnd.shuffle(order)
        cards: list[str] = []
        total = 0
        for i in order:
            if rnd.random() < 0.5 and total + option.prices[i] <= option.budget:
                cards.append(option.offered[i])
                total += option.prices[i]
        return Buy(cards=cards)
    return option


def random_action(state: GameState, rnd: random.Random) -> tuple[str, ActionModel]:
    player = rnd.choice(to_act(state))
    return player, concrete(rnd.choice(legal_actions(state, player)), rnd)


def random_game(players: int, seed: int) -> tuple[GameState, list[tuple[str, ActionModel]]]:
    """Play one complete random game; returns the final state and the action log."""
    rnd = random.Random(seed)
    state, _ = new_game([f"p{i + 1}" for i in range(players)], seed=seed)
    log: list[tuple[str, ActionModel]] = []
    while state.phase != "game_over":
        player, action = random_action(state, rnd)
        result = apply(state, player, action)
        if not result.ok:
            raise AssertionError(f"legal action refused: {player} {action}: {result.code} {result.params}")
        log.append((player, action))
        state = result.state
    return state, log
