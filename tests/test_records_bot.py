"""Records through the fake Discord (issue 16): stats, the leaderboard, past games and their files, with
every answer private, notifying nobody, and a running game's file free of anything hidden."""

from __future__ import annotations

import dataclasses
import json
import random
import re

import pytest
from support.bot_support import (
    ADA,
    BEN,
    CLEO,
    STRANGER,
    PublicRecord,
    check_no_leak,
    game,
    make_bot,
    open_and_start,
    service,
    use_old,
)
from support.played import play_game

from bot.discord_app.handlers.records import BOARD_PAGE
from bot.service.export import export_game
from engine import legal_actions, to_act
from engine.randomplay import concrete


def _private(result):
    answer = result.answer
    assert answer.ephemeral, answer
    mentions = answer.allowed_mentions  # exactly nobody: no parsing, no users, no roles
    assert mentions is not None and mentions.get("parse") == [] and not mentions.get("users") \
        and not mentions.get("roles"), mentions
    return answer


async def _finished(h, humans=(str(ADA), str(BEN)), computers=1, seed=3, channel=None):
    return await play_game(service(h), h.guild_id, channel or h.channel_id, list(humans), computers, seed)


async def _stats_of(h, user: int, whose: int):
    """`/augsburg records stats player:` (the fake's slash() types no user options; discord.py reads an
    unresolved user as its id, as it does here)."""
    root, _, _ = h._command("augsburg records stats")
    option = {"name": "player", "type": 6, "value": str(whose)}
    data = {"id": root["id"], "name": "augsburg", "type": 1, "options": [
        {"name": "records", "type": 2, "options": [{"name": "stats", "type": 1, "options": [option]}]}]}
    return await h.send_interaction(h.interaction_payload(user, 2, data))


