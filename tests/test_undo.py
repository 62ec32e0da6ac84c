"""Taking a decision back (engine/undo.py), rule by rule: what can be taken back, and why the rest cannot.

Positions come from seeded random play (engine/randomplay.py) stopped where the rule applies."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import Refused, legal_actions, only_action, replay, to_act
from engine.actions import Bid, Buy, Call, Discard, Done, Pass, TakeBack, Use
from engine.components import DRAW2, GUILDERS
from engine.randomplay import concrete, random_action
from engine.undo import FINAL, History, Undoable, final_reason, without_taken_back

PLAYERS = ["ada", "ben", "cleo"]


def same_game(a, b) -> bool:
    """Equal but for the move counter (which counts every row of the log, take-backs too)."""
    return a.model_dump(exclude={"moves"}) == b.model_dump(exclude={"moves"})


def until(predicate, players=PLAYERS, seeds=range(1, 200)) -> tuple[History, random.Random]:
    """A game played at random (seeded) up to the first position where `predicate(history)` holds."""
    for seed in seeds:
        rnd = random.Random(seed)
        history = History(list(players), seed=seed)
        while history.state.phase != "game_over":
            if predicate(history):
                return history, rnd
            player, action = random_action(history.state, rnd)
            assert history.play(player, action).ok
    raise AssertionError("no game reached the position")


def play(history: History, player: str, action) -> None:
    result = history.play(player, action)
    assert result.ok, result


def auction_turn(kind):
    def ready(h: History) -> bool:
        options = h.state.phase == "auction" and legal_actions(h.state, to_act(h.state)[0])
        return bool(options) and len(options) > 1 and any(isinstance(o, kind) for o in options)
    return ready


@pytest.mark.parametrize("kind", [Bid, Pass, Call], ids=["bid", "pass", "call"])
def test_an_auction_decision_can_be_taken_back_until_the_next_player_acts(kind):
    """R11: a bid, a call or a pass hands the turn on; nothing hidden is shown and nothing is drawn, so the
    bidder may take it back while the next player has not acted: the auction is exactly as before."""
    history, rnd = until(auction_turn(kind))
    player = to_act(history.state)[0]
    before = history.state
    play(history, player, next(o for o in legal_actions(before, player) if isinstance(o, kind)))
    move = history.state.moves
    assert history.undoable(player) == Undoable(move, kind().do if kind is not Bid else "bid", (move,))
    result = history.take_back(player)
    assert result.ok
    assert same_game(result.state, before) and result.state.moves == move + 1
    assert to_act(result.state) == [player]
    [event] = result.events
    assert (event.type, event.player, event.moves, event.public) == ("taken_back", player, [move], True)
    assert history.rows[move - 1].taken_back and history.rows[-1].action == TakeBack(move=move)


def test_once_the_next_player_has_acted_a_bid_is_final():
    """R11 and BGA's rule: an undo never makes another player redo a move (nor crosses what their move
    showed: a pass shows they could not or would not go on)."""
    history, rnd = until(auction_turn(Bid))
    player = to_act(history.state)[0]
    play(history, player, Bid(count=next(o.count for o in legal_actions(history.state, player) if isinstance(o, Bid))))
    if history.state.phase != "auction":
        pytest.skip("the bid ended the auction")
    other = to_act(history.state)[0]
    play(history, other, Pass())
    before = history.state
    assert history.take_back(player) == Refused("undo_other_acted", {"player": other})
    assert history.state is before


def privilege_card_with(kind: str):
    def ready(h: History) -> bool:
        t = h.state.privilege
        return (h.state.phase == "privilege" and t.robbed is None and t.card is not None and not t.used
                and kind in h.state.edition.privilege_cards[t.card])
    return ready


def test_a_privilege_used_and_the_card_taken_can_be_taken_back_one_by_one():
    """R16-R18: taking a privilege card and using its privileges show nothing hidden and draw nothing: each
    can be taken back, the last first, back to the showdown the card was won in (R13: shown, so final)."""
    history, _ = until(privilege_card_with(GUILDERS))
    s = history.state
    player = s.players[s.privilege.seat].id
    slot = s.edition.privilege_cards[s.privilege.card].index(GUILDERS)
    money = s.players[s.privilege.seat].money
    before = s
    play(history, player, Use(slot=slot))
    assert history.state.players[s.privilege.seat].money == money + s.edition.guilders_privilege
    assert history.take_back(player).ok
    assert same_game(history.state, before)
    # The card taken is the decision before: it goes back on display.
    card = before.privilege.card
    assert history.undoable(player).decision == "take_card"
    assert history.take_back(player).ok
    assert card in history.state.privilege_display and history.state.privilege.card is None
    assert history.take_back(player) == Refused("undo_final", {"reason": "revealed"})


def test_the_draw_privilege_is_final_and_the_discard_after_it_is_not():
    """R17: drawing two cards shows the drawer cards from the deck: final. The discard that follows is a choice
    of the drawer's own card and can be taken back (the card goes back to the hand); not further back."""
    history, _ = until(privilege_card_with(DRAW2))
    s = history.state
    player = s.players[s.privilege.seat].id
    slot = s.edition.privilege_cards[s.privilege.card].index(DRAW2)
    play(history, player, Use(slot=slot))
    drawn = history.state
    assert history.undoable(player) == Refused("undo_final", {"reason": "drew"})
    discard = legal_actions(drawn, player)[0]
    assert isinstance(discard, Discard)
    play(history, player, discard)
    assert history.undoable(player).decision == "discard"
    assert history.take_back(player).ok
    assert same_game(history.state, drawn)
    assert history.take_back(player) == Refused("undo_final", {"reason": "drew"})


