"""Fewer clicks (issue 13): a private panel follows its player, menus decide in one step, a privilege card
with nothing left to decide is finished without a click, and a seeded game costs at most 1.2 interactions
per decision."""

from __future__ import annotations

import dataclasses
import gc
import types

import discord
from clicks_per_decision import play
from support.bot_support import ADA, BEN, ada_at_privilege, buy_for_philipp, game, open_and_start, service

from bot.service import decision_key
from engine import to_act
from engine.actions import Use


async def both_buy(h, table: int) -> dict[int, int]:
    """Ada and Ben each open their panel and buy their Philipp cards; their panels' message ids."""
    panels = {}
    for user in (ADA, BEN):
        panels[user] = (await h.click(user, table, label="My hand & actions")).answer.message_id
        await buy_for_philipp(h, user, panels[user])
    return panels


def auction_seats(h) -> tuple[int, int]:
    """Who opens the auction, and the other player."""
    opener = int(to_act(game(h).state)[0])
    return opener, BEN if opener == ADA else ADA


def offers_now(h, message_id: int) -> bool:
    """Whether a panel offers the decision due now."""
    key = decision_key(game(h).state)
    return any(f":{key}:" in cid for cid in h.message(message_id).custom_ids())


async def test_a_panel_shows_its_players_next_decision_when_it_comes_up(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    panels = await both_buy(h, table)
    opener, other = auction_seats(h)
    assert offers_now(h, panels[opener]), "the opener's panel offered the auction as soon as it began"
    sent = len(h.ephemeral_messages(other))
    await h.click(opener, panels[opener], label="Pass")
    assert to_act(game(h).state) == [str(other)]
    assert offers_now(h, panels[other]) and "Your move" in h.message(panels[other]).content
    assert len(h.ephemeral_messages(other)) == sent, "the same panel, redrawn: no new message"
    assert not offers_now(h, panels[opener]), "the opener's panel no longer offers anything"
    h.assert_all_answered()
    h.assert_no_errors()


def reachable(root: object) -> list[object]:
    """Every object `root` refers to, directly or not (not through classes, modules and functions)."""
    seen, todo = {id(root): root}, [root]
    while todo:
        for ref in gc.get_referents(todo.pop()):
            if id(ref) not in seen and not isinstance(ref, (type, types.ModuleType, types.FunctionType)):
                seen[id(ref)] = ref
                todo.append(ref)
    return list(seen.values())


async def test_live_panels_and_channels_keep_tokens_not_the_interactions_webhooks(harness):
    """At 1,000 live games some 2,000 live panels and 1,000 channels' latest tokens each kept an
    interaction's follow-up webhook: three objects more each for every garbage collection to walk (issue
    44). They keep the token's text; the webhook is made when it is used, and every panel still redraws
    (the tests around) and pings still go through the token (test_clean_channel)."""
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    await both_buy(h, table)
    presenter = h.bot.get_cog("Augsburg").presenter
    panels = list(presenter.live._panels.values())
    assert len(panels) == 2 and all(isinstance(p[0], str) and p[0] for p in panels)
    assert presenter._followups, "the channel's latest token, for the pings"
    for kept in (presenter.live._panels, presenter._followups):
        assert not [o for o in reachable(kept) if isinstance(o, discord.Webhook)]


async def test_live_panels_are_nothing_for_the_garbage_collector_to_walk(harness):
    """5,000 live games keep some 9,000 live panels: as objects (with their reader's words) they were a tenth
    of what every full collection walked (issue 44). A panel is kept as text and numbers, which the collector
    stops walking once it has seen them, in one dict for all games (a dict per game was walked by every full
    collection from its next panel on: a collection untracks a dict only when it walks the old generation);
    every panel still redraws (the tests around)."""
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    panels = await both_buy(h, table)
    live = h.bot.get_cog("Augsburg").presenter.live
    gc.unfreeze()  # (the bot froze what lived when it saw Discord ready, which can come after the first panels)
    for _ in range(3):  # a collection untracks a tuple once those inside are: three deep, in whatever order
        gc.collect()
    # A move redraws both panels. What that leaves must be let go of by the young and middle collections,
    # which come often: a full one, which alone walks the old generation, comes minutes later
    gc.disable()
    try:
        opener, _ = auction_seats(h)
        await h.click(opener, panels[opener], label="Pass")
        await h.settle()
    finally:
        gc.enable()
    gc.collect(0)
    gc.collect(1)
    panels = list(live._panels.values())
    assert len(panels) == 2
    assert not [p for p in panels if gc.is_tracked(p)]
    # nothing per game or player: what the collector walks of the panels does not grow with the games
    assert not [o for o in reachable(live._panels) + reachable(live._players) if gc.is_tracked(o)
                and o is not live._panels and o is not live._players]


async def test_a_panel_whose_token_has_expired_is_left_and_a_new_one_opens(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    panels = await both_buy(h, table)
    opener, other = auction_seats(h)
    before = h.message(panels[other]).content
    h.advance(16 * 60)  # Discord no longer accepts the tokens that drew the panels
    await h.click(opener, table, label="My hand & actions")  # a new panel (its own fresh token)
    opened = [m for m in h.ephemeral_messages(opener).values() if m.id != panels[opener]]
    await h.click(opener, max(m.id for m in opened), label="Pass")
    assert h.message(panels[other]).content == before, "an expired panel cannot be redrawn"
    # The bot tried (its clock does not know the test moved Discord's on) and took Discord's no quietly.
    assert h.problems and all("50027 Invalid Webhook Token" in p for p in h.problems)
    h.problems.clear()
    again = await h.click(other, table, label="My hand & actions")
    assert offers_now(h, again.answer.message_id)
    h.assert_all_answered()
    h.assert_no_errors()


async def test_a_cancelled_game_leaves_the_panels_saying_so(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    panel = (await h.click(BEN, table, label="My hand & actions")).answer.message_id
    await h.slash(ADA, "augsburg cancel")
    await h.click(ADA, h.find_message(label="Yes, cancel the game").id, label="Yes, cancel the game")
    shown = h.message(panel)
    assert "The game is over" in shown.content and not shown.custom_ids()


async def test_a_card_with_nothing_left_to_decide_is_finished_without_a_click(harness):
    h = harness
    await ada_at_privilege(h, card="8")  # +500 guilders, +6 prestige, draw 2 and discard 1
    record = game(h)
    first = await service(h).decisions.act(h.channel_id, record.id, ADA, None, Use(slot=0))
    assert first.ok and game(h).state.privilege is not None, "one privilege left to use, or to decline"
    second = await service(h).decisions.act(h.channel_id, record.id, ADA, None, Use(slot=1))
    assert second.ok and game(h).state.privilege is None, "both used and nothing to build: the card is done"
    assert [e.type for e in second.events].count("privileges_declined") == 0


async def test_a_card_with_a_building_left_waits_for_its_player(harness):
    h = harness
    await ada_at_privilege(h, card="8")
    record = game(h)
    state = record.state.model_copy(deep=True)
    seat = next(i for i, p in enumerate(state.players) if p.id == str(ADA))
    state.players[seat].tiles.master_builder, state.players[seat].money = True, 5000
    service(h).core._games.put(dataclasses.replace(record, state=state))
    for slot in (0, 1):
        assert (await service(h).decisions.act(h.channel_id, game(h).id, ADA, None, Use(slot=slot))).ok
    assert game(h).state.privilege is not None, "a Church could still be built: Ada decides"


async def test_a_seeded_game_costs_at_most_1_2_interactions_per_decision(tmp_path):
    counts = await play(tmp_path, (ADA, BEN), computers=1, seed=4)
    assert counts.decisions > 50
    assert counts.per_decision <= 1.2, counts
    assert max(counts.panels.values()) == 1, "each player kept one panel all game"


async def test_a_purchase_over_budget_is_refused_with_the_sums_and_changes_nothing(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    panel = (await h.click(ADA, table, label="My hand & actions")).answer
    menu = next(s for s in panel.selects() if s["custom_id"].endswith(":buy"))
    everything = [o["value"] for o in menu["options"]]  # 7 cards cost more than the 1,500 guilders Ada has
    before = game(h).state.model_copy(deep=True)
    tried = await h.select(ADA, panel.message_id, menu["custom_id"], everything)
    assert tried.answer.content.startswith("⚠️") and "guilders" in tried.answer.content.split("\n")[0]
    assert game(h).state == before and str(ADA) in to_act(game(h).state)
    cheapest = min(menu["options"], key=lambda o: int(o["label"].split("(")[1].split()[0].replace(",", "")))
    bought = await h.select(ADA, panel.message_id, menu["custom_id"], [cheapest["value"]])
    assert "Your choice is in" in bought.answer.content and str(ADA) not in to_act(game(h).state)
    h.assert_no_errors()
