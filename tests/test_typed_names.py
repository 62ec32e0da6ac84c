"""Typed commands through the bot take what a person types (issue 13): privilege cards by name or number,
privileges by kind and how, cards by name in any case; ambiguous or unknown ones change nothing."""

from __future__ import annotations

import dataclasses

import pytest
from support.bot_support import ADA, BEN, ada_at_privilege, game, open_and_start, service

DISPLAY = ["1", "2", "4", "7", "9"]


def ada_player(h):
    return next(p for p in game(h).state.players if p.id == str(ADA))


@pytest.mark.parametrize("typed", ["Card 4", "4", "card4", "trade nob off", "TRADE · NOBILITY · OFFICES", "t4"])
async def test_a_privilege_card_by_number_or_by_its_name(harness, typed):
    h = harness
    await ada_at_privilege(h)
    result = await h.slash(ADA, "augsburg privilege", card=typed)
    assert result.answer.ephemeral and "✅" in result.answer.content
    assert game(h).state.privilege.card == "4"
    h.assert_no_errors()


async def test_cards_that_give_the_same_show_once_and_either_is_taken_by_their_name(harness):
    h = harness
    await ada_at_privilege(h, display=["2", "4", "10", "7", "9"])
    offered = await h.autocomplete(ADA, "augsburg privilege", "card", "")
    labels = [c["name"] for c in offered]
    assert len(labels) == len(set(labels)) == 4 and not any("Card" in n for n in labels)
    assert "+500 guilders · +7 prestige · draw 2, discard 1" in labels
    result = await h.slash(ADA, "augsburg privilege", card="500 7 draw")
    assert "✅" in result.answer.content and game(h).state.privilege.card in ("9", "10")


async def test_a_privilege_card_not_on_display_is_refused_with_those_that_are(harness):
    h = harness
    await ada_at_privilege(h)
    moves = game(h).state.moves
    result = await h.slash(ADA, "augsburg privilege", card="Card 3")
    assert result.answer.ephemeral and "⚠️" in result.answer.content
    assert "Trade · Nobility · Offices" in result.answer.content
    assert game(h).state.moves == moves and game(h).state.privilege.card is None


async def test_an_ambiguous_use_lists_the_candidates_and_changes_nothing(harness):
    h = harness
    await ada_at_privilege(h, card="7")  # Trade, Nobility, draw 2
    moves = game(h).state.moves
    result = await h.slash(ADA, "augsburg use", privilege="climb")
    assert result.answer.ephemeral
    assert "Which one do you mean: Trade: climb a step, Nobility: climb a step?" in result.answer.content
    assert game(h).state.moves == moves and game(h).state.privilege.used == []


async def test_a_use_by_kind_and_how_climbs_that_step(harness):
    h = harness
    await ada_at_privilege(h, card="7")
    before = ada_player(h).levels["nobility"]
    result = await h.slash(ADA, "augsburg use", privilege="nobility step")
    assert "✅" in result.answer.content
    assert ada_player(h).levels["nobility"] == before + 1 and game(h).state.privilege.used == [1]


async def test_a_nonsense_use_says_what_is_possible_and_changes_nothing(harness):
    h = harness
    await ada_at_privilege(h, card="7")
    moves = game(h).state.moves
    result = await h.slash(ADA, "augsburg use", privilege="fly to the moon")
    text = result.answer.content
    assert result.answer.ephemeral and "⚠️" in text and "not one of your choices now" in text
    assert "Trade: climb a step" in text and "draw 2, discard 1" in text
    assert game(h).state.moves == moves


async def test_discard_a_card_by_its_name_in_capitals(harness):
    h = harness
    await ada_at_privilege(h, card="7", used=[2], pending_discard=True, hand=["maria-1", "maria-15", "leo-15"])
    result = await h.slash(ADA, "augsburg discard", card="MARIA 15")
    assert "✅" in result.answer.content
    assert ada_player(h).hand == ("maria-1", "leo-15") and not game(h).state.privilege.pending_discard


async def test_buy_by_names_and_nothing_typed(harness):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    offered, hand = list(ada_player(h).offered), list(ada_player(h).hand)
    ben_money = next(p for p in game(h).state.players if p.id == str(BEN)).money
    cheapest = min(offered, key=lambda c: (c == "joker", c))
    typed = cheapest.replace("-", " ").upper()
    result = await h.slash(ADA, "augsburg buy", cards=typed)
    assert "✅" in result.answer.content
    nothing = await h.slash(BEN, "augsburg buy", cards="Nothing")
    assert "✅" in nothing.answer.content
    assert sorted(ada_player(h).hand) == sorted([*hand, cheapest])
    assert next(p for p in game(h).state.players if p.id == str(BEN)).money == ben_money
    h.assert_no_errors()


async def test_buy_suggestions_through_discord_are_distinct_varied_and_priced(harness):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    record = game(h)
    state = record.state.model_copy(deep=True)
    ada = next(p for p in state.players if p.id == str(ADA))
    ada.offered = ("leo-3", "leo-3", "maria-15", "louise-9", "philipp-12", "joker", "maria-2")
    ada.money = 5000
    service(h).core._games.put(dataclasses.replace(record, state=state))
    offered = await h.autocomplete(ADA, "augsburg buy", "cards", "")
    labels = [c["name"] for c in offered]
    assert 20 <= len(labels) <= 25 and labels[0] == "Buy nothing"
    sets = [tuple(sorted(n.split(" — ")[0].split(", "))) for n in labels[1:]]
    assert len(set(sets)) == len(sets)
    assert all(n.endswith(" guilders") for n in labels[1:])
    sizes = {len(s) for s in sets}
    assert 1 in sizes and 7 in sizes, labels
    leo = await h.autocomplete(ADA, "augsburg buy", "cards", "leo")
    assert leo and all("Leo" in c["name"] for c in leo)
    single = next(c for c in offered[1:] if ", " not in c["name"])
    bought = await h.slash(ADA, "augsburg buy", cards=single["value"])
    assert "✅" in bought.answer.content and single["name"].split(" — ")[0] in bought.answer.content
    h.assert_no_errors()
