"""Private menus left open from an earlier decision (issue 12, point 4).

A panel stays on its owner's screen for as long as they like; its menus and the
buttons a selection leads to must only ever act on the decision they were built
for. A menu used in a later decision is refused politely with the player's
current panel, and nothing is chosen for them.

Later decisions are set up directly: a game is started through Discord, then its
cached state is moved on to the case (as test_bot_limits does).
"""

from __future__ import annotations

import dataclasses

from support.bot_support import ADA, BEN, STRANGER, game, open_and_start, service, use_old

from engine import to_act
from engine.components import JOKER
from engine.editions import default
from engine.state import Purchase, Showdown

CARD_NOBLE, NOBLES = default().card_noble, default().nobles  # the shipped edition's


def put(h, state) -> None:
    record = game(h)
    service(h).core._games.put(dataclasses.replace(record, state=state))


def round_end_purchase(h, offers: int = 4) -> None:
    """Everyone is offered `offers` cards from the deck in the purchase at the end of round 1."""
    state = game(h).state.model_copy(deep=True)
    state.phase, state.auction, state.noble = "round_end_purchase", None, None
    state.purchase = Purchase(kind="round_end", order=list(range(len(state.players))))
    for p in state.players:
        p.offered, state.deck = state.deck[:offers], state.deck[offers:]
    put(h, state)


def showdown(h, player: int, noble: int) -> None:
    """`player` alone lays down two cards for `noble`, from a hand of that noble's first five certificates."""
    state = game(h).state.model_copy(deep=True)
    seat = next(i for i, p in enumerate(state.players) if p.id == str(player))
    state.noble, state.phase, state.auction, state.purchase = noble, "showdown", None, None
    state.players[seat].hand = (*[c for c, n in CARD_NOBLE.items() if n == NOBLES[noble]][:5], JOKER)
    state.showdown = Showdown(count=2, seats=[seat], high_seat=seat)
    put(h, state)


async def buy_nothing(h, table: int, users=(ADA, BEN)) -> None:
    for user in users:
        panel = (await h.click(user, table, label="My hand & actions")).answer
        await h.click(user, panel.message_id, label="Buy nothing")


def select_of(panel, kind: str) -> dict:
    return next(s for s in panel.selects() if s["custom_id"].endswith(f":{kind}"))


def preselected(output) -> list[str]:
    return [o["value"] for s in output.selects() for o in s["options"] if o.get("default")]