def showdown_of(seats: int):
    def ready(h: History) -> bool:
        s = h.state
        return (s.phase == "showdown" and len(s.showdown.seats) == seats and not s.showdown.reveals
                and all(only_action(s, s.players[seat].id) is None for seat in s.showdown.seats))
    return ready


def test_a_lay_down_can_be_taken_back_until_all_have_laid_down_and_then_never():
    """R13/R28: what a player lays down stays secret until everybody has chosen; then all are shown at once.
    The first to choose may take theirs back (the others' choosing meanwhile does not stop it); the last
    choice shows every lay-down, so neither it nor any before it can be taken back."""
    history, rnd = until(showdown_of(2))
    first, last = [history.state.players[s].id for s in history.state.showdown.seats]
    before = history.state
    play(history, first, concrete(legal_actions(before, first)[0], rnd))
    assert history.take_back(first).ok
    assert same_game(history.state, before)
    play(history, first, concrete(legal_actions(history.state, first)[0], rnd))
    play(history, last, concrete(legal_actions(history.state, last)[0], rnd))
    assert history.undoable(last) == Refused("undo_final", {"reason": "revealed"})
    assert history.undoable(first) == Refused("undo_final", {"reason": "revealed"})


def test_winning_alone_the_lay_down_is_shown_at_once():
    """R12: the only bidder left lays down alone, and it is shown at once: final."""
    history, rnd = until(showdown_of(1))
    [seat] = history.state.showdown.seats
    player = history.state.players[seat].id
    play(history, player, concrete(legal_actions(history.state, player)[0], rnd))
    assert history.undoable(player) == Refused("undo_final", {"reason": "revealed"})


def test_a_purchase_can_be_taken_back_while_others_still_choose_and_not_once_resolved():
    """R4/R23: purchases are chosen at once and in secret, and resolved when all are in. Until then a buyer may
    take theirs back although others chose after them, and the game is as if they had not chosen (the others'
    choices stay); once resolved (paid and told) it is final."""
    history, _ = until(lambda h: h.state.phase == "initial_purchase" and not h.state.purchase.choices)
    ada, ben, cleo = PLAYERS
    cheapest = {p.id: min(p.offered, key=history.state.edition.card_price.__getitem__) for p in history.state.players}
    play(history, ada, Buy(cards=[cheapest[ada]]))
    play(history, ben, Buy(cards=[]))
    assert history.undoable(ada).decision == "buy"
    assert history.take_back(ada).ok
    assert sorted(to_act(history.state)) == [ada, cleo]
    only_ben = History(PLAYERS, seed=history.state.seed)
    play(only_ben, ben, Buy(cards=[]))
    assert same_game(history.state, only_ben.state)
    # Taken back, then chosen again: ben's choice still stands; cleo's completes the purchase.
    play(history, ada, Buy(cards=[]))
    play(history, cleo, Buy(cards=[cheapest[cleo]]))
    for player in PLAYERS:
        assert history.undoable(player) == Refused("undo_final", {"reason": "purchase_resolved"})


