"""One wording layer (issue 9): the engine returns codes and data, the wording turns every one into words.

The engine's events and refusals carry no sentences; every refusal code has a
sentence of its own; every event of real games is worded without a gap.
"""

from __future__ import annotations

import random
import string
from typing import get_args

import pytest

from bot.service import Notice, codes
from bot.wording import ENGLISH, People, clock, log, moves, names, notices, phases, undo
from engine import apply, legal_actions, new_game, player_view, spectator_view, to_act
from engine.actions import parse_action
from engine.editions import default
from engine.events import TakenBack
from engine.randomplay import concrete
from engine.refusals import PARAMS
from engine.undo import FINAL
from storage import TableEvent

ED = default()  # the shipped edition

W = ENGLISH
PEOPLE = People(name=lambda p: p.upper())
SAMPLES = {
    "phase": "auction", "action": "bid", "count": 3, "high": 2, "max": 4, "noble": "maria", "card": "maria-15",
    "cost": 700, "money": 650, "tile": "church", "slot": 1, "kind": "offices", "as": "minter", "what": "church",
    "category": "nobility", "level": 3, "player": "ben", "take": "gold", "prestige": 1, "field": "do",
    "problem": "missing", "move": 12, "reason": "revealed",
}


def fallback() -> str:
    return notices.notice(W, "no such code", {}, PEOPLE)


def words_in(value) -> list[str]:
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in words_in(k) + words_in(v)]
    if isinstance(value, (list, tuple)):
        return [w for v in value for w in words_in(v)]
    return [value] if isinstance(value, str) else []


def random_games(count: int):
    """(state before, player, result) for every action of `count` random games, with junk actions mixed in."""
    for seed in range(count):
        rnd = random.Random(seed)
        state, _ = new_game(["ada", "ben", "cleo", "dan", "eve"][: 2 + seed % 4], seed=seed)
        while state.phase != "game_over":
            player = rnd.choice(to_act(state))
            junk = {"do": rnd.choice(["bid", "use", "reveal", "take_card", "fly"]), "count": rnd.randint(-1, 9)}
            anyone = rnd.choice([*(p.id for p in state.players), "zed"])
            yield state, player, apply(state, anyone, junk)
            result = apply(state, player, concrete(rnd.choice(legal_actions(state, player)), rnd))
            yield state, player, result
            state = result.state


@pytest.mark.parametrize("code", sorted(PARAMS))
def test_every_refusal_code_has_its_own_sentence(code):
    text = notices.notice(W, code, {name: SAMPLES[name] for name in PARAMS[code]}, PEOPLE)
    assert text != fallback() and text.endswith(".") and "{" not in text and "_" not in text


def test_the_engine_returns_data_never_sentences():
    """Event fields and refusal parameters are ids and numbers: nothing in them is a sentence."""
    seen = set()
    for _, _, result in random_games(12):
        values = words_in(result.params) if not result.ok else [
            w for e in result.events for w in words_in(e.model_dump(exclude={"type"}))]
        sentences = [v for v in values if " " in v or set(v) & set(string.punctuation) - set("-_")]
        assert not sentences, sentences
        seen.add(result.ok)
    assert seen == {True, False}


def test_every_event_and_refusal_of_real_games_is_worded():
    kinds, codes = set(), set()
    for _state, player, result in random_games(12):
        if not result.ok:
            codes.add(result.code)
            text = notices.notice(W, result.code, result.params, PEOPLE)
            assert text != fallback() and "{" not in text
            continue
        for line in log.lines(W, result.events, PEOPLE, player, ed=ED):
            assert "{" not in line and line[-1] in ".!", line
        kinds |= {e.type for e in result.events}
        view = spectator_view(result.state)
        assert "{" not in phases.status(W, view, PEOPLE)
        for option in legal_actions(result.state, to_act(result.state)[0]) if to_act(result.state) else []:
            if not hasattr(option, "kind"):
                mover = player_view(result.state, to_act(result.state)[0])
                assert "{" not in moves.action(W, option, mover, PEOPLE)
    assert {"bid", "auction_won", "privilege_used", "round_income", "game_over"} <= kinds
    assert {"not_seated", "not_your_turn"} <= codes


def test_plurals_and_numbers():
    assert W.money(1) == "1 guilder" and W.money(1500) == "1,500 guilders"
    assert moves.buy_label(W, 1, 250) == "Buy 1 card for 250 guilders"
    assert moves.buy_label(W, 2, 1500) == "Buy 2 cards for 1,500 guilders"
    assert notices.notice(W, "wrong_count", {"count": 1}, PEOPLE) == "Lay down exactly 1 card."
    assert notices.notice(W, "wrong_count", {"count": 3}, PEOPLE) == "Lay down exactly 3 cards."


def test_names_are_read_back_from_what_players_type():
    for card in ("maria-15", "philipp-1", "joker"):
        assert codes.card_from_name(names.card(W, card), ED) == card
    with pytest.raises(ValueError):
        codes.card_from_name("Maria 18", ED)