async def test_a_purchase_menu_from_the_initial_purchase_is_refused_in_a_later_purchase(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    # Two copies of the panel of the initial purchase (7 offers) are left open.
    copies = [(await h.click(ADA, table, label="My hand & actions")).answer for _ in range(2)]
    menu = select_of(copies[0], "buy")["custom_id"]
    await buy_nothing(h, table)
    round_end_purchase(h, offers=4)
    before = game(h).state.model_copy(deep=True)
    # Positions 5 and 6 exist only in the old offer of 7 cards; 0 and 1 would pick cards of the new one.
    for old, values in zip(copies, (["5", "6"], ["0", "1"])):
        used = await use_old(h, ADA, old, menu, values)
        answer = used.answer
        assert answer.kind == "update" and answer.ephemeral
        assert "⚠️" in answer.content and "already been taken" in answer.content
        assert preselected(answer) == [], "nothing from the old menu may be chosen in the new purchase"
        assert len(select_of(answer, "buy")["options"]) == 4  # the current panel: the new offer
        assert game(h).state == before
    h.assert_all_answered()
    h.assert_no_errors()


async def test_a_buy_nothing_button_from_the_initial_purchase_does_not_act_in_a_later_one(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    old = (await h.click(ADA, table, label="My hand & actions")).answer
    await buy_nothing(h, table)
    round_end_purchase(h)
    before = game(h).state.model_copy(deep=True)
    stale = await use_old(h, ADA, old, old.component(label="Buy nothing")["custom_id"])
    assert "⚠️" in stale.answer.content and "already been taken" in stale.answer.content
    assert game(h).state == before and str(ADA) in to_act(game(h).state)
    h.assert_no_errors()


async def test_a_reveal_menu_from_an_earlier_showdown_is_refused(harness):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    showdown(h, ADA, noble=0)
    old = (await h.slash(ADA, "augsburg hand")).answer
    menu = select_of(old, "rev")["custom_id"]
    values = [o["value"] for o in select_of(old, "rev")["options"]][:2]
    showdown(h, ADA, noble=1)  # Louise's showdown: another hand, another decision
    before = game(h).state.model_copy(deep=True)
    used = await use_old(h, ADA, old, menu, values)
    assert used.answer.kind == "update" and "already been taken" in used.answer.content
    shown = [o["label"] for o in select_of(used.answer, "rev")["options"]]
    assert shown and all(label.startswith(("Louise", "Joker")) for label in shown), shown
    confirm = [b for b in used.answer.buttons() if b["custom_id"].startswith("aug:do:")]
    assert all(":show1.1:" in b["custom_id"] for b in confirm), "the fresh panel acts on the current decision"
    assert game(h).state == before
    h.assert_no_errors()


async def test_a_menu_of_a_player_who_is_not_due_is_refused(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    old = (await h.click(ADA, table, label="My hand & actions")).answer
    menu = select_of(old, "buy")["custom_id"]
    await buy_nothing(h, table, users=(ADA,))  # Ada has chosen; Ben has not
    before = game(h).state.model_copy(deep=True)
    used = await use_old(h, ADA, old, menu, ["0"])
    assert used.answer.kind == "update" and "made this choice already" in used.answer.content
    assert preselected(used.answer) == [] and not used.answer.selects()
    assert game(h).state == before
    h.assert_no_errors()


async def test_a_forged_menu_choice_is_refused_and_changes_nothing(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    panel = (await h.click(ADA, table, label="My hand & actions")).answer
    menu = select_of(panel, "buy")["custom_id"]
    before = game(h).state.model_copy(deep=True)
    for values in (["9"], ["0", "0"], ["-1"], ["x"]):  # no such offer, twice the same card, nonsense
        data = {"custom_id": menu, "component_type": 3, "values": values}
        payload = h.interaction_payload(ADA, 3, data, h.message(panel.message_id))
        forged = await h.send_interaction(payload)
        assert forged.answer.ephemeral and "⚠️" in forged.answer.content
        assert preselected(forged.answer) == []
    # Someone else sending Ada's menu gets only their own answer: they are not playing.
    payload = h.interaction_payload(STRANGER, 3, {"custom_id": menu, "component_type": 3, "values": ["0"]},
                                    h.message(table))
    payload["message"]["components"] = h.message(panel.message_id).data["components"]
    outsider = await h.send_interaction(payload)
    assert outsider.answer.ephemeral and "not playing" in outsider.answer.content
    assert game(h).state == before
    h.assert_all_answered()
    h.assert_no_errors()


async def test_a_forged_reveal_choice_is_refused(harness):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    showdown(h, ADA, noble=0)
    state = game(h).state.model_copy(deep=True)
    seat = next(i for i, p in enumerate(state.players) if p.id == str(ADA))
    state.players[seat].hand += ("louise-3",)  # in hand, but it does not count for Philipp
    put(h, state)
    panel = (await h.slash(ADA, "augsburg hand")).answer
    menu = select_of(panel, "rev")["custom_id"]
    louise = str(len(state.players[seat].hand) - 1)
    for values in (["0"], ["0", louise], ["0", "1", "2"]):  # too few, a card that does not count, too many
        data = {"custom_id": menu, "component_type": 3, "values": values}
        forged = await h.send_interaction(h.interaction_payload(ADA, 3, data, h.message(panel.message_id)))
        assert forged.answer.content.startswith("⚠️") and "Your move" in forged.answer.content
    assert game(h).state == state
    h.assert_no_errors()
