"""Counts and money as players read them (issue 13): the one-form, the many-form, zero where it is special,
and every amount of guilders with its unit and thousands separator."""

from __future__ import annotations

import re
import subprocess
import sys
from types import SimpleNamespace as NS

import pytest
from conftest import ROOT

from bot.discord_app import choices
from bot.wording import ENGLISH, People, log, moves, names, phases, table, terminal
from engine import events as ev
from engine.actions import Bid, Build, BuyChoice, Call, Compensate, Done, Use
from engine.editions import default

ED = default()  # the shipped edition

W = ENGLISH
PEOPLE = People(name=lambda p: p.capitalize())


def privilege_view(used: int, card: str = "1") -> NS:
    return NS(edition=ED, privilege=NS(used=list(range(used)), card=card),
              tile_stacks={"cathedral": [1000], "church": [700]}, auction=NS(high=0))


def line(event) -> str | None:
    return log.public_line(W, event, PEOPLE, ED)


# --- counts


@pytest.mark.parametrize(("option", "high", "text"), [
    (Bid(count=1), 0, "Bid 1 card"), (Bid(count=3), 0, "Bid 3 cards"),
    (Call(), 1, "Call 1 card"), (Call(), 2, "Call 2 cards"),
])
def test_auction_buttons_count_cards(option, high, text):
    assert moves.action(W, option, NS(edition=ED, auction=NS(high=high)), PEOPLE) == text


CARD_1 = "Trade · Trade · +500 guilders"  # privilege card 1, named by what it gives


def test_the_privilege_prompt_and_finish_button_say_what_is_left():
    use = [Use(slot=0), Done()]
    assert moves.prompt(W, use, privilege_view(0), PEOPLE).startswith("use up to 2 more privileges of " + CARD_1)
    assert moves.prompt(W, use, privilege_view(1), PEOPLE).startswith("use up to 1 more privilege of " + CARD_1)
    none_left = moves.prompt(W, [Done()], privilege_view(2), PEOPLE)
    assert none_left.startswith("no more privileges of " + CARD_1) and " 0 " not in none_left
    assert "Master Builder" in moves.prompt(W, [Build(what="church"), Done()], privilege_view(2), PEOPLE)
    assert moves.action(W, Done(), privilege_view(1), PEOPLE) == "Finish card (+2 prestige for unused)"
    assert moves.action(W, Done(), privilege_view(2), PEOPLE) == "Finish card"


def test_laying_down_counts_cards():
    assert moves.reveal_prompt(W, 1).startswith("lay down exactly 1 valid card (")
    assert moves.reveal_prompt(W, 3).startswith("lay down exactly 3 valid cards (")
    assert moves.placeholder(W, "reveal", 1) == "Or choose another card to lay down…"
    assert moves.placeholder(W, "reveal", 3) == "Or choose 3 other cards to lay down…"


def test_the_showdown_headline_counts_cards():
    def showdown(count):
        view = NS(edition=ED, phase="showdown", noble="maria", to_act=["ada"], showdown=NS(count=count))
        return phases.status(W, view, PEOPLE)

    assert "Showdown for **Maria**: 1 card each" in showdown(1)
    assert "Showdown for **Maria**: 2 cards each" in showdown(2)


def test_the_terminal_auction_line_before_and_after_a_bid():
    def auction(high):
        return phases.your_move(W, NS(edition=ED, phase="auction", noble="leo", auction=NS(high=high)), PEOPLE)

    assert auction(0) == "auction for Leo (no bid yet)."
    assert auction(1) == "auction for Leo (highest bid: 1 card)."
    assert auction(4) == "auction for Leo (highest bid: 4 cards)."


def test_the_typed_bid_command_counts_cards():
    def bid_line(*counts):
        return moves.commands(W, [Bid(count=c) for c in counts], NS(edition=ED, auction=NS(high=0)))[0]

    assert bid_line(1).endswith("raise to 1 card")
    assert bid_line(3).endswith("raise to 3 cards")
    assert bid_line(2, 3, 4).endswith("raise to 2–4 cards")


