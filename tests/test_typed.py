"""Typed commands read as a person types them (issue 13): bot/discord_app/typed.py on its own, and the privilege cards'
names and the buy suggestions it chooses among."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace as NS

import pytest

from bot.discord_app import choices, typed
from bot.service import Notice
from bot.wording import ENGLISH, People, names
from engine import legal_actions, new_game, player_view
from engine.actions import Buy, BuyChoice, Discard, Reveal, RevealChoice, TakeCard, Use
from engine.editions import default

ED = default()  # the shipped edition

CARD_PRICE, PRIVILEGE_CARDS = default().card_price, default().privilege_cards  # the shipped edition's

W = ENGLISH
PEOPLE = People(name=lambda p: p.capitalize())
CARDS = [(names.privilege_card(W, c, ED), c) for c in PRIVILEGE_CARDS]


@pytest.mark.parametrize(("text", "card"), [
    ("Trade · Nobility · Offices", "4"), ("trade nob off", "4"), ("TRADE, NOBILITY, OFFICES", "4"),
    ("trade trade", "1"), ("nob nob", "2"), ("trade 500", "1"), ("+500 +6", "8"), ("off draw", "3"),
])
def test_a_privilege_card_by_its_name_or_the_start_of_its_words(text, card):
    assert typed.choose(text, CARDS).value == card


def test_cards_that_give_the_same_are_one_choice_and_others_are_told_apart():
    assert names.privilege_card(W, "9", ED) == names.privilege_card(W, "10", ED)
    assert len({n for n, _ in CARDS}) == len(CARDS) - 1
    assert typed.choose("500 7 draw", CARDS).value in ("9", "10")
    assert len(typed.choose("500 7 draw", CARDS).labels) == 1
    ambiguous = typed.choose("trade", CARDS)
    assert ambiguous.value is None and len(ambiguous.labels) == 4  # cards 1, 4, 5 and 7


def test_a_number_matches_whole_numbers_only():
    pairs = [("Leo 1 (200 guilders)", "leo-1"), ("Leo 10 (300 guilders)", "leo-10")]
    assert typed.choose("leo 1", pairs).value == "leo-1"
    assert typed.choose("le 10", pairs).value == "leo-10"
    assert typed.choose("leo 1", pairs[1:]).labels == ()
    assert typed.choose("leo", pairs).labels == ("Leo 1 (200 guilders)", "Leo 10 (300 guilders)")


def test_amounts_read_with_or_without_separators_and_plus():
    pairs = [("take 1,150 guilders", "a"), ("+6 prestige", "b")]
    assert typed.choose("1150", pairs).value == "a"
    assert typed.choose("1,150", pairs).value == "a"
    assert typed.choose("+6", pairs).value == "b"
    assert typed.choose("6 pres", pairs).value == "b"


def test_the_value_an_alias_or_the_full_label_wins_over_the_start_of_words():
    pairs = [("Maria 1 (200 guilders)", "maria-1"), ("Maria 15 (400 guilders)", "maria-15")]
    assert typed.choose("maria-1", pairs).value == "maria-1"
    assert typed.choose("MARIA 15", pairs, [("Maria 15", "maria-15")]).value == "maria-15"
    assert typed.choose("maria15", pairs).value == "maria-15"


def test_nothing_typed_or_nonsense_matches_nothing():
    assert typed.choose("", CARDS) == typed.Found()
    assert typed.choose("  ,. ", CARDS) == typed.Found()
    assert typed.choose("fly to the moon", CARDS).labels == ()


# --- read: a typed command into its action, or a notice that changes nothing

def use_view(card: str) -> NS:
    return NS(edition=ED, privilege=NS(card=card, used=[]))


def test_use_reads_the_kind_and_how_and_asks_when_two_fit():
    options = [Use(slot=0, **{"as": "step"}), Use(slot=1, **{"as": "step"}), Use(slot=2)]
    read = lambda text: typed.read(W, "use", text, options, use_view("7"), PEOPLE)  # noqa: E731
    assert read("nobility step") == Use(slot=1, **{"as": "step"})
    assert read("draw") == Use(slot=2)
    assert read("u0.step.") == Use(slot=0, **{"as": "step"})  # what autocomplete sends
    assert read("3") == Use(slot=2)  # the privilege's number on the card
    assert read("climb") == Notice("typed_ambiguous", {"candidates": ["Trade: climb a step",
                                                                      "Nobility: climb a step"]})
    unknown = read("fly")
    assert unknown.code == "typed_unknown" and "draw 2, discard 1" in unknown.params["choices"]


def test_two_privileges_alike_on_one_card_are_one_choice():
    options = [Use(slot=0, **{"as": "minter"}), Use(slot=1, **{"as": "minter"})]
    assert typed.read(W, "use", "minter", options, use_view("3"), PEOPLE) == options[0]


def test_privilege_card_by_number_or_card_number_and_twins_stand_in_for_each_other():
    options = [TakeCard(card=c) for c in ("2", "4", "9")]
    read = lambda text: typed.read(W, "privilege", text, options, NS(edition=ED), PEOPLE)  # noqa: E731
    assert read("4") == read("Card 4") == read("card4") == read("trade nob") == TakeCard(card="4")
    assert read("10") == TakeCard(card="9")
    assert read("Card 1").code == "typed_unknown"
    assert read("card 1").params["choices"] == [names.privilege_card(W, c, ED) for c in ("2", "4", "9")]


def test_a_command_for_another_moment_is_left_for_the_engine_to_refuse():
    assert typed.read(W, "privilege", "4", [], NS(edition=ED), PEOPLE) == TakeCard(card="4")
    assert typed.read(W, "discard", "Maria 15", [], NS(edition=ED), PEOPLE) == Discard(card="maria-15")
    assert typed.read(W, "buy", "Maria 15", [], NS(edition=ED), PEOPLE) == Buy(cards=[])


def buying(offered: list[str], budget: int = 5000) -> list:
    return [BuyChoice(offered=offered, prices=[CARD_PRICE[c] for c in offered], budget=budget)]


def test_buy_by_names_prefixes_or_nothing():
    options = buying(["maria-15", "leo-3", "leo-3", "joker"])
    read = lambda text: typed.read(W, "buy", text, options, NS(edition=ED), PEOPLE)  # noqa: E731
    assert read("maria 15, leo 3") == Buy(cards=["maria-15", "leo-3"])
    assert read("MAR 15; leo 3, leo 3, jok") == Buy(cards=["maria-15", "leo-3", "leo-3", "joker"])
    assert read("nothing") == read("None") == Buy(cards=[])
    assert read("maria") == Buy(cards=["maria-15"])
    assert read("philipp 2").code == "typed_unknown"
    assert "Leo 3" in read("philipp 2").params["choices"] and "nothing" in read("philipp 2").params["choices"]


def test_a_buy_suggestion_typed_out_in_full_buys_those_cards():
    state, _ = new_game(["ada", "ben"], seed=1)
    state.players[0].offered = ("maria-15", "leo-3")
    options, view = legal_actions(state, "ada"), player_view(state, "ada")
    label = next(n for n, _ in choices.purchases(W, options, view, PEOPLE) if n.startswith("Maria 15 —"))
    action = typed.read(W, "buy", label.upper(), options, view, PEOPLE)
    assert action(state, "ada") == Buy(cards=["maria-15"])


def test_reveal_by_names_and_ambiguous_names_ask():
    options = [RevealChoice(count=2, cards=["leo-3", "leo-13", "joker"], suggested=["leo-13", "joker"])]
    view = NS(edition=ED, you=NS(hand=["leo-3", "leo-13", "joker"]))
    assert typed.read(W, "reveal", "JOKER, leo 13", options, view, PEOPLE) == Reveal(cards=["joker", "leo-13"])
    asked = typed.read(W, "reveal", "leo, joker", options, view, PEOPLE)
    assert asked == Notice("typed_ambiguous", {"candidates": ["Leo 13", "Leo 3"]})


# --- buy suggestions

def purchase_labels(offered: list[str], budget: int = 5000) -> list[str]:
    return [n for n, _ in choices.filtered(choices.purchases(W, buying(offered, budget), NS(edition=ED), PEOPLE), "")]


def bought(label: str) -> Counter:
    return Counter(label.split(" — ")[0].split(", "))


@pytest.mark.parametrize("offered", [
    ["maria-15", "leo-3", "leo-3", "joker", "philipp-1"],
    ["maria-15", "maria-14", "leo-3", "leo-4", "joker", "philipp-1", "louise-9"],
    ["leo-3", "leo-3", "leo-3", "leo-3", "leo-3"],
])
def test_buy_suggestions_are_distinct_priced_with_unit_and_include_single_cards(offered):
    labels = purchase_labels(offered)
    assert 2 <= len(labels) <= 25 and labels[0] == "Buy nothing"
    sets = [bought(n) for n in labels[1:]]
    assert len({frozenset(s.items()) for s in sets}) == len(sets), labels
    assert all(n.endswith(" guilders") for n in labels[1:]), labels
    assert any(sum(s.values()) == 1 for s in sets), labels
    assert max(sum(s.values()) for s in sets) == len(offered) or len(labels) == 25


def test_buy_suggestions_show_only_affordable_sets_with_their_total():
    labels = purchase_labels(["maria-15", "leo-3", "joker"], budget=600)
    assert sorted(labels) == sorted(["Buy nothing", "Maria 15 — 400 guilders", "Joker — 400 guilders",
                                     "Leo 3 — 200 guilders", "Maria 15, Leo 3 — 600 guilders",
                                     "Leo 3, Joker — 600 guilders"])
