"""Decisions with one legal option, and auction decisions settled ahead (issue 27): what the engine says is
the only option, when the bot makes it for a person (now, or once the others due have chosen), and what
a decision settled ahead becomes when the turn comes."""

from __future__ import annotations

import random

from bot.service import GameService
from bot.service.automatic import ahead_action, ahead_choices, ahead_code, automatic, lapsed, planned_action, read_ahead
from engine import Buy, Call, Pass, Reveal, TakeCard, legal_actions, new_game, only_action
from engine.actions import Bid, RevealChoice
from engine.randomplay import concrete
from engine.rules import keep_a_certificate
from engine.state import Auction, PrivilegeTurn, Showdown
from engine.undo import History
from storage import Ahead, Seat, Store, Table

J = "joker"
PLAYERS = ["a", "b", "c"]


def table(computers=(), **aheads) -> Table:
    return Table(host="a", seats=tuple(Seat(id=p, kind="computer" if p in computers else "human",
                                            ahead=aheads.get(p)) for p in PLAYERS))


def auction(turn: int, high: int = 0, hands=None, passed=(False, False, False), noble: int = 0):
    state, _ = new_game(PLAYERS, seed=3)
    state.phase, state.noble, state.purchase = "auction", noble, None
    state.auction = Auction(turn=turn, offers=[0, 0, 0], passed=list(passed), high=high,
                            high_seat=(turn + 1) % 3 if high else None)
    for player, hand in zip(state.players, hands or [[J, J]] * 3):
        player.hand = tuple(hand)
    return state


def showdown(hands, count: int, seats=(0, 1)):
    state = auction(0, hands=hands)
    state.phase, state.auction = "showdown", state.auction.model_copy(update={"high": count})
    state.showdown = Showdown(count=count, seats=list(seats), high_seat=seats[0])
    return state


def test_a_bid_with_nothing_to_back_it_is_the_only_option_pass():
    assert only_action(auction(0, hands=[[J, J], ["philipp-3"], []]), "a") == Pass()  # R10: jokers alone
    too_few = auction(1, high=3, hands=[[], ["philipp-3", J], []])
    assert only_action(too_few, "b") == Pass()
    assert only_action(auction(1, high=2, hands=[[], ["philipp-3", J], []]), "b") is None  # call or pass


def test_a_lay_down_of_exactly_the_valid_cards_is_the_only_option():
    exact = showdown([["philipp-3", "philipp-9", "maria-4"], ["philipp-5", J], []], count=2)
    assert only_action(exact, "a") == Reveal(cards=["philipp-3", "philipp-9"])
    assert only_action(exact, "b") == Reveal(cards=["philipp-5", J])
    choice = showdown([["philipp-3", "philipp-9", J], ["philipp-5", J], []], count=2)
    assert only_action(choice, "a") is None  # three sets: 3+9, 3+joker, 9+joker
    jokers = showdown([["philipp-3", J, J], ["philipp-5", J], []], count=2)
    assert only_action(jokers, "a") == Reveal(cards=["philipp-3", J])  # two jokers alone may not be laid down


def test_only_options_in_the_other_phases():
    state, _ = new_game(PLAYERS, seed=3)
    state.players[0].money = 10
    assert only_action(state, "a") == Buy(cards=[])  # nothing offered is affordable
    assert only_action(state, "b") is None
    state.phase, state.purchase = "privilege", None
    state.privilege_display = ("4",)
    state.privilege = PrivilegeTurn(seat=0)
    assert only_action(state, "a") == TakeCard(card="4")  # the last card on display
    state.privilege = PrivilegeTurn(seat=0, card="4", pending_discard=True)
    state.players[0].hand = (J, J)
    assert only_action(state, "a") is None  # a discard of one kind of card is still asked: it would tell


def test_a_lay_down_with_one_option_waits_for_the_others_who_choose():
    hands = [["philipp-3", "philipp-9"], ["philipp-5", J, "philipp-11"], []]
    made = automatic(showdown(hands, count=2), table())
    assert made.now == {} and made.waiting == {"a"}  # b still chooses: a's is never seen first
    alone = showdown([["philipp-3", "philipp-9"], ["philipp-5", J], []], count=2)
    assert set(automatic(alone, table()).now) == {"a", "b"}  # nobody has anything to think about
    with_computer = automatic(alone, table(computers=("b",)))
    assert with_computer.now == {} and with_computer.waiting == {"a"}  # a computer decides like a person