def test_log_lines_count_cards():
    assert line(ev.Called(player="ada", count=1)) == "Ada calls: 1 card."
    assert line(ev.Called(player="ada", count=3)) == "Ada calls: 3 cards."
    assert line(ev.BidMade(player="ada", count=1)) == "Ada bids 1 card."
    # each unused privilege is worth prestige (2 in the shipped edition): the log says what it brings (issue 42)
    assert line(ev.PrivilegesDeclined(player="ada", count=1)) == "Ada leaves 1 privilege unused: +2 prestige."
    assert line(ev.PrivilegesDeclined(player="ada", count=2)) == "Ada leaves 2 privileges unused: +4 prestige."


@pytest.mark.parametrize(("free", "offered", "text"), [
    (0, 1, "Ada receives 1 card to buy."),
    (0, 5, "Ada receives 5 cards to buy."),
    (1, 5, "Ada receives 6 cards: 1 free, the rest to buy."),
    (2, 0, "Ada receives 2 free cards."),
    (1, 0, "Ada receives 1 free card."),
    (0, 0, "Ada receives no cards."),
])
def test_cards_dealt_count_both_kinds(free, offered, text):
    assert line(ev.CardsDealt(player="ada", free=free, offered=offered)) == text


def test_a_purchase_of_nothing_says_so():
    assert line(ev.PurchaseMade(player="ada", count=0, paid=0)) == "Ada bought nothing."
    assert line(ev.PurchaseMade(player="ada", count=1, paid=250)) == "Ada bought 1 card for 250 guilders."
    assert line(ev.PurchaseMade(player="ada", count=5, paid=1150)) == "Ada bought 5 cards for 1,150 guilders."


# --- money


def test_money_has_its_unit_and_separator():
    assert W.money(1) == "1 guilder" and W.money(0) == "0 guilders" and W.money(1150) == "1,150 guilders"


def test_buy_button_shows_guilders():
    assert moves.buy_label(W, 0, 0) == "Buy nothing"
    assert moves.buy_label(W, 1, 250) == "Buy 1 card for 250 guilders"
    assert moves.buy_label(W, 5, 1150) == "Buy 5 cards for 1,150 guilders"
    assert len(moves.buy_label(W, 12, 4800)) <= 80


def test_build_button_shows_guilders():
    label = moves.action(W, Build(what="cathedral"), privilege_view(1), PEOPLE)
    assert label == "Master Builder: build the Cathedral (1,000 guilders)" and len(label) <= 80


def test_cards_and_privileges_show_guilders():
    assert names.card_with_price(W, "maria-15", ED).endswith(" guilders)")
    assert re.fullmatch(r"Maria 15 \(\d[\d,]* guilders\)", names.card_with_price(W, "maria-15", ED))
    assert names.privilege(W, "guilders", ED) == "+500 guilders"
    assert names.use(W, "trade300", ED) == "take 300 guilders"
    assert moves.action(W, Compensate(take="money"), NS(edition=ED), PEOPLE) == "Take 100 guilders"


def test_purchase_choices_keep_their_price_within_discords_limit():
    offered = ["maria-15", "maria-14", "philipp-1", "louise-3", "leo-9", "maria-2", "leo-12", "joker"]
    choice = BuyChoice(offered=offered, prices=[100] * len(offered), budget=100_000)
    labels = [label for label, _ in choices.purchases(W, [choice], NS(edition=ED), PEOPLE)]
    assert labels[0] == "Buy nothing"
    for label in labels[1:]:
        assert len(label) <= 100 and re.search(r" — \d{1,3}(,\d{3})* guilders$", label), label
    assert any("," in label.rsplit(" — ", 1)[1] for label in labels[1:])  # 1,000 guilders and more


