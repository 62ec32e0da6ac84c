"""Who keeps games moving (issue 29, point 6): each person's decisions made in time, their median time to
decide, and games finished against games left, kept when a game ends and equal to a recomputation from the
stored logs; the leaderboard can show only the players who finished at least 80% of their games."""

from __future__ import annotations

import json
import random
import statistics

from support.played import play_game

from bot.service import GameService
from engine import apply, legal_actions, new_game, to_act
from engine.editions import default
from engine.randomplay import concrete
from storage import STEADY, Table
from storage.decisions import decisions

T0 = 1_800_000_000.0


def test_a_decision_takes_from_when_its_player_was_due_and_only_their_own_count():
    ed, rnd = default(), random.Random(4)
    state, _ = new_game(["a", "b"], seed=4, edition=ed)
    assert set(to_act(state)) == {"a", "b"}  # the first purchase: both due from the start
    moves, at = [], T0
    plan = [("a", "player", 100), ("b", "clock", 150)]  # a buys at +100; b's time runs out at +250
    for player, actor, after in plan:
        action = concrete(rnd.choice(legal_actions(state, player)), rnd).model_dump()
        at += after
        moves.append((player, actor, at, action))
        state = apply(state, player, action).state
    (first,) = to_act(state)  # the first auction's opener, due from b's purchase on
    action = concrete(rnd.choice(legal_actions(state, first)), rnd).model_dump()
    moves.append((first, "player", at + 600, action))
    state = apply(state, first, action).state
    second = to_act(state)[0]
    action = concrete(rnd.choice(legal_actions(state, second)), rnd).model_dump()
    moves.append((second, "only", at + 601, action))  # the bot took a single option: not counted
    found = decisions(["a", "b"], 4, None, ed, 1, T0, moves)
    assert first == "a" and second == "b"  # this deal's opener
    assert (found["a"].made, found["a"].in_time, found["a"].seconds) == (2, 2, [100, 600])  # due from b's buy
    assert (found["b"].made, found["b"].in_time, found["b"].seconds) == (1, 0, [])  # late; 'only' not counted


async def _recomputed(store, game_ids):
    """Per person: decisions, in time, every time to decide, games, left, from each game's export."""
    per: dict = {}
    for game_id in game_ids:
        exported = await store.log.export_game(game_id)
        if exported["status"] != "finished":
            continue
        table = Table.model_validate(exported["table"])
        edition = store.editions.resolve(table.game_edition)
        moves = [(a["player"], a["actor"], a["at"], a["action"]) for a in exported["actions"]]
        started = next(m.at for m in await store.log.moves_since(game_id, -1) if m.move == 0)  # its deal
        found = decisions(table.players, table.seed, table.start_player, edition, table.game_rules, started, moves)
        for seat in table.seats:
            p = per.setdefault(seat.id, {"made": 0, "in_time": 0, "seconds": [], "games": 0, "left": 0})
            p["made"] += found[seat.id].made
            p["in_time"] += found[seat.id].in_time
            p["seconds"] += found[seat.id].seconds
            p["games"] += 1
            p["left"] += seat.left
    return per


async def test_the_new_statistics_equal_a_recomputation_from_the_stored_logs(store):
    service = GameService(store)
    ids = [(await play_game(service, 1, 10 + n, humans, computers, seed)).id
           for n, (humans, computers, seed) in enumerate([(["a", "b"], 1, 1), (["a", "c"], 0, 2), (["b", "c"], 1, 3)])]
    running = await play_game(service, 1, 20, ["a", "d"], 1, 5, moves=6)
    assert (await service.seats.leave_game(20, running.id, "d")).ok  # d leaves; the computer plays on to the end
    record = service.games.cached(20)
    while record.status == "active":
        decisions = service.decisions
        out = await decisions.play_computer(20) if "a" not in to_act(record.state) else await decisions.act(
            20, record.id, "a", None, concrete(legal_actions(record.state, "a")[0], random.Random(1)))
        record = out.record
    ids.append(record.id)
    expected = await _recomputed(store, ids)
    assert expected["d"]["left"] == 1 and expected["a"]["games"] == 3
    for player, t in expected.items():
        stats = await store.records.player_stats(player, 1)
        assert (stats.decisions, stats.in_time, stats.left, stats.games) == (t["made"], t["in_time"], t["left"],
                                                                             t["games"]), player
        kept = [round(x, 1) for x in t["seconds"]]  # kept to a tenth of a second
        assert stats.median_seconds == (statistics.median(kept) if kept else None)
    stored = await store.db.fetchall("SELECT decide_seconds FROM player_results WHERE player = 'a'")
    assert sum(len(json.loads(r["decide_seconds"])) for r in stored) == len(expected["a"]["seconds"]) > 0
    everyone, _ = await store.records.leaderboard(1, 0, 50)
    steady, total = await store.records.leaderboard(1, 0, 50, steady=True)
    finished = {p: (t["games"] - t["left"]) * 100 >= STEADY * t["games"] for p, t in expected.items()}
    assert {r.player for r in steady} == {r.player for r in everyone if finished[r.player]} and total == len(steady)
    assert "d" in {r.player for r in everyone} and "d" not in {r.player for r in steady}  # 0 of 1 finished
