"""The computer players' remembered answers can all be forgotten (a bot's memory stays flat), and
forgetting changes no decision."""

from __future__ import annotations

import importlib
import pkgutil

import engine.ai
from engine import apply, new_game, player_view, to_act
from engine.ai import memory
from engine.ai.levels import computer


def _decisions(seed: int, moves: int, forget_every: int | None = None) -> list:
    """The normal player's decisions for every seat of a seeded game, forgetting now and then."""
    state, taken = new_game(["a", "b", "c", "d"], seed=seed)[0], []
    for n in range(moves):
        if state.winners:
            break
        if forget_every and n % forget_every == 0:
            memory.forget()
        who = to_act(state)[0]
        action = computer("normal", seed + n).decide(player_view(state, who))
        taken.append(action)
        state = apply(state, who, action).state
    return taken


def test_forgetting_empties_what_a_game_filled_and_changes_no_decision():
    memory.forget()
    remembered = _decisions(11, 150)
    assert memory.remembered() > 100  # a game's worth of plans, bid values and limit losses
    memory.forget()
    assert memory.remembered() == 0
    assert _decisions(11, 150, forget_every=7) == remembered


def test_every_large_remembered_answer_of_the_computer_players_is_forgotten():
    """A cache added later that can grow past SMALL must be listed, or the bot's memory grows again."""
    listed, few = set(map(id, memory._REMEMBERED)), set(map(id, memory.FEW))
    for info in pkgutil.iter_modules(engine.ai.__path__):
        module = importlib.import_module(f"engine.ai.{info.name}")
        for name, value in vars(module).items():
            limit = getattr(value, "cache_parameters", lambda: None)()
            if limit is not None and (limit["maxsize"] is None or limit["maxsize"] > memory.SMALL):
                known = id(value) in listed or id(value) in few or value.__module__ != module.__name__
                assert known, f"{info.name}.{name}"


def test_a_bot_forgets_after_so_many_light_decisions(monkeypatch):
    """The service's light decisions go through its Thinkers, which forget now and then: a bot's
    memory stops growing with the games it serves."""
    from bot.service import thinking

    monkeypatch.setattr(thinking, "FORGET_AFTER", 40)
    thinkers = thinking.Thinkers()
    memory.forget()
    state, seen = new_game(["a", "b", "c"], seed=5)[0], []
    for n in range(120):
        who = to_act(state)[0]
        state = apply(state, who, thinkers.at_once(computer("normal", n), player_view(state, who))).state
        seen.append(memory.remembered())
    assert seen[38] > 0 and seen[39] < seen[38]  # the 40th decision forgot before deciding
    assert max(seen) < 3 * max(seen[:39]) + 50  # and so memory never grows for long


def test_remembered_answers_are_keyed_by_numbers_and_text_that_the_collector_lets_go():
    """Issue 44: keys holding the edition, the horizon or the weights themselves stayed objects every full
    garbage collection walks, some 16,000 between two forgettings in a bot; keyed by their atoms, the
    collector stops tracking them the first time it sees them."""
    import gc

    from engine.ai import bidding, plan

    memory.forget()
    _decisions(11, 150)
    for _ in range(4):  # (a collection may see a key before a tuple inside it: a later one lets it go)
        gc.collect()
    tables = {"plans listed": plan._LISTS, "plans": plan._PLANS, "cards": plan._CARDS, "laid": bidding._LAID}
    assert all(tables.values()), {name: len(t) for name, t in tables.items()}
    for name, table in tables.items():
        tracked = [key for key in table if gc.is_tracked(key)]
        assert not tracked, f"{name}: {len(tracked)} keys the collector walks, e.g. {tracked[0]!r:.120}"


def test_options_naming_players_are_not_remembered():
    """The privilege options are made once each, but a step taken from another player names that player:
    remembered, a bot's thousands of players filled the table (4,096 options, 16,000 objects the full
    collections walk). Whole games with steps taken from others leave no option naming a player there."""
    import gc

    from engine import privileges
    from engine.actions import Use

    taken_from = 0
    for seed in range(1, 9):
        state = new_game([f"p{seed}-{k}" for k in range(4)], seed=seed)[0]
        while not state.winners:
            who = to_act(state)[0]
            action = computer("normal", seed).decide(player_view(state, who))
            taken_from += isinstance(action, Use) and action.from_ is not None
            state = apply(state, who, action).state
    assert taken_from, "no game took a step from another player: the test shows nothing"
    remembered = [key for table in gc.get_referents(privileges._option) if isinstance(table, dict) for key in table]
    assert remembered and not [key for key in remembered if "from_" in key]


def test_atoms_are_one_number_per_value_even_from_threads():
    """Heavy decisions may run in a thread beside the loop's light ones: two values new at the same moment
    must never share a number (their remembered answers would be taken for each other's)."""
    import sys
    import threading

    from engine.ai.atoms import atom
    from engine.ai.situation import Horizon

    values = [Horizon(scorings=900 + n, incomes=n, purchases=n, auctions=n, last_round=False)
              for n in range(4000)]
    numbers: dict[int, list[int]] = {}
    together = threading.Barrier(4)

    def number_all(k: int) -> None:
        together.wait()
        numbers[k] = [atom(v) for v in (values if k % 2 else values[::-1])]

    threads = [threading.Thread(target=number_all, args=(k,)) for k in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns between almost any two steps
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    by_value = {i: {numbers[k][i if k % 2 else len(values) - 1 - i] for k in numbers} for i in range(len(values))}
    assert all(len(seen) == 1 for seen in by_value.values()), "a value got two numbers"
    assert len({next(iter(seen)) for seen in by_value.values()}) == len(values), "two values share a number"
    assert atom(Horizon(scorings=900, incomes=0, purchases=0, auctions=0, last_round=False)) == by_value[0].pop()
