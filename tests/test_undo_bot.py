"""Taking a decision back through Discord: the panel's Undo button and `/augsburg undo`, a whole game with
undos at every kind of decision (one across a restart), polite refusals that change nothing, and the clock
and computers after an undo."""

from __future__ import annotations

import io
import json
import random

from support.bot_support import (
    ADA,
    BEN,
    CLEO,
    STRANGER,
    PublicRecord,
    clocked_harness,
    game,
    make_bot,
    message_text,
    next_to_act,
    open_and_start,
    service,
    use_old,
)

from bot.service.export import export_bytes
from bot.terminal.replay import replay

UNDO = "aug:undo:"
NAMES = {ADA: "Ada", BEN: "Ben", CLEO: "Cleo"}


def undo_button(panel) -> dict | None:
    return next((b for b in panel.buttons() if b["custom_id"].startswith(UNDO)), None)


async def choose(h, user: int, panel, rnd: random.Random):
    """One of the decisions an open panel offers (button or menu), as a player takes it; the answer."""
    buttons = [b for b in panel.buttons() if b["custom_id"].startswith("aug:do:") and not b.get("disabled")]
    choice = rnd.choice(buttons + panel.selects())
    if choice.get("type") == 2:
        return (await h.click(user, panel.message_id, choice["custom_id"])).answer
    values = [o["value"] for o in choice["options"]]
    picked = rnd.sample(values, rnd.randint(choice.get("min_values", 1), choice.get("max_values", 1)))
    return (await h.select(user, panel.message_id, choice["custom_id"], picked)).answer


async def taken_back(h) -> list:
    record = game(h)
    return [e for m in await service(h).games.history(record) for e in m.entries if e.type == "taken_back"]


async def test_a_whole_game_with_undos_at_every_kind_of_decision_and_one_across_a_restart(harness, tmp_path):
    """Every kind of decision that may be taken back is, somewhere in the game (the panel's Undo button, or
    `/augsburg undo`), and decided again; one Undo is clicked after a restart. The game still ends, every
    public and private message stays within what the player may know, and the public log tells each undo
    without what it held."""
    h = harness
    service(h).lobby.deal_seed = 5
    await open_and_start(h)
    rnd, seen = random.Random(5), PublicRecord()
    kinds, kinds_seen, restarted, typed = set(), [], False, False
    for _ in range(3000):
        user = await next_to_act(h, seen, rnd)
        if user is None:
            break
        table = h.find_message(label="My hand & actions").id
        panel = (await h.click(user, table, label="My hand & actions")).answer
        answer = await choose(h, user, panel, rnd)
        button = undo_button(h.message(answer.message_id))  # as the panel is now (it follows the game)
        decision = game(h).state.moves if button else None
        if button is None or rnd.random() < 0.4:
            continue
        before = len(await taken_back(h))
        if not restarted:
            await h.restart(make_bot(h.db_path))
            await service(h).games.current(h.channel_id)
            restarted = True
        if not typed and rnd.random() < 0.3:
            undone = (await h.slash(user, "augsburg undo")).answer
            typed = True
        else:
            undone = (await h.click(user, answer.message_id, button["custom_id"])).answer
        assert undone.ephemeral and "You took back your last decision" in undone.content, undone.content
        assert undo_button(undone) is None  # the decision is due again, offered as before
        events = await taken_back(h)
        assert len(events) == before + 1 and events[-1].player == str(user) and events[-1].moves[0] <= decision
        kinds.add(events[-1].decision)
        kinds_seen.append(events[-1].decision)
        told = [message_text(m) for m in h.channel_messages.values() if m.embeds and "Latest" in message_text(m)]
        assert f"{NAMES[user]} took back" in told[-1], told[-1]  # the table's latest lines
    assert game(h) is None, "the game did not finish"
    assert restarted and typed
    # The records count each decision made again once, and neither the decision taken back nor the take-back.
    last = await service(h).games.last_game(h.channel_id)
    logged = await service(h).games.history(last)
    gone = {m for move in logged for e in move.entries if e.type == "taken_back" for m in e.moves}
    for user in (ADA, BEN, CLEO):
        counted = [m for m in logged if m.player == str(user) and m.actor in ("player", "ahead", "clock")
                   and m.move not in gone and not any(e.type == "taken_back" for e in m.entries)]
        assert (await service(h).records.player_stats(str(user))).decisions == len(counted)
    # The export keeps the take-backs as moves, and `augsburg replay` plays it back to the same end.
    data = json.loads(export_bytes(await service(h).games.export(last)))
    assert data["complete"] and sum(a["action"]["do"] == "take_back" for a in data["actions"]) == len(kinds_seen)
    path = tmp_path / "game.json"
    path.write_bytes(export_bytes(data))
    out = io.StringIO()
    assert replay(str(path), step=False, stdout=out) == 0
    shown = out.getvalue()  # the replay checks the stored final state, then shows the standings
    assert "The replay ends with the game's stored final state." in shown and "=== Final standings ===" in shown
    assert "took back" in out.getvalue()
    assert {"bid", "pass", "buy", "take_card", "use"} <= kinds, kinds
    h.assert_all_answered()
    h.assert_no_errors()