def test_a_turn_in_the_auction_is_made_at_once_and_a_computer_seat_is_left_to_the_computer():
    state = auction(0, hands=[[J, J], [], []])
    assert automatic(state, table()).now == {"a": (Pass(), "only")}
    assert automatic(state, table(computers=("a",))).now == {}


def test_a_decision_settled_ahead_becomes_a_legal_move_when_the_turn_comes():
    assert ahead_action(Ahead(auction="1.0", how="pass"), 2) == Pass()
    assert ahead_action(Ahead(auction="1.0", how="call", cards=3), 0) == Bid(count=1)  # nobody has bid: open
    assert ahead_action(Ahead(auction="1.0", how="call", cards=3), 3) == Call()
    assert ahead_action(Ahead(auction="1.0", how="call", cards=3), 4) == Pass()
    assert ahead_action(Ahead(auction="1.0", how="raise", cards=3), 1) == Bid(count=3)
    assert ahead_action(Ahead(auction="1.0", how="raise", cards=3), 3) == Call()
    assert ahead_action(Ahead(auction="1.0", how="raise", cards=3), 4) == Pass()
    hands = [["philipp-3", J], ["philipp-4", "philipp-8", J], []]
    state = auction(1, high=1, hands=hands)
    plan = Ahead(auction=f"{state.round}.0", how="raise", cards=3)
    assert planned_action(Seat(id="b", ahead=plan), state) == Bid(count=3)
    assert automatic(state, table(b=plan)).now == {"b": (Bid(count=3), "ahead")}
    later = Ahead(auction=f"{state.round}.1", how="pass")
    assert planned_action(Seat(id="b", ahead=later), state) is None  # for another auction: not this one


def test_what_may_be_settled_ahead_is_bounded_by_the_hand_and_lapses_with_the_auction():
    hands = [["philipp-3", J], ["philipp-4", "philipp-8", J], ["maria-2"]]
    state = auction(0, high=0, hands=hands)
    now = f"{state.round}.0"
    listed = ahead_choices(state, "b")
    assert [ahead_code(a) for a in listed] == ["p", "c1", "c2", "c3", "r1", "r2", "r3"]  # 3 valid cards
    assert ahead_choices(state, "a") == []  # a decides now
    assert [ahead_code(a) for a in ahead_choices(state, "c")] == ["p"]  # no Philipp card: only a pass
    out = auction(0, hands=hands, passed=(False, True, False))
    assert ahead_choices(out, "b") == []  # out of this auction
    assert read_ahead("r3", now) == Ahead(auction=now, how="raise", cards=3)
    assert read_ahead("p2", now) is None and read_ahead("x", now) is None and read_ahead("c", now) is None
    plans = table(b=Ahead(auction=now, how="pass"), c=Ahead(auction=f"{state.round}.4", how="pass"))
    kept = lapsed(plans, state)
    assert kept.seat("b").ahead is not None and kept.seat("c").ahead is None  # another auction's: gone
    assert lapsed(kept, state, mover="b").seat("b").ahead is None  # their own move in it makes it
    state.phase, state.auction = "privilege", None
    assert lapsed(kept, state).seat("b").ahead is None  # the auction has ended


def test_the_suggested_lay_down_never_leaves_jokers_only_and_ignores_prices_in_the_last_round():
    ed = new_game(PLAYERS, seed=3)[0].edition
    assert keep_a_certificate(["philipp-7", "philipp-3", J, J], ["philipp-7", "philipp-3", J, J, J, J], ed) == [
        "philipp-7", J, J, J]  # Philipp 3 stays: the jokers left can still back a bid
    kept = ["philipp-7", "philipp-3", J]
    assert keep_a_certificate(kept, ["philipp-7", "philipp-3", J, "maria-2"], ed) == kept  # Maria 2 stays anyway
    hand = ["philipp-7", "philipp-3", "philipp-1", J, J, J]
    state = showdown([hand, ["philipp-5", J, J], []], count=4)
    [choice] = legal_actions(state, "a")
    # Philipp 3 and a joker stay in the hand rather than two jokers.
    assert isinstance(choice, RevealChoice) and choice.suggested == ["philipp-7", "philipp-1", J, J]
    state.round = state.rounds  # last round: by strength, not price; and a certificate is kept
    state.players[0].hand = ("philipp-7", "philipp-3", "philipp-1", "philipp-15", J, J)
    [choice] = legal_actions(state, "a")
    assert choice.suggested == ["philipp-15", "philipp-1", "philipp-3", J]


