"""Autocomplete and panels within Discord's limits for any hand (issue 12, point 10).

Discord refuses a whole autocomplete answer if one choice's name is not 1-100 characters, a value is
longer than 100 or there are more than 25 choices; a component's custom_id is at most 100 characters and
a menu offers at most 25 options. A player can hold nearly the whole deck, and in Maximilian's showdown
every card counts, so lay-downs can run to dozens of cards.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support.bot_support import ADA, BEN, game, open_and_start, service

from bot.discord_app import choices
from bot.service import codes
from bot.wording import ENGLISH, People
from engine import apply, legal_actions, new_game, player_view, to_act
from engine.actions import Reveal
from engine.components import JOKER
from engine.editions import default
from engine.randomplay import concrete
from engine.state import GameState, Showdown

ALL_CARDS, NOBLES, is_valid_for = default().all_cards, default().nobles, default().is_valid_for  # the shipped edition's

PEOPLE = People(name=str)
CHOOSERS = [choices.bids, choices.privilege_cards, choices.buildings, choices.uses, choices.discards,
            choices.returns, choices.reveals, choices.purchases]
CUSTOM_ID_ROOM = 100 - len("aug:do:999999999:show99.9:")  # what a confirm button's code may take


def in_showdown(state: GameState, hand: list[str], noble: int, count: int) -> GameState:
    """Ada alone lays down `count` cards of `hand` for `noble` (the rest of the state as dealt)."""
    state = state.model_copy(deep=True)
    state.noble, state.phase, state.auction, state.purchase = noble, "showdown", None, None
    state.players[0].hand = tuple(hand)
    state.showdown = Showdown(count=count, seats=[0], high_seat=0)
    return state


def assert_within_limits(pairs: list) -> list[tuple[str, object]]:
    offered = choices.filtered(pairs, "")
    assert len(offered) <= 25
    for name, value in offered:
        assert 1 <= len(name) <= 100, name
        assert len(str(value)) <= 100, value
    return offered


@st.composite
def big_showdowns(draw):
    """Any hand a player could hold (a sub-multiset of the deck, up to all 80 cards) in any showdown."""
    hand = draw(st.permutations(ALL_CARDS))[: draw(st.integers(min_value=1, max_value=len(ALL_CARDS)))]
    noble = draw(st.sampled_from(range(len(NOBLES))))
    valid = [c for c in hand if is_valid_for(c, NOBLES[noble])]
    assume(any(c != JOKER for c in valid))  # else the player could not have bid
    count = draw(st.integers(min_value=1, max_value=len(valid)))
    state, _ = new_game(["ada", "ben"], seed=draw(st.integers(0, 1000)))
    return in_showdown(state, hand, noble, count)


@settings(max_examples=300, deadline=None)
@given(state=big_showdowns())
def test_reveal_suggestions_fit_discord_and_lay_down_what_they_name(state):
    options = legal_actions(state, "ada")
    view = player_view(state, "ada")
    for name, value in assert_within_limits(choices.reveals(ENGLISH, options, view, PEOPLE)):
        action = codes.decode(value)(state, "ada")
        assert isinstance(action, Reveal) and len(action.cards) == state.showdown.count
        assert apply(state, "ada", action).ok, (name, value)


@settings(max_examples=300, deadline=None)
@given(positions=st.sets(st.integers(min_value=0, max_value=len(ALL_CARDS) - 1)), kind=st.sampled_from(["rev", "buy"]))
def test_position_codes_are_short_and_read_back_the_same(positions, kind):
    code = codes.encode_positions(kind, sorted(positions))
    assert len(code) <= CUSTOM_ID_ROOM, code
    state, _ = new_game(["ada", "ben"], seed=1)
    state.players[0].hand = state.players[0].offered = tuple(ALL_CARDS)  # every position exists
    action = codes.decode(code)(state, "ada")
    assert Counter(action.cards) == Counter(ALL_CARDS[i] for i in positions)


def test_every_chooser_fits_discord_in_real_games():
    for seed in range(30):
        rnd = random.Random(seed)
        state, _ = new_game(["ada", "ben", "cleo", "dan", "eve"][: 2 + seed % 4], seed=seed)
        while state.phase != "game_over":
            player = rnd.choice(to_act(state))
            options = legal_actions(state, player)
            view = player_view(state, player)
            for chooser in CHOOSERS:
                assert_within_limits(chooser(ENGLISH, options, view, PEOPLE))
            state = apply(state, player, concrete(rnd.choice(options), rnd)).state


async def test_a_lay_down_of_most_of_the_deck_through_discord(harness):
    """Maximilian's showdown with nearly the whole deck in hand: autocomplete, the panel and the typed
    command all stay within Discord's limits (the fake refuses anything beyond them)."""
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    record = game(h)
    state = record.state.model_copy(deep=True)
    ada = next(p for p in state.players if p.id == str(ADA))
    ada.hand, state.deck = ada.hand + state.deck, ()  # every card stays in the game
    count = len(ada.hand) - 3
    seat = state.players.index(ada)
    state.noble, state.phase, state.auction, state.purchase = 4, "showdown", None, None
    state.showdown = Showdown(count=count, seats=[seat], high_seat=seat)
    service(h).core._games.put(dataclasses.replace(record, state=state))
    assert count > 25
    offered = await h.autocomplete(ADA, "augsburg reveal", "cards", "")
    assert offered and h.problems == []
    panel = await h.slash(ADA, "augsburg hand")
    assert panel.answer.ephemeral and "Your money" in panel.answer.content and h.problems == []
    laid = await h.slash(ADA, "augsburg reveal", cards=offered[-1]["value"])
    assert "✅" in laid.answer.content and game(h).state.phase != "showdown"
    h.assert_all_answered()
    h.assert_no_errors()