async def test_a_stale_undo_after_another_player_acted_refuses_politely_and_changes_nothing(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    ada = (await h.click(ADA, table, label="My hand & actions")).answer
    bought = (await h.click(ADA, ada.message_id, label="Buy nothing")).answer
    button = undo_button(bought)
    assert button is not None  # a secret choice: Ben has not chosen yet
    ben = (await h.click(BEN, table, label="My hand & actions")).answer
    await h.click(BEN, ben.message_id, label="Buy nothing")  # the purchase resolves: cards are told
    moves, version = game(h).state.moves, game(h).version
    refused = (await use_old(h, ADA, bought, button["custom_id"])).answer  # a screen not redrawn
    assert refused.ephemeral and "no longer be taken back" in refused.content, refused.content
    assert (game(h).state.moves, game(h).version) == (moves, version)
    again = (await h.slash(ADA, "augsburg undo")).answer
    assert again.ephemeral and "no longer be taken back" in again.content
    outsider = (await h.slash(STRANGER, "augsburg undo")).answer
    assert outsider.ephemeral and "not playing" in outsider.content
    assert game(h).state.moves == moves
    h.assert_all_answered()
    h.assert_no_errors()


async def test_an_undo_made_stale_by_the_next_player_names_them_and_an_old_button_is_refused(harness):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN, CLEO))
    for user in (ADA, BEN, CLEO):  # everybody buys their Philipp cards, so the first auction has choices
        panel = (await h.click(user, table, label="My hand & actions")).answer
        menu = next(s for s in panel.selects() if s["custom_id"].endswith(":buy"))
        picked = [o["value"] for o in menu["options"] if o["label"].startswith("Philipp")]
        if picked:
            await h.select(user, panel.message_id, menu["custom_id"], picked)
        else:
            await h.click(user, panel.message_id, label="Buy nothing")
    record = game(h)
    opener = int(record.state.players[record.state.auction.turn].id)
    panel = (await h.click(opener, table, label="My hand & actions")).answer
    passed = (await h.click(opener, panel.message_id, label="Pass")).answer
    button = undo_button(passed)
    assert button is not None
    undone = (await h.click(opener, passed.message_id, button["custom_id"])).answer
    assert "You took back" in undone.content
    again = (await use_old(h, opener, passed, button["custom_id"])).answer  # the Undo of a screen not redrawn
    assert again.ephemeral and "Nothing was changed" in again.content
    passed = (await h.click(opener, undone.message_id, label="Pass")).answer
    nxt = game(h).state.players[game(h).state.auction.turn].id if game(h).state.phase == "auction" else None
    if nxt is not None and int(nxt) != opener:
        other = (await h.click(int(nxt), table, label="My hand & actions")).answer
        await h.click(int(nxt), other.message_id, label="Pass")
        moves = game(h).state.moves
        refused = (await h.click(opener, passed.message_id, undo_button(passed)["custom_id"])).answer
        name = NAMES[int(nxt)]
        assert f"{name} has acted since" in refused.content and game(h).state.moves == moves
    h.assert_all_answered()
    h.assert_no_errors()


async def test_after_an_undo_the_clock_and_the_computers_follow_the_game_again(tmp_path):
    """Deadlines re-arm as after any move: the player due again gets a clock, whoever is no longer due loses
    theirs; a computer that chose meanwhile in the same secret choice keeps its choice and is not asked again."""
    h = await clocked_harness(tmp_path / "bot.sqlite3", lambda path, clock: make_bot(path, clock=clock,
                                                                                    turn_timeout_seconds=3600))
    try:
        r = await h.slash(ADA, "augsburg new")
        table = r.answer.message_id
        await h.click(BEN, table, label="Join")
        await h.click(ADA, table, label="Add computer player")
        await h.click(ADA, table, label="Start game")
        record = game(h)
        computer = next(s.id for s in record.table.seats if s.kind == "computer")
        assert record.state.purchase.choices.keys() == {2}  # the computer chose at once
        ada = (await h.click(ADA, table, label="My hand & actions")).answer
        bought = (await h.click(ADA, ada.message_id, label="Buy nothing")).answer
        stored = service(h).core.store.deadlines
        timeouts = {d.player for d in await stored.deadlines_of(record.id) if d.kind == "timeout"}
        assert timeouts == {str(BEN)}
        h.clock.advance(600)
        undone = (await h.click(ADA, bought.message_id, undo_button(bought)["custom_id"])).answer
        assert "You took back" in undone.content
        record = game(h)
        deadlines = {(d.player, d.kind): d.due_at for d in await stored.deadlines_of(record.id)}
        assert deadlines[(str(ADA), "timeout")] == h.clock.now() + 3600  # due again: a clock of her own
        assert (str(BEN), "timeout") in deadlines  # still choosing: his clock runs on
        assert computer in {record.state.players[s].id for s in record.state.purchase.choices}
        await h.click(ADA, undone.message_id, label="Buy nothing")
        ben = (await h.click(BEN, table, label="My hand & actions")).answer
        await h.click(BEN, ben.message_id, label="Buy nothing")
        assert game(h).state.phase != "initial_purchase"  # resolved, with the computer's one choice
        h.assert_all_answered()
        h.assert_no_errors()
    finally:
        await h.close()