def test_the_table_shows_tile_prices_and_hand_prices_in_guilders():
    view = NS(edition=ED, tile_stacks={"church": [700, 600], "cathedral": [1100], "coat": [4], "letter": [],
                                       "minter": [1, 1], "master_builder": []})
    assert table.next_tiles(W, view) == (  # every kind of tile, with its next price and how many are left
        "Tiles in the supply: Church: 700 guilders, 2 left · Cathedral: 1,100 guilders, 1 left · Coat of Arms: +4 "
        "prestige a round, 1 left · Letter of Nobility: none left · Minter: 2 left · Master Builder: none left")
    player = NS(tiles=NS(church=None, cathedral=1000, coat=None, letter=3, minter=True, master_builder=False))
    assert table.tiles(W, player) == "Cathedral (1,000 guilders), Letter of Nobility +3, Minter"
    you = NS(money=1150, hand=["maria-15", "joker"], offered=[], offered_prices=[], chosen=None)
    hand = table.hand(W, NS(edition=ED, you=you))
    assert "**Your money:** 1,150 guilders" in hand and "**Your hand (2 cards):**" in hand
    assert re.search(r"Maria: 15 \(\d+ guilders\)", hand)


def test_log_lines_show_guilders():
    assert line(ev.Consolation(player="ada", amount=100)) == "Ada receives 100 guilders consolation."
    assert line(ev.RoundIncome(player="ada", money=1200, prestige=5)) == "Ada earns 1,200 guilders and 5 prestige."
    assert line(ev.CompensationChosen(player="ada", take="money")) == "Ada takes 100 guilders as compensation."


def test_the_terminal_says_nothing_was_bought_and_every_price_has_its_unit(tmp_path):
    """The human buys nothing (Enter) and stops: the log says so, and every amount shown carries its unit."""
    out = subprocess.run(
        [sys.executable, "-m", "bot.app.cli", "play", "--database", str(tmp_path / "t.sqlite3"), "--opponents", "2",
         "--seed", "5"],
        input="\n", capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    text = out.stdout
    assert "bought nothing" in text, text[-2000:]
    assert "bought 0" not in text and " 0 cards" not in text
    assert re.search(r"\(\d[\d,]* guilders\)", text)  # the cards offered, with their prices
    assert not re.findall(r"\(\d[\d,]*\)", text)  # no bare number in brackets


def test_long_labels_shorten_the_cards_not_the_sentence():
    many = ["maria-15", "maria-14", "maria-13", "maria-12", "maria-11", "maria-10", "maria-9", "maria-8", "joker",
            "joker", "maria-7"]
    label = moves.lay_down_label(W, many)
    assert len(label) <= 80 and label.startswith("Lay down: Maria 15") and re.search(r"and \d+ more$", label)
    assert moves.lay_down_label(W, ["leo-3"]) == "Lay down: Leo 3"


def test_the_terminal_asks_for_one_choice_plainly():
    assert terminal.pick_one(W, 1) == "Your choice [1]: " and terminal.pick_one(W, 3) == "Your choice [1-3]: "
    assert terminal.not_a_number(W, 1) == "Please type 1."
    assert terminal.not_a_number(W, 4) == "Please type a number from 1 to 4."


def test_the_auction_prompt_names_only_what_the_player_can_do():
    from engine.actions import Bid, Call, Pass

    assert moves.prompt(W, [Pass()], None, PEOPLE).startswith("you can only pass")
    assert moves.prompt(W, [Pass(), Bid(count=1), Bid(count=2)], None, PEOPLE) == "pass or raise (a bid counts cards)."
    assert moves.prompt(W, [Pass(), Call()], None, PEOPLE) == "pass or call (a bid counts cards)."
    assert moves.prompt(W, [Pass(), Call(), Bid(count=3)], None, PEOPLE) == "pass, call or raise (a bid counts cards)."