def test_a_secret_choice_is_not_taken_back_across_a_non_secret_move():
    """Only the others' parts of the same secret choice may come between: a purchase made before the round's
    first bid is not taken back after it (besides, that purchase was resolved)."""
    history, rnd = until(lambda h: h.state.phase == "auction" and h.state.round == 1 and h.state.auction.high == 0
                         and h.state.noble == 0 and all(not r.taken_back for r in h.rows))
    buyer = history.rows[0].player
    assert history.undoable(buyer) in (Refused("undo_final", {"reason": "purchase_resolved"}),
                                       Refused("undo_final", {"reason": "new_round"}))


def test_the_round_end_deal_and_the_end_of_the_game_are_final():
    """R23: the last privilege card of a round leads to the deal of new cards (hidden, drawn): final; R27: so
    is the end of the game."""
    history, rnd = until(lambda h: h.rows and final_reason(h.rows[-1].events) == "dealt"
                         and h.rows[-1].action == Done())
    assert history.undoable(history.rows[-1].player) == Refused("undo_final", {"reason": "dealt"})
    while history.state.phase != "game_over":
        player, action = random_action(history.state, rnd)
        play(history, player, action)
    assert history.undoable(history.rows[-1].player) == Refused("undo_final", {"reason": "game_over"})


def test_a_move_the_clock_made_is_not_the_players_to_take_back():
    """Only a player's own decision is theirs to take back: not one the clock or a stand-in made for them."""
    history, rnd = until(auction_turn(Bid))
    player = to_act(history.state)[0]
    assert history.play(player, Pass(), by_player=False).ok
    assert history.undoable(player) == Refused("undo_made_for_you")


def test_an_undo_button_for_another_move_is_stale_and_with_nothing_decided_there_is_nothing_to_undo():
    history, rnd = until(auction_turn(Bid))
    player = to_act(history.state)[0]
    play(history, player, Pass())
    move = history.state.moves
    assert history.take_back(player, move - 1) == Refused("undo_stale", {"move": move - 1})
    assert history.take_back(player, move).ok
    assert history.take_back(player, move) in (Refused("undo_stale", {"move": move}),
                                               Refused("undo_final", {"reason": "revealed"}),
                                               Refused("undo_final", {"reason": "new_round"}),
                                               Refused("undo_final", {"reason": "purchase_resolved"}))
    fresh = History(PLAYERS, seed=1)
    assert fresh.undoable("ada") == Refused("nothing_to_undo")


def test_a_card_finished_for_its_player_is_taken_back_with_the_decision_before_it():
    """A privilege card with nothing left to decide is finished for its player (Done, their only option): it is
    no decision of theirs, so their undo takes back the decision before it, and the Done with it."""
    def last_use(h: History) -> bool:
        t = h.state.privilege
        return (h.state.phase == "privilege" and t.robbed is None and t.card is not None and len(t.used) == 1
                and not t.pending_discard and not h.state.players[t.seat].tiles.master_builder
                and any(isinstance(o, Use) for o in legal_actions(h.state, h.state.players[t.seat].id)))
    history, rnd = until(last_use)
    seat = history.state.privilege.seat
    player = history.state.players[seat].id
    before = history.state
    use = next(o for o in legal_actions(before, player) if isinstance(o, Use))
    play(history, player, use)
    if legal_actions(history.state, player) != [Done()]:
        pytest.skip("the use left a choice")
    play(history, player, Done())
    if final_reason(history.rows[-1].events):
        pytest.skip("the card ended the round")
    done, used = history.rows[-1].move, history.rows[-2].move
    found = history.undoable(player)
    assert (found.move, found.moves) == (used, (used, done))
    assert history.take_back(player).ok
    assert same_game(history.state, before)


def test_every_move_that_draws_deals_or_shuffles_is_final():
    """The way back is read from events: a move that takes cards off the deck, changes the generator, deals
    or shows a secret choice must carry an event of FINAL. Checked over random games."""
    for seed in range(1, 41):
        rnd = random.Random(seed)
        history = History(PLAYERS[: 2 + seed % 3] + ["dan", "eve"][: max(0, seed % 4 - 2)], seed=seed)
        while history.state.phase != "game_over":
            before = history.state
            player, action = random_action(before, rnd)
            result = history.play(player, action)
            after = result.state
            took = Counter(before.deck) - Counter(after.deck)
            offered = [p.offered for p in before.players] != [p.offered for p in after.players]
            if after.rng != before.rng or took or offered or after.round != before.round:
                assert final_reason(result.events) is not None, (seed, action)