def test_service_notices_are_worded_too():
    for code, params in [("table_full", {"most": 5}), ("players_needed", {"least": 2, "most": 5}),
                         ("stale_decision", {}), ("raced", {}), ("game_gone", {})]:
        text = notices.notice(W, Notice(code, params).code, params, PEOPLE)
        assert text != fallback() and "{" not in text


def test_unreadable_actions_are_refused_with_a_code():
    result = apply(new_game(["ada", "ben"], seed=1)[0], "ada", {"do": "fly"})
    assert not result.ok and result.code == "unreadable" and set(result.params) == {"field", "problem"}
    with pytest.raises(ValueError):
        parse_action({"do": "fly"})


@pytest.mark.parametrize("what", get_args(TableEvent.model_fields["what"].annotation))
def test_every_table_event_has_a_sentence(what):
    line = clock.table_event(W, TableEvent(what=what, player="ada", by="ben"), PEOPLE)
    assert line.endswith(".") and "{" not in line and ("ADA" in line or what == "abandoned")


def test_durations_and_the_clock_in_words():
    assert [clock.duration(W, s) for s in (3600, 4 * 3600, 90, 5, None)] == [
        "1 h", "4 h", "2 min", "5 s", "no time limit"]
    assert clock.per_decision(W, 86400) == "24 h per decision"
    assert "<t:1800000000:R>" in clock.due_by(W, "Ada", 1_800_000_000.4)


def test_a_long_lay_down_label_names_whole_cards_and_how_many_more():
    many = [codes.card_from_name(n, ED) for n in ("Maria 15", "Louise 1", "Leo 12", "Philipp 10", "Maria 10",
                                              "Louise 12", "Leo 9", "Maria 7", "Philipp 3", "Louise 5")]
    label = moves.lay_down_label(ENGLISH, many)
    assert len(label) <= 80 and label.startswith("Lay down: Maria 15, Louise 1")
    assert label.endswith("more") and label.rstrip("more").split(" and ")[0].split(", ")[-1] in {
        names.card(ENGLISH, c) for c in many}  # the last name shown is whole
    assert moves.lay_down_label(ENGLISH, many[:2]) == "Lay down: Maria 15, Louise 1"


def test_a_capped_gain_reads_as_one_story_and_says_why():
    from engine.events import PrestigeGained, RoundIncome

    who = People(name=lambda p: {"a": "Alice"}[p])
    income = log.public_line(ENGLISH, RoundIncome(player="a", money=600, prestige=21), who, ED)
    capped = log.public_line(ENGLISH, PrestigeGained(player="a", amount=0, requested=21, reason="round_end"), who, ED)
    assert income == "Alice earns 600 guilders and 21 prestige."
    assert capped.startswith("Alice would gain 21 prestige but gains none") and "25 without a Church" in capped
    some = log.public_line(ENGLISH, PrestigeGained(player="a", amount=4, requested=21, reason="round_end"), who, ED)
    assert some.startswith("Alice would gain 21 prestige but gains only 4:")  # not "keeps only 0 of those"


@pytest.mark.parametrize("lang", ["en", "de", "it"])
def test_help_names_every_command_group_a_newcomer_needs(lang):
    """/augsburg help lists the picture of the table, the log and the records too, the ratings' leaderboard
    and seasons (issue 46), and leaving, replacing, coming back and how one is told (issue 27), as the reader's
    client names them."""
    from bot.wording import rules, words

    text = rules.commands(words(lang))
    wanted = {"en": ["board", "log", "records stats", "records leaderboard", "records season", "seat leave",
                     "seat replace", "seat back", "seat notify", "undo"],
              "de": ["brett", "verlauf", "chronik statistik", "chronik rangliste", "chronik saison", "platz verlassen",
                     "platz ersetzen", "platz zurück", "platz benachrichtigung", "zurücknehmen"],
              "it": ["tabellone", "cronaca", "archivio statistiche", "archivio classifica", "archivio stagione",
                     "posto lascia", "posto sostituisci", "posto rientra", "posto avvisi", "ritira"]}[lang]
    for name in wanted:
        assert f"`/augsburg {name}`" in text


@pytest.mark.parametrize("reason", sorted(set(FINAL.values())))
def test_every_reason_an_undo_is_refused_has_its_own_sentence(reason):
    text = notices.notice(W, "undo_final", {"reason": reason}, PEOPLE)
    assert text != notices.notice(W, "undo_final", {"reason": "no such reason"}, PEOPLE) and text.endswith(".")


@pytest.mark.parametrize("decision", ["bid", "call", "pass", "reveal", "buy", "take_card", "use", "build", "discard",
                                      "done", "compensate", "return_card"])
def test_every_decision_taken_back_has_its_own_public_line_which_shows_nothing_secret(decision):
    """R28: a lay-down or purchase taken back is told as such, never with the cards it held."""
    line = log.public_line(W, TakenBack(player="ben", decision=decision, moves=[7]), PEOPLE, default())
    assert line.startswith(PEOPLE.name("ben")) and "took back" in line and "{" not in line
    assert line != undo.taken_back(W, "no such decision", PEOPLE.name("ben"))