async def test_stats_leaderboard_and_history_of_finished_games(harness):
    h = harness
    one = await _finished(h, seed=3)
    two = await _finished(h, humans=(str(ADA), str(CLEO)), computers=0, seed=4)
    store = service(h).core.store
    stats = _private(await h.slash(ADA, "augsburg records stats"))
    ada = await store.records.player_stats(str(ADA), h.guild_id)
    assert ada.games == 2 and f"{ada.wins} win" in stats.content and "On this server" in stats.content
    assert "Favourite noble" in stats.content and f"best: {ada.best_score} prestige" in stats.content
    ben = _private(await _stats_of(h, ADA, BEN))
    assert "1 game" in ben.content
    board = _private(await h.slash(CLEO, "augsburg records leaderboard", wins=True))
    assert "Ranked by wins" in board.content
    people = [line for line in board.content.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert len(people) == 3 and not any("Computer" in line for line in people)
    assert "Computer players (never ranked)" in board.content
    hist = _private(await h.slash(BEN, "augsburg records history"))
    assert f"#{one.id}" in hist.content and f"#{two.id}" in hist.content and "🏆" in hist.content
    shown = await h.click(BEN, hist.message_id, f"aug:hg:{one.id}")
    final = _private(shown)
    assert "The game is over" in final.embeds[0]["description"] and f"Game #{one.id}" in final.content
    assert final.has("aug:log:", prefix=True)
    older = await h.click(BEN, final.message_id, label="◀ Earlier")  # the log of a past game pages on
    assert older.answer.kind == "update" and "The game's log" in h.message(final.message_id).content
    forged = json.loads(json.dumps(hist.components).replace(f"aug:hg:{one.id}", "aug:hg:999"))
    gone = await use_old(h, BEN, dataclasses.replace(hist, components=forged), "aug:hg:999")
    assert _private(gone) and "no such game" in gone.answer.content
    h.assert_all_answered()
    h.assert_no_errors()


async def test_cancelled_games_show_in_history_and_never_count(harness):
    h = harness
    await open_and_start(h)
    cancelled = game(h).id
    r = await h.slash(ADA, "augsburg cancel")
    await h.click(ADA, r.answer.message_id, f"aug:cancel:{cancelled}")
    assert game(h) is None
    hist = _private(await h.slash(ADA, "augsburg records history", where="server"))
    assert f"#{cancelled}" in hist.content and "cancelled" in hist.content
    stats = _private(await h.slash(ADA, "augsburg records stats"))
    assert "no finished games yet" in stats.content
    assert (await service(h).core.store.records.leaderboard(h.guild_id))[1] == 0


async def test_leaderboard_pages_and_buttons_outlive_a_restart(harness):
    h = harness
    store = service(h).core.store
    for i in range(BOARD_PAGE + 2):  # more people than a page holds: two-player games between new people
        await _finished(h, humans=(str(2000 + 2 * i), str(2001 + 2 * i)), computers=0, seed=10 + i)
    board = _private(await h.slash(ADA, "augsburg records leaderboard", wins=True))
    assert "page 1 of 3" in board.content
    nxt = await h.click(ADA, board.message_id, label="Next ▶")
    assert nxt.answer.kind == "update" and "page 2 of 3" in h.message(board.message_id).content
    rows, total = await store.records.leaderboard(h.guild_id, BOARD_PAGE, BOARD_PAGE)
    assert total == 2 * (BOARD_PAGE + 2) and f"{rows[0].place}. {rows[0].name}" in h.message(board.message_id).content
    await h.restart(make_bot(h.db_path))  # buttons are routed by their custom ids: a restart changes nothing
    again = await h.click(ADA, board.message_id, label="Next ▶")
    assert again.answer.kind == "update" and "page 3 of 3" in h.message(board.message_id).content
    other = json.loads(json.dumps(board.components).replace(f"aug:lb:{h.guild_id}:", f"aug:lb:{h.guild_id + 1}:"))
    forged = await use_old(h, ADA, dataclasses.replace(board, components=other), f"aug:lb:{h.guild_id + 1}:0")
    assert _private(forged) and "no such game" in forged.answer.content
    assert "page 3 of 3" in h.message(board.message_id).content
    h.assert_all_answered()


async def test_unknown_games_are_refused_politely(harness):
    h = harness
    r = await h.slash(ADA, "augsburg records export", game=999)
    assert _private(r) and "no such game" in r.answer.content
    r = await h.slash(ADA, "augsburg records export")
    assert _private(r) and "no game in this channel" in r.answer.content
    h.assert_all_answered()
    h.assert_no_errors()


async def test_export_of_a_finished_game_is_a_file(harness):
    h = harness
    one = await _finished(h, seed=5)
    r = await h.slash(BEN, "augsburg records export")
    assert _private(r) and "augsburg replay FILE" in r.answer.content
    sent = [q for q in h.requests if q.files]
    assert sent and [f.filename for f in sent[-1].files] == [f"augsburg-{one.id}.json"]
    data = await export_game(service(h).core.store.log, one)
    assert json.loads(sent[-1].files[0].data) == json.loads(json.dumps(data)), "the file is the export"
    assert data["complete"] and data["seed"] == one.table.seed and data["state"] == one.state.model_dump(mode="json")


CARD_ID = re.compile(r"\b(?:philipp|louise|leo|maria)-\d+\b|\bjoker-?\d*\b")


@pytest.mark.parametrize("seed", [1, 2])
async def test_export_of_a_running_game_holds_nothing_hidden(harness, seed):
    h = harness
    await open_and_start(h)
    record, rnd = game(h), random.Random(seed)
    for _ in range(60):  # some play, so that hands, offers, secret choices and private events exist
        p = rnd.choice(to_act(record.state))
        out = await service(h).decisions.act(h.channel_id, record.id, p, None,
                                   concrete(rnd.choice(legal_actions(record.state, p)), rnd))
        record = out.record
    assert record.status == "active"
    assert any(e.to is not None for m in await service(h).games.history(record) for e in m.entries), "nothing private"
    r = await h.slash(STRANGER, "augsburg records export")
    assert _private(r) and "nothing hidden" in r.answer.content
    assert [f.filename for f in [q for q in h.requests if q.files][-1].files] == [f"augsburg-{record.id}.json"]
    check_no_leak(h, PublicRecord())  # nothing public, nobody's own: no card may be named anywhere
    data = await export_game(service(h).core.store.log, record)
    text = json.dumps(data)
    assert not data["complete"] and not {"seed", "actions", "state", "start_player"} & set(data)
    assert str(record.table.seed) not in text
    assert data["table"]["you"] is None  # the spectator's view: no hand, money, offer or choice of anyone
    assert not re.search(r'"(hand|offered|money|deck|chosen|legal_actions|rng)"', json.dumps(data["table"]))
    assert all(e["type"] == "table" or e.get("to") is None for m in data["log"] for e in m["entries"])
    shown = {c for m in data["log"] for e in m["entries"] if e["type"] in ("reveal", "card_discarded")
             for c in CARD_ID.findall(json.dumps(e))}
    shown |= {data["table"]["discard_top"]} - {None}
    assert set(CARD_ID.findall(text)) <= shown, set(CARD_ID.findall(text)) - shown


async def test_stats_show_who_keeps_games_moving_and_the_leaderboard_filters_steady_players(harness):
    h = harness
    await _finished(h, seed=3)
    store = service(h).core.store
    ada = await store.records.player_stats(str(ADA), h.guild_id)
    stats = _private(await h.slash(ADA, "augsburg records stats"))
    assert f"Decided in time: 100% ({ada.in_time} of {ada.decisions})" in stats.content and ada.decisions > 0
    assert "median time to decide:" in stats.content and "Games finished: 1 · left: 0" in stats.content
    await store.db.transaction(lambda tx: tx.execute(  # Ben left that game: the computer finished it for him
        "UPDATE player_totals SET left_games = 1 WHERE player = ?", (str(BEN),)))
    everyone = _private(await h.slash(CLEO, "augsburg records leaderboard", wins=True))
    steady = _private(await h.slash(CLEO, "augsburg records leaderboard", finished=True))
    assert "Only players who finished at least 80% of their games." in steady.content
    ranked = [line for line in steady.content.splitlines() if line[:2] in ("1.", "2.")]
    assert len(ranked) == 1 and f"P{ADA}" in ranked[0]  # Ben finished 0 of 1: filtered out
    assert f"P{BEN}" in everyone.content and f"P{BEN}" not in steady.content
    h.assert_all_answered()