def test_privilege_cards_alike_on_display_are_one_option_the_first_of_them():
    """Issue 43: the edition prints two cards with the same privileges (9 and 10): with only those on display,
    which one is taken changes nothing but its number, and the panel shows one button for them."""
    state, _ = new_game(PLAYERS, seed=3)
    cards = state.edition.privilege_cards
    assert cards["9"] == cards["10"] and cards["8"] != cards["9"]
    state.phase, state.purchase, state.privilege = "privilege", None, PrivilegeTurn(seat=0)
    state.privilege_display = ("10", "9")
    assert len(legal_actions(state, "a")) == 2, "both stay legal: the rules are unchanged"
    assert only_action(state, "a") == TakeCard(card="10")  # the first on display
    state.privilege_display = ("9", "8", "10")
    assert only_action(state, "a") is None  # a real choice


async def test_a_person_is_never_asked_to_take_one_of_two_cards_alike_and_cannot_take_it_back(tmp_path):
    """Issue 43: three people, seed 1, playing at random (Random(3)): Ben won a noble with only cards 9 and
    10 on display, and was asked to choose between them (one button on his panel). Now the bot takes the
    first for him, logged as his only option, which is no decision of his to take back."""
    store = await Store.open(tmp_path / "alike.sqlite3")
    service, channel, people = GameService(store), 5, ["1001", "1002", "1003"]
    try:
        record = (await service.lobby.open_table(7, channel, Seat(id=people[0], name="Ada"), clock=False)).record
        for person, name in zip(people[1:], ("Ben", "Cleo")):
            await service.lobby.join(channel, record.id, Seat(id=person, name=name))
        record = (await service.lobby.start(channel, record.id, people[0], seed=1)).record
        rnd, taken = random.Random(3), []
        while record.status == "active":
            state, due = record.state, sorted(service.games.due(record).people)
            for person in people:
                made = service.games.decision(record, person).made
                display = state.privilege_display
                if made is not None and isinstance(made.action, TakeCard) and len(display) > 1:
                    taken.append((person, state.moves + 1, list(display)))
            if due:
                options = service.games.decision(record, due[0]).options
                assert not (len(options) > 1 and all(isinstance(o, TakeCard) for o in options)
                            and len({state.edition.privilege_cards[o.card] for o in options}) == 1), options
                outcome = await service.decisions.act(channel, record.id, due[0], None, concrete(rnd.choice(options),
                                                                                                  rnd))
            else:
                outcome = await service.decisions.play_computer(channel)
            assert outcome is not None and outcome.ok, outcome
            record = outcome.record
        assert taken[0] == ("1002", taken[0][1], ["9", "10"]), taken
        played = await store.log.played(record.id)
        history = History(record.table.players, record.table.seed, record.table.start_player)
        for player, action, actor in played:
            assert history.play(player, action, by_player=actor in ("player", "only", "ahead")).ok
        row = history.rows[taken[0][1] - 1]
        assert row.player == "1002" and row.action == TakeCard(card="9") and row.forced
        assert played[taken[0][1] - 1][2] == "only"
    finally:
        await store.close()


def test_the_answer_is_kept_for_the_very_state_and_table_and_worked_out_anew_for_others():
    """A move asks automatic() about the same state several times (issue 44): it is worked out once, for
    those very objects. Another table (a decision settled ahead) or another state gets its own answer."""
    hands = [["philipp-3", J], ["philipp-4", "philipp-8", J], []]
    state, plain = auction(1, high=1, hands=hands), table()
    first = automatic(state, plain)
    assert first.now == {} and automatic(state, plain) is first  # b has a choice: nothing for the bot
    plan = Ahead(auction=f"{state.round}.0", how="raise", cards=3)
    assert automatic(state, table(b=plan)).now == {"b": (Bid(count=3), "ahead")}  # a new table: anew
    copied = state.model_copy(deep=True)
    copied.players[1].hand = ()  # (another state: b has nothing to bid with now)
    assert automatic(copied, plain).now == {"b": (Pass(), "only")}
    assert automatic(state, plain) is first  # and the first is still the first's