def test_a_log_with_take_backs_replays_to_the_game_played():
    """The take-back rows stay in the log (nothing is deleted): replaying it from the seed reaches the same
    game, move counter included; and a take-back the rules would refuse does not replay."""
    for seed in (3, 4, 5):
        rnd = random.Random(seed)
        history = History(PLAYERS, seed=seed)
        taken = 0
        while history.state.phase != "game_over":
            player, action = random_action(history.state, rnd)
            play(history, player, action)
            if isinstance(history.undoable(player), Undoable) and rnd.random() < 0.5:
                before_take_back = history.state
                assert history.take_back(player).ok
                taken += 1
                assert history.state.moves == before_take_back.moves + 1
        assert taken > 20
        log = [(r.player, r.action) for r in history.rows]
        assert replay(PLAYERS, seed, None, log) == history.state
    with pytest.raises(Exception, match="undo_final|undo_other_acted|nothing_to_undo|undo_stale"):
        replay(PLAYERS, seed, None, [*log, (log[-1][0], TakeBack(move=1))])


def test_what_was_taken_back_is_left_out_of_what_happened():
    """Readers who build on the events (a computer's picture of the others' hands) see the game as if the
    moves taken back had never been made."""
    history, rnd = until(auction_turn(Bid))
    player = to_act(history.state)[0]
    play(history, player, Pass())
    assert history.take_back(player).ok
    moves = [(r.move, list(r.events)) for r in history.rows]
    kept = without_taken_back(moves)
    assert all(e.type not in ("pass", "taken_back") or e.player != player for e in kept[-3:])
    assert len(kept) == sum(len(ev) for m, ev in moves[:-2])


def test_final_reasons_are_the_documented_ones():
    assert set(FINAL.values()) == {"revealed", "purchase_resolved", "drew", "dealt", "shuffled", "new_round",
                                   "game_over"}


# --- stored: on both backends (the `store` fixture), through the service


async def test_a_take_back_is_a_chained_move_that_reloads_and_repairs_on_both_backends(store):
    """The take-back is appended to the hash-chained log (the decision taken back stays there), the game
    reloads verified, and a damaged snapshot is rebuilt from that log to the same game."""
    from support.raw import rows, tamper
    from support.storage_helpers import table_of

    from bot.service import GameService
    from engine import new_game

    service = GameService(store)
    state, _ = new_game(["11", "12", "13"], seed=4)
    record = await store.games.create_game(1, 9, table_of(["11", "12", "13"], 4), state)
    bought = await service.decisions.act(9, record.id, "11", None, Buy(cards=[]))
    assert bought.ok and bought.undo == 1
    await service.decisions.act(9, record.id, "12", None, Buy(cards=[]))
    stale = await service.undo.take_back(9, record.id, "11", 2)  # a button made for another move
    assert not stale.ok and stale.notice.code == "undo_stale"
    outcome = await service.undo.take_back(9, record.id, "11", 1)
    assert outcome.ok and [e.type for e in outcome.events] == ["taken_back"]
    assert sorted(to_act(outcome.record.state)) == ["11", "13"]
    logged = await rows(store, "SELECT move, player, action FROM actions WHERE game_id = ? ORDER BY move", record.id)
    assert [(r[0], r[1]) for r in logged] == [(1, "11"), (2, "12"), (3, "11")]
    assert '"take_back"' in logged[2][2] and '"move": 1' in logged[2][2]
    await tamper(store, "UPDATE games SET snapshot_sha256 = 'x' WHERE id = ?", record.id)
    service.core._games.drop(9)
    repaired = await store.games.load_game(record.id)
    assert repaired.state == outcome.record.state
    assert await store.log.notes(record.id) and (await store.log.notes(record.id))[-1][0] == "repaired"
    refused = await service.undo.take_back(9, record.id, "12", None)
    assert refused.ok  # Ben's own choice, still secret: his to take back
