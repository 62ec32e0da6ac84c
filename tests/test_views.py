"""R28: no view for one player contains another player's hand, money, offered cards or secret choice."""

from __future__ import annotations

import random

from engine import apply, legal_actions, new_game, player_view, spectator_view, to_act
from engine.editions import default
from engine.randomplay import concrete
from engine.state import GameState, clone

ALL_CARDS = default().all_cards  # the shipped edition's


def scramble_hidden(state: GameState, keep: str | None, rnd: random.Random) -> GameState:
    """Change everything `keep` may not know: others' hands, money, offers, secret choices, the deck below its top."""
    other = clone(state)
    others = [p for p in other.players if p.id != keep]
    pool = [c for p in others for c in (*p.hand, *p.offered)] + list(other.deck[1:])
    rnd.shuffle(pool)
    below_top, pool = pool[: max(0, len(other.deck) - 1)], pool[max(0, len(other.deck) - 1):]
    other.deck = (*other.deck[:1], *below_top)  # whether the deck is empty, and its top price, are public
    for p in others:
        p.money = rnd.randint(0, 9999)
        p.offered, pool = tuple(pool[: len(p.offered)]), pool[len(p.offered):]
    for i, p in enumerate(others):
        cut = len(pool) if i == len(others) - 1 else rnd.randint(0, len(pool))
        p.hand, pool = tuple(pool[:cut]), pool[cut:]
    ids = {p.id: i for i, p in enumerate(other.players)}
    if other.showdown is not None:
        for seat in other.showdown.reveals:
            if seat != ids.get(keep):
                other.showdown.reveals[seat] = rnd.sample(ALL_CARDS, len(other.showdown.reveals[seat]))
    if other.purchase is not None:
        for seat in other.purchase.choices:
            if seat != ids.get(keep):
                other.purchase.choices[seat] = rnd.sample(ALL_CARDS, 2)
    return other


def test_views_do_not_depend_on_what_the_viewer_may_not_see():
    """Non-interference: scrambling every hidden thing of the others leaves a player's view identical."""
    for seed in range(12):
        rnd = random.Random(seed)
        ids = ["ada", "ben", "cleo", "dan"][: 2 + seed % 3]
        state, _ = new_game(ids, seed=seed)
        while state.phase != "game_over":
            for viewer in [*ids, None]:
                view = player_view(state, viewer) if viewer else spectator_view(state)
                other = scramble_hidden(state, viewer, rnd)
                again = player_view(other, viewer) if viewer else spectator_view(other)
                assert view == again, f"{viewer or 'spectator'} can see hidden information in {state.phase}"
            player = rnd.choice(to_act(state))
            state = apply(state, player, concrete(rnd.choice(legal_actions(state, player)), rnd)).state


def test_own_private_things_are_in_the_players_view():
    state, _ = new_game(["ada", "ben"], seed=1)
    view = player_view(state, "ada")
    ada = state.players[0]
    assert view.you.money == 1500 and view.you.hand == ["joker", "joker"]
    assert view.you.offered == list(ada.offered) and len(view.you.offered) == 7
    assert view.you.legal_actions[0].kind == "buy_choice"
    assert view.model_dump()["you"]["legal_actions"][0]["kind"] == "buy_choice"
    assert spectator_view(state).you is None
    dumped = spectator_view(state).model_dump_json()
    assert "money" not in dumped and "hand" not in dumped and "offered" not in dumped


def test_secret_choice_is_visible_to_its_owner_only():
    state, _ = new_game(["ada", "ben"], seed=1)
    ada_cards = state.players[0].offered[:1]
    state = apply(state, "ada", {"do": "buy", "cards": ada_cards}).state
    assert player_view(state, "ada").you.chosen == list(ada_cards)
    assert player_view(state, "ben").you.chosen is None
    assert "ada" not in player_view(state, "ben").to_act
