"""Every feature at once (issue 41, point 5): a stateful, model-based test of the game service.

A hypothesis `RuleBasedStateMachine` plays games through the service, on SQLite and on PostgreSQL (a fresh
database for each example), at tables of 2 to 5 seats (people and computers, the default edition or another),
mixing at random: decisions (by button, typed, or from a stale panel), decisions settled ahead (before the turn
came, made by the bot when it comes; or chosen on a panel drawn before the turn came, once it has: the move),
take-backs, time away and back, the clock running out (twice in a row: a stand-in) as the scheduler fires it
(reminders, pings put off, computers' markers too), people's hours and daily words (the clock counting only time
inside a person's hours, bounded by three days), the bot's own moves (computers, stand-ins, time away, only
options, plans), leaving, the host replacing a timed-out seat, the game dropped from the cache, restarts (a new
service on the same store, or the database reopened), two requests racing on the same game (a click as the
clock runs out among them), and on PostgreSQL the connection lost under a move's one statement (after it ran,
or before). A game that ends is followed by another table.

After every step, whatever the step did:
- nothing raised, and nothing was logged at ERROR;
- the stored log replays to the stored game (storage's own replay, and move by move), the game is neither
  quarantined nor its log noted as damaged, and the game the service holds is the stored one;
- every move the service acknowledged is stored exactly once, where its outcome said, and nothing else is (the
  model keeps the log it expects: a take-back is a row of its own, nothing is deleted); a step refused
  throughout changed nothing;
- everyone the clock runs for has a deadline, and no deadline is left due once the scheduler has fired;
- the clock decides for a person only inside their hours (or a moment after a window's end, or at the bound),
  no timeout waits past the bound, nobody is reminded outside their hours, and a daily word lists exactly
  the games where its person is due or next; every person's games (`mine`) list this one while they sit at it;
- nothing private shows: the public log and the table's embed name only cards the game made public, and each
  person's panel and catch-up only those and cards they have held (support/bot_support.py's rules, every
  state of the game replayed from its log).

Deterministic: a fixed number of examples, derandomized, no example database; that every feature was met is
asserted too. What the machine found is at the end, as plain regression tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import shutil
import tempfile
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)
from support.bot_support import CARDS_SHOWN, card_names, name_of
from support.clock import ManualClock
from support.postgres import admin_execute, database_url

from bot.discord_app.embeds import table_embed
from bot.discord_app.panels import panel
from bot.discord_app.people import people
from bot.service import GameService, Thinkers, Timing
from bot.service.automatic import auction_id
from bot.service.hours import BOUND, LATE
from bot.service.showing import due_of
from bot.service.turns import on_clock, people_due
from bot.wording import ENGLISH
from bot.wording.history import catch_up, log_pages, move_lines, newest_page
from engine import spectator_view, to_act
from engine.actions import Done
from engine.editions import Library, read_file
from engine.randomplay import concrete
from engine.state import GameState
from engine.undo import History
from storage import Seat, Table
from storage.repair import playable, replay_table

CHANNEL, GUILD, HOUR, DAY = 700, 7, 3600, 86400
TEST_BOX = read_file(Path(__file__).resolve().parent / "editions" / "test-box.toml")
PEOPLE = {"101": "Ada", "102": "Ben", "103": "Cleo", "104": "Dan", "105": "Eve"}
BY_PLAYER = ("player", "only", "ahead")  # the actors whose moves are a player's own (bot/service/undo.py)
# Computers due get a marker a minute ahead, as in the bot (the scheduler sets them going after a restart).
TIMING = Timing(turn_seconds=HOUR, reminder_seconds=HOUR / 4, computer_marker=60.0)
WATCH = 300  # a person watching their panel is pinged this long after their decision came, if still due


def thinkers() -> Thinkers:
    """No strong computers here: their thinking is capped by wall time (nor deterministic with a small cap, nor
    quick without one). A thread, should one play."""
    return Thinkers(workers=0)

# The runs are bounded (CI): about a minute per backend on two shared cores. More, to hunt (the same ones
# every run still): FEATURES_MEET_EXAMPLES=200 (the features are then asserted as well).
EXAMPLES = int(os.environ.get("FEATURES_MEET_EXAMPLES", "15"))
STEPS = int(os.environ.get("FEATURES_MEET_STEPS", "35"))
RUNS = settings(max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck), print_blob=False)

# What may happen next, as often as it is listed (the game over, another table opens instead).
MENU = ["decide"] * 4 + ["bot_moves"] * 3 + ["play_on"] * 2 + ["settle_ahead"] * 3 + ["settle_on_an_old_panel"] * 2 \
    + ["take_back"] * 3 + ["time_away"] * 3 + ["reclaim", "leave", "forget", "restart"] + ["time_passes"] * 3 \
    + ["replace"] * 2 + ["race"] * 3 + ["watch"] + ["hours"] * 3

# What the examples of one run did, to assert that every feature was met (they are the same every run).
FEATURES: Counter[str] = Counter()
EVERY_FEATURE = {
    "decision", "only_or_plan_by_the_bot", "computer", "settled_before_turn", "made_as_settled", "settled_once_due",
    "taken_back", "away", "back_from_away", "away_over", "clock_ran_out", "stand_in", "left", "replaced",
    "other_edition", "forgotten", "restarted", "reopened", "raced", "refused", "game_over", "public_cards",
    "computer_marker", "ping_put_off", "raced_the_clock", "hours_set", "clock_inside_hours",
    "clock_waited_for_hours", "daily_word", "abandoned",
}
# People's hours (issue 43): zones around the world, daily windows (over midnight too).
ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney")
WINDOWS = ((18, 23), (22, 2), (8, 20), (6, 9), (12, 13))


class ErrorLog(logging.Handler):
    """Every record logged at ERROR or above while the machine runs."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class FeaturesMeet(RuleBasedStateMachine):
    backend = "sqlite"
    admin: str | None = None  # the PostgreSQL server's admin URL

    def __init__(self):
        super().__init__()
        self.runner = asyncio.Runner()
        self.clock = ManualClock()
        self.library = Library([TEST_BOX])
        self.errors = ErrorLog()
        logging.getLogger().addHandler(self.errors)
        self.url = self.folder = self.dbname = None
        self.service: GameService | None = None
        self.game_id: int | None = None
        self.active = False
        self.racer: str | None = None
        self.held: list[tuple[GameState, str]] = []  # states the service held at earlier steps, as they were
        self.decisions_made = 0

    def run(self, work):
        return self.runner.run(work)

    # --- a fresh database, a table, a game

    @initialize(data=st.data())
    def open_database_and_table(self, data):
        if self.backend == "sqlite":
            self.folder = tempfile.mkdtemp(prefix="features-meet-")
            self.url = f"sqlite:///{Path(self.folder) / 'games.sqlite3'}"
        else:
            self.dbname = f"augsburg_meet_{uuid.uuid4().hex[:12]}"
            self.run(admin_execute(self.admin, f"CREATE DATABASE {self.dbname}"))
            self.url = database_url(self.admin, self.dbname)
        self.service = self.run(GameService.open(self.url, clock=self.clock, timing=TIMING, editions=self.library,
                                                 thinkers=thinkers()))
        self.new_game(data)

    def another_table(self, data):
        """The game ended (or was abandoned): the channel opens a new table."""
        self.new_game(data)

    def new_game(self, data) -> None:
        seats = data.draw(st.integers(2, 5), label="seats")
        count = data.draw(st.integers(1, seats), label="people")
        humans = list(PEOPLE)[:count]
        edition = data.draw(st.sampled_from(["default", TEST_BOX.id]), label="edition")
        turn = data.draw(st.sampled_from([HOUR, HOUR, 4 * HOUR, None]), label="turn_seconds")
        away = data.draw(st.sampled_from([3, 7, 14, 0]), label="away_days")
        waits = data.draw(st.booleans(), label="away_waits")
        levels = [data.draw(st.sampled_from(["easy", "normal"]), label="level") for _ in range(seats - count)]
        seed = data.draw(st.integers(0, 2**31), label="deal")
        for person in humans:  # their hours, for all their games (kept from the table before, or set anew)
            hours = data.draw(st.sampled_from(["kept", "any_time", *WINDOWS]), label="hours")
            if hours != "kept":
                zone = data.draw(st.sampled_from(ZONES), label="zone")
                window, any_time = (None, True) if hours == "any_time" else (hours, False)
                assert self.run(self.service.mine.set_hours(person, zone, window, any_time)).ok
        self.run(self._new_game(humans, levels, edition, turn, away, waits, seed))

    async def _new_game(self, humans, levels, edition, turn, away, waits, seed) -> None:
        lobby, host = self.service.lobby, humans[0]
        opened = await lobby.open_table(GUILD, CHANNEL, Seat(id=host, name=PEOPLE[host]))
        assert opened.ok, opened.notice
        game_id = opened.record.id
        for p in humans[1:]:
            assert (await lobby.join(CHANNEL, game_id, Seat(id=p, name=PEOPLE[p]))).ok
        for level in levels:
            assert (await lobby.add_computer(CHANNEL, game_id, host, level)).ok
        assert (await lobby.set_turn_time(CHANNEL, game_id, host, turn)).ok
        assert (await lobby.set_away_rule(CHANNEL, game_id, host, away, waits)).ok
        if edition != "default":
            assert (await lobby.set_edition(CHANNEL, game_id, host, edition)).ok
            FEATURES["other_edition"] += 1
        started = await lobby.start(CHANNEL, game_id, host, seed=seed)
        assert started.ok, started.notice
        assert started.record.state.edition.id == (TEST_BOX.id if edition != "default" else "estimates-1")
        self.game_id, self.humans, self.active = game_id, humans, True
        self.rows: list[tuple] = []  # the log as the model expects it: (player, action, actor)
        self.version = started.record.version
        self.history = History(started.record.table.players, started.record.table.seed,
                               started.record.table.start_player, started.record.state.edition,
                               started.record.table.game_rules)
        self.public: set[str] = set()  # the cards the game has made public so far (English names)
        self.own: dict[str, set[str]] = {}  # the cards each player has held or been offered
        self.saw(self.history.state)  # the deal
        self.told = -1  # the public log is worded up to this move
        self.panels: dict[str, tuple[str, list]] = {}  # a person's ahead menu as drawn before their turn came
        self.plans: dict[str, object] = {}  # what each person settled ahead, as the model knows it
        self.undo_offers: dict[str, int] = {}  # the move each person's last Undo button names
        self.keys: dict[str, str] = {}  # the decision each person's last panel was drawn for
        self.step_start()

    # --- one step: what happens next (one rule, so that every example mixes every feature: hypothesis would
    # otherwise leave some rules out of each example, "swarm testing")

    @rule(what=st.sampled_from(MENU), data=st.data())
    def step(self, what, data):
        if not self.active:
            what = what if what in ("forget", "restart") else "another_table"
        elif what == "settle_on_an_old_panel" and not self.panels:
            what = "settle_ahead"
        getattr(self, what)(data)

    # --- bookkeeping of one step

    def step_start(self) -> None:
        self.acked: list[tuple[str, object]] = []  # (kind, outcome) of every acknowledged move of the step
        self.wrote = False

    def note(self, kind: str, outcome) -> None:
        """An answer of the service: a move it acknowledged is one the log must hold exactly once."""
        if outcome is None:
            return
        if not outcome.ok:
            FEATURES["refused"] += 1
            return
        self.wrote = True
        if outcome.action is not None:
            assert outcome.record is not None and outcome.record.id == self.game_id
            self.acked.append((kind, outcome))
            if outcome.undo is not None:
                self.undo_offers[outcome.player] = outcome.undo
            if outcome.record.status == "finished":
                FEATURES["game_over"] += 1

    def record(self):
        return self.run(self.service.games.current(CHANNEL))

    def record_is_active(self) -> bool:
        record = self.record()
        return record is not None and record.status == "active"

    def choices(self, record) -> dict:
        """Each seated person's decision now, as their panel shows it."""
        return {p: self.service.games.decision(record, p) for p in self.humans}

    def pick_action(self, data, decision):
        option = data.draw(st.sampled_from(decision.options), label="option")
        return concrete(option, random.Random(data.draw(st.integers(0, 2**16), label="sample")))

    # --- decisions

    def decide(self, data):
        """A person due picks one of their options (a button, or typed: no key); a seat the computer plays
        is theirs again when they decide, and a seat they left is refused. With no person due, the bot moves
        first, until one is."""
        record = self.record()
        due = {p: d for p, d in self.choices(record).items() if d.options}
        if not due and self.run(self._bot_moves(30)):
            record = self.record()
            due = {p: d for p, d in self.choices(record).items() if d.options} if record is not None else {}
        if not due:
            return
        player = data.draw(st.sampled_from(sorted(due)), label="player")
        action = self.pick_action(data, due[player])
        # Its panel's key, or typed (no key), or a panel drawn for an earlier decision (refused as stale, unless
        # that decision is still the one due: a secret choice lasts).
        key = data.draw(st.sampled_from([due[player].key, None, self.keys.get(player, "0")]), label="key")
        self.keys[player] = due[player].key
        # On PostgreSQL the connection is lost under every other move's one statement, after it ran or before:
        # the move is stored once either way (read back, or sent again), as acknowledged. (Counted, not drawn:
        # a draw would change the examples, and with them the features they meet.)
        self.decisions_made += 1
        lost = None if self.backend == "sqlite" else (None, "after", None, "before")[self.decisions_made % 4]
        with losing_a_connection(lost) as hit:
            outcome = self.run(self.service.decisions.act(CHANNEL, self.game_id, player, key, action))
        self.note("act", outcome)
        if outcome.ok:
            FEATURES["decision"] += 1
        if hit:
            assert outcome.ok, f"a move whose connection was lost {lost} its statement: {outcome.notice}"
            FEATURES["lost_under_a_move"] += 1

    def bot_moves(self, data):
        """What the bot moves by itself: computers, stand-ins, time away, only options, plans settled ahead."""
        self.run(self._bot_moves(data.draw(st.integers(1, 12), label="most")))

    async def _bot_moves(self, most: int) -> int:
        made = 0
        for _ in range(most):
            before = await self.service.games.current(CHANNEL)
            outcome = await self.service.decisions.play_computer(CHANNEL)
            if outcome is None:
                break
            assert outcome.ok, f"the bot's own move was refused: {outcome.notice}"  # light levels: never stale
            self.note("bot", outcome)
            made += 1
            if outcome.actor == "ahead":
                plan = self.plans.get(outcome.player)
                assert plan is not None and plan.auction == auction_id(before.state), (outcome.player, plan)
                FEATURES["made_as_settled"] += 1
            FEATURES["only_or_plan_by_the_bot" if outcome.actor in ("only", "ahead") else "computer"] += 1
        return made

    def play_on(self, data):
        """Many moves at once, to reach later phases: the bot's own, then a due person's at random."""
        moves = data.draw(st.integers(1, 120), label="moves")
        self.run(self._play_on(moves, random.Random(data.draw(st.integers(0, 2**16), label="seed"))))

    async def _play_on(self, moves: int, rnd: random.Random) -> None:
        for _ in range(moves):
            if not await self._one_move(rnd):
                return

    async def _one_move(self, rnd: random.Random) -> bool:
        """The bot's next move, else a random due person's; False once the game is over."""
        if await self._bot_moves(1):
            return True
        record = await self.service.games.current(CHANNEL)
        if record is None or record.status != "active":
            return False
        due = sorted(people_due(record.state, record.table))
        assert due, f"nobody moves the game on: {to_act(record.state)}, {record.table.seats}"
        player = rnd.choice(due)
        decision = self.service.games.decision(record, player)
        action = concrete(rnd.choice(decision.options), rnd)
        outcome = await self.service.decisions.act(CHANNEL, self.game_id, player, decision.key, action)
        assert outcome.ok, outcome.notice
        self.note("act", outcome)
        return True

    def advance(self, data, until, most: int = 80):
        """Play on (as play_on) until `until(record)` holds; the record then, or None (the game ended, or it did
        not come to hold)."""
        rnd = random.Random(data.draw(st.integers(0, 2**16), label="moves_seed"))

        async def work():
            for _ in range(most + 1):
                record = await self.service.games.current(CHANNEL)
                if record is None or record.status != "active":
                    return None
                if until(record):
                    return record
                if not await self._one_move(rnd):
                    return None
            return None

        return self.run(work())

    # --- deciding ahead

    def settle_ahead(self, data):
        """A person still in the auction, not yet due, settles (or clears, or only looks at) their next decision
        (the game is played on until someone can); the panel it was chosen on is kept, to be used again once
        the turn has come."""
        record = self.advance(data, lambda r: any(self.choices(r)[p].ahead for p in present(r, self.humans)))
        if record is None:
            return
        open_to = [p for p in present(record, self.humans) if self.choices(record)[p].ahead]
        player = data.draw(st.sampled_from(open_to), label="player")
        shown = list(self.service.games.decision(record, player).ahead)
        auction = auction_id(record.state)
        self.panels[player] = (auction, shown)
        look = data.draw(st.booleans(), label="only_look")
        ahead = None if look else data.draw(st.sampled_from(shown), label="ahead")
        outcome = self.run(self.service.ahead.settle(CHANNEL, self.game_id, player, auction, ahead))
        self.note("settle", outcome)
        assert outcome.ok and outcome.action is None, "settled before the turn came: stored, no move"
        self.plans[player] = ahead
        FEATURES["settled_before_turn"] += ahead is not None

    def settle_on_an_old_panel(self, data):
        """A choice of a panel drawn before the turn came: once the turn has come it is the move; an auction
        ended since, it is refused."""
        player = data.draw(st.sampled_from(sorted(self.panels)), label="player")
        auction, shown = self.panels[player]
        if data.draw(st.booleans(), label="wait_for_the_turn"):  # the game is played on until it comes
            record = self.advance(data, lambda r: player in to_act(r.state) or auction_id(r.state) != auction, 40)
        else:
            record = self.record()
        if record is None:
            return
        ahead = data.draw(st.sampled_from(shown), label="ahead")
        due = player in to_act(record.state) and auction_id(record.state) == auction
        outcome = self.run(self.service.ahead.settle(CHANNEL, self.game_id, player, auction, ahead))
        self.note("settle", outcome)
        if outcome.ok and due:
            assert outcome.action is not None and outcome.actor == "player", "once due, settling is the move"
            FEATURES["settled_once_due"] += 1
        elif outcome.ok:
            self.plans[player] = ahead

    # --- taking back

    def take_back(self, data):
        """A seated person takes back their last decision: by the Undo button they were just offered (after a
        decision of theirs), typed, or by an old button; many are refused, and that changes nothing."""
        if data.draw(st.booleans(), label="right_after_a_decision"):
            self.decide(data)
        latest = max([len(self.rows), *(outcome.record.state.moves for _, outcome in self.acked)])
        offered = sorted(p for p, move in self.undo_offers.items() if move >= latest - 1)  # a card finished after
        player = data.draw(st.sampled_from(offered + self.humans), label="player")
        move = data.draw(st.sampled_from([self.undo_offers.get(player), None, len(self.rows) or None]), label="move")
        outcome = self.run(self.service.undo.take_back(CHANNEL, self.game_id, player, move))
        self.note("undo", outcome)
        if outcome.ok:
            FEATURES["taken_back"] += 1

    # --- hours, the daily word

    def hours(self, data):
        """A person sets their hours once for all their games: a zone and a daily window, or any time; or a
        daily word instead of pings (or none); a window of no hours is refused."""
        player = data.draw(st.sampled_from(self.humans), label="player")
        what = data.draw(st.sampled_from(["window", "window", "any_time", "daily", "empty"]), label="hours")
        mine = self.service.mine
        if what == "window":
            zone = data.draw(st.sampled_from(ZONES), label="zone")
            outcome = self.run(mine.set_hours(player, zone, data.draw(st.sampled_from(WINDOWS), label="window")))
        elif what == "any_time":
            outcome = self.run(mine.set_hours(player, any_time=True))
        elif what == "daily":
            outcome = self.run(mine.set_daily(player, data.draw(st.sampled_from([7, 19, None]), label="at")))
        else:
            outcome = self.run(mine.set_hours(player, window=(5, 5)))
            assert not outcome.ok, "a window of no hours"
        self.note("hours", outcome)
        if outcome.ok:
            FEATURES["hours_set"] += 1

    # --- time away, the clock, seats

    def time_away(self, data):
        """A person goes away for some days (at most what the host allows), or says they are back (0 days)."""
        record = self.record()
        away = [s.id for s in record.table.seats if s.away_until is not None]
        if away and data.draw(st.booleans(), label="back"):
            player, days = data.draw(st.sampled_from(away), label="player"), 0
        else:
            player = data.draw(st.sampled_from(self.humans), label="player")
            days = data.draw(st.sampled_from([1, 0, 3, 7, 15]), label="days")
        outcome = self.run(self.service.away.go_away(CHANNEL, player, days))
        self.note("away", outcome)
        if outcome.ok:
            FEATURES["away" if days else "back_from_away"] += 1
        if outcome.ok and days and data.draw(st.booleans(), label="days_pass"):  # the whole time away
            self.clock.advance(outcome.record.table.seat(player).away_until - self.clock.now() + 1)
            self.run(self._fire_due())

    def reclaim(self, data):
        player = data.draw(st.sampled_from(self.humans), label="player")
        outcome = self.run(self.service.seats.reclaim(CHANNEL, player))
        self.note("reclaim", outcome)
        if outcome.ok:
            FEATURES["back_from_away"] += 1

    def time_passes(self, data):
        """Nobody clicks for a while: the clock moves to one of the game's deadlines (or some minutes on) and the
        scheduler fires what is due (a timeout makes the computer decide, twice in a row it stands in; a time
        away ends; a reminder goes), the bot makes its moves; a few times over."""
        for _ in range(data.draw(st.integers(1, 4), label="times")):
            stored = self.run(self.service.deadlines.deadlines_of(self.game_id))
            kind = data.draw(st.sampled_from(["timeout", "any", "away", "minutes"]), label="until")
            targets = sorted({d.due_at for d in stored if kind == "any" or d.kind == kind})
            until = data.draw(st.sampled_from(targets), label="deadline") + 1 if targets else self.clock.now() + 1200
            self.clock.advance(max(0.0, until - self.clock.now()))
            self.run(self._fire_due())
            self.run(self._bot_moves(20))
            if not self.record_is_active():
                return

    async def _fire_due(self) -> None:
        """As the bot's scheduler fires deadlines (bot/discord_app/upkeep.py), until none is due."""
        service = self.service
        for _ in range(10):
            due = await service.deadlines.deadlines(due_before=self.clock.now())
            if not due:
                return
            for deadline in due:
                hours, now = await service.core.hours.of(deadline.player), self.clock.now()
                if deadline.kind == "timeout":
                    outcome = await service.decisions.expire(deadline)
                    assert outcome is None or outcome.ok, outcome.notice  # the bot raises, and tries again
                    self.note("clock", outcome)
                    since = deadline.payload["since"]
                    if outcome is None:
                        later = [d.due_at for d in await service.deadlines.deadlines_of(deadline.game_id)
                                 if (d.player, d.kind) == (deadline.player, "timeout") and d.due_at > now]
                        if later and not hours.inside(now):
                            FEATURES["clock_waited_for_hours"] += 1
                            assert later[0] <= since + BOUND, "a timeout put off past the bound"
                    if outcome is not None and outcome.actor == "clock":
                        FEATURES["clock_ran_out"] += 1
                        assert hours.inside(now) or (hours.inside(deadline.due_at) and now - deadline.due_at <= LATE) \
                            or now >= since + BOUND, f"decided for outside their hours: {deadline}, {hours}"
                        FEATURES["clock_inside_hours"] += not hours.any_time
                        seat = outcome.record.table.seat(deadline.player)
                        if seat.stand_in and seat.streak >= 2:
                            FEATURES["stand_in"] += 1
                elif deadline.kind == "away":
                    outcome = await service.away.away_over(deadline)
                    assert outcome is None or outcome.ok, outcome.notice
                    self.note("away_over", outcome)
                    if outcome is not None:
                        FEATURES["away_over"] += 1
                elif deadline.kind == "reminder":
                    if await service.decisions.remind(deadline) is not None:
                        assert hours.inside(now), f"a reminder outside their hours: {deadline}, {hours}"
                        await service.decisions.reminded(deadline)
                elif deadline.kind == "daily":  # a person's daily word: the games where they are due or next
                    games = await service.mine.daily(deadline)
                    if games is not None:
                        FEATURES["daily_word"] += 1
                        assert all(g.mine or g.soon for g in games)
                        record = await service.games.current(CHANNEL)
                        if record is not None and record.status == "active" and deadline.player in due_of(
                                record).people and deadline.player in present(record, self.humans):
                            assert record.id in [g.record.id for g in games], "a game due is missing from the word"
                elif deadline.kind == "heads_up":  # (set by the Discord front-end only)
                    await service.pings.heads_up_due(deadline)
                elif deadline.kind == "computer":  # the bot sets its computers going: their move replaces it
                    if await service.decisions.computer_due(deadline):
                        assert await self._bot_moves(1), f"a computer's marker stands, but nobody moves: {deadline}"
                        FEATURES["computer_marker"] += 1
                elif deadline.kind == "ping":  # put off while they watched: pinged now, if still due
                    record = await service.pings.due(deadline)
                    if record is not None:
                        await service.pings.pinged(record, {deadline.player})
                        FEATURES["ping_put_off"] += 1
                else:
                    raise AssertionError(f"a deadline nobody plans here: {deadline}")
        raise AssertionError(f"deadlines are still due after firing ten times: {due}")

    def leave(self, data):
        player = data.draw(st.sampled_from(self.humans), label="player")
        outcome = self.run(self.service.seats.leave_game(CHANNEL, self.game_id, player))
        self.note("leave", outcome)
        if outcome.ok:
            FEATURES["left"] += 1
            if outcome.record is not None and outcome.record.status == "abandoned":
                FEATURES["abandoned"] += 1  # (everyone left: it counts in their reliability as left)

    def replace(self, data):
        """The host (or a channel manager, or someone else: refused) hands a seat to the computer."""
        record = self.record()
        late = [s.id for s in record.table.seats if s.kind == "human" and s.missed and not s.computer_plays]
        target = data.draw(st.sampled_from(late or self.humans), label="target")
        by = data.draw(st.sampled_from([record.table.host, *self.humans]), label="by")
        manager = data.draw(st.booleans(), label="can_manage")
        outcome = self.run(self.service.seats.replace(CHANNEL, self.game_id, by, target, manager))
        self.note("replace", outcome)
        if outcome.ok:
            FEATURES["replaced"] += 1

    # --- memory and processes

    def watch(self, data):
        """Some people due watch their panel: their ping is put off, owed if they have not decided in time (and
        maybe they do not: the minutes pass)."""
        record = self.record()
        due = sorted(people_due(record.state, record.table))
        if not due:
            return
        watching = set(data.draw(st.lists(st.sampled_from(due), min_size=1, unique=True), label="watching"))
        self.run(self.service.pings.put_off(record, watching, self.clock.now() + WATCH))
        if data.draw(st.booleans(), label="minutes_pass"):
            self.clock.advance(WATCH + 1)
            self.run(self._fire_due())

    def forget(self, data):
        """The game is dropped from the cache: the next request reads what is stored."""
        self.service.core.forget(CHANNEL)
        FEATURES["forgotten"] += 1

    def restart(self, data):
        """A restart: a new service, on the same store (nothing in memory survives) or the database reopened."""
        old, reopen = self.service, data.draw(st.booleans(), label="reopen")
        if reopen:
            self.run(old.close())
            self.service = self.run(GameService.open(self.url, clock=self.clock, timing=TIMING,
                                                     editions=self.library, thinkers=thinkers()))
            FEATURES["reopened"] += 1
        else:
            old.decisions.thinkers.close()
            self.service = GameService(old.core.store, self.clock, TIMING, thinkers())
            FEATURES["restarted"] += 1

    # --- races

    def race(self, data):
        """Two requests on the same game at once (the second a few event loop turns later); both are answered,
        and what was acknowledged is stored."""
        pair = data.draw(st.sampled_from(["decide:decide", "clock:decide", "decide:same", "decide:undo", "decide:bot",
                                          "clock:decide", "settle:decide", "undo:undo", "bot:bot", "leave:decide",
                                          "away:decide", "undo:bot"]), label="pair")
        later = data.draw(st.integers(0, 3), label="later")
        record = self.record()
        choices = self.choices(record)
        due = sorted(p for p, d in choices.items() if d.options)
        first, second = pair.split(":")
        self.racer = None  # the person the first request is about, whom the second is about too if it can be
        one = self.request(data, first, record, choices, due)
        other = one if second == "same" else self.request(data, second, record, choices, due)
        if one is None or other is None:
            return

        async def delayed(work):
            for _ in range(later):
                await asyncio.sleep(0)
            return await work()

        async def both():
            return await asyncio.gather(one[1](), delayed(other[1]))

        for (kind, _), outcome in zip((one, other), self.run(both()), strict=True):
            self.note(kind, outcome)
        FEATURES["raced"] += 1
        if first == "clock":
            FEATURES["raced_the_clock"] += 1
            self.run(self._fire_due())  # the scheduler goes on with whatever else is due by now

    def request(self, data, kind, record, choices, due):
        """(kind, a coroutine function making one request of that kind) for the race, or None."""
        service, game_id = self.service, self.game_id
        if kind == "decide":
            if not due:
                return None
            player = self.racer if self.racer in due else data.draw(st.sampled_from(due), label="player")
            action, key = self.pick_action(data, choices[player]), choices[player].key
            return "act", lambda: service.decisions.act(CHANNEL, game_id, player, key, action)
        if kind == "undo":
            player = data.draw(st.sampled_from(self.humans), label="player")
            return "undo", lambda: service.undo.take_back(CHANNEL, game_id, player, None)
        if kind == "bot":
            return "bot", lambda: service.decisions.play_computer(CHANNEL)
        if kind == "leave":
            player = data.draw(st.sampled_from(self.humans), label="player")
            return "leave", lambda: service.seats.leave_game(CHANNEL, game_id, player)
        if kind == "away":
            player = self.racer = data.draw(st.sampled_from(self.humans), label="player")
            return "away", lambda: service.away.go_away(CHANNEL, player, 1)
        if kind == "clock":  # a person's time runs out as they click
            stored = self.run(service.deadlines.deadlines())
            timed = {d.player: d for d in stored if d.game_id == game_id and d.kind == "timeout" and d.player in due}
            if not timed:
                return None
            player = self.racer = data.draw(st.sampled_from(sorted(timed)), label="player")
            deadline = timed[player]
            self.clock.advance(max(0.0, deadline.due_at - self.clock.now()))
            return "clock", lambda: service.decisions.expire(deadline)
        open_to = sorted(p for p, d in choices.items() if d.ahead)
        if not open_to:
            return None
        player = data.draw(st.sampled_from(open_to), label="player")
        ahead = data.draw(st.sampled_from(choices[player].ahead), label="ahead")
        auction = auction_id(record.state)
        self.plans[player] = ahead  # if refused, the model's plan is never asked for

        return "settle", lambda: service.ahead.settle(CHANNEL, game_id, player, auction, ahead)

    # --- after every step

    @invariant()
    def everything_holds(self):
        try:
            self.run(self.check())
        finally:
            self.step_start()

    async def check(self) -> None:
        store = self.service.core.store
        assert not self.errors.records, [r.getMessage() for r in self.errors.records]
        notes = await store.log.notes(self.game_id)
        assert not [n for n in notes if n[0] in ("log_damaged", "quarantined")], notes
        stored = await store.games.load_game(self.game_id)
        played = await store.log.played(self.game_id)
        if len(played) != len(self.rows) or stored.state != self.history.state:  # else: as checked before
            edition = playable(store.editions, stored.table, stored.id, CHANNEL)
            assert replay_table(stored.table, [(p, a) for p, a, _ in played], edition) == stored.state, \
                "the stored log does not replay to the stored game"
        assert stored.state.moves == len(played)
        self.match(played)
        # Issue 44: the newest moves kept in memory as they were written (storage/recent.py: what a panel's
        # catch-up and the table's lines read) are what is stored, whatever happened (undo, seats, restarts).
        for player in (*stored.table.players, "nobody"):
            assert await store.log.moves_since_decision(stored.id, player, stored.version) == \
                await store.log.moves_since_decision(stored.id, player), f"{player}'s catch-up from memory"
        for after in (-1, stored.state.moves - 16):
            assert await store.log.moves_since(stored.id, after, stored.version) == \
                await store.log.moves_since(stored.id, after), "the table's lines from memory"
        # The log's newest page is made from the game's last moves alone (handlers/info.py): it is the whole
        # log's newest page, whatever happened (undo, seats, restarts), whenever those moves fill it.
        last, whole = await store.log.newest_moves(stored.id, 30, stored.version)
        logged = await store.log.moves_since(stored.id, -1)
        assert whole == (stored.state.moves <= 30) and (last == logged or not whole)
        named = people(ENGLISH, stored.table)
        newest = newest_page(ENGLISH, last, named, ed=stored.state.edition)
        assert newest in (None, log_pages(ENGLISH, logged, named, ed=stored.state.edition)[-1])
        if not self.wrote:
            assert stored.version == self.version, "a step refused throughout changed the game"
        self.version = stored.version
        cached = self.service.games.cached(CHANNEL)
        # Issue 44: a move's copy shares what the engine only replaces (engine/state.py, clone), so no later
        # move (a person's, a computer's, the clock's, an undo, after a restart) may change a state held before.
        for state, text in self.held:
            assert state.model_dump_json() == text, "a later move changed a state held before"
        if cached is not None and cached.state is not None:
            self.held = [*self.held[-7:], (cached.state, cached.state.model_dump_json())]
        if stored.open:
            assert cached is None or (cached.id, cached.version, cached.state, cached.table) == (
                stored.id, stored.version, stored.state, stored.table), "the service holds another game"
        else:
            assert cached is None, "an ended game is still held"
        # Issue 46: every finished game rated exactly once (in the transaction that finished it), no other game.
        rated = [g for g, _ in await store.ratings.rated_games()]
        finished = [r["id"] for r in await store.db.fetchall("SELECT id FROM games WHERE status = 'finished'")]
        assert sorted(rated) == sorted(finished), f"rated {rated}, finished {finished}"
        # ...and each person's reliability counts the finished games they sat at, and those they left that then
        # ended unplayed (abandoned: everyone left), all as left.
        counted: Counter[tuple[str, str]] = Counter()
        for row in await store.db.fetchall("SELECT status, setup FROM games WHERE status IN ('finished', 'abandoned')"):
            for seat in Table.model_validate_json(row["setup"]).seats:
                if seat.kind == "human" and (row["status"] == "finished" or seat.left):
                    counted[seat.id, "games"] += 1
                    counted[seat.id, "left"] += seat.left
        for person in {p for p, _ in counted}:
            mine = await store.ratings.reliability(person)
            assert (mine.games, mine.left) == (counted[person, "games"], counted[person, "left"]), person
        self.active, deadlines = stored.status == "active", []
        if self.active:
            deadlines = await store.deadlines.deadlines_of(stored.id)
            timed = {d.player for d in deadlines if d.kind == "timeout"}
            assert on_clock(stored.state, stored.table) <= timed, "someone on the clock has no deadline"
            assert not await store.deadlines.deadlines(due_before=self.clock.now() - 1), "a deadline was left due"
            for d in deadlines:  # the bound: no decision waits longer for its person's hours
                assert d.kind != "timeout" or d.due_at <= d.payload["since"] + BOUND, d
            due = set(due_of(stored).people)
            for person in present(stored, self.humans):
                listed = {g.record.id: g for g in await self.service.mine.games(person)}
                assert stored.id in listed, f"{person}'s games miss the one they sit at"
                assert listed[stored.id].mine == (person in due), "their games say another person is due"
        await self.check_public(stored, played, deadlines)

    def match(self, played) -> None:
        """The log is what it was plus, in the order they were written, exactly the moves acknowledged in this
        step: each where its outcome said it ended, a decision followed by the finishing of its privilege card
        when that is all it left."""
        rows = list(played)
        assert rows[:len(self.rows)] == self.rows, "the stored log changed under what it held before"
        at = len(self.rows)
        for kind, outcome in sorted(self.acked, key=lambda ko: ko[1].record.state.moves):
            end, head = outcome.record.state.moves, (outcome.player, outcome.action, outcome.actor)
            assert end > at, f"two acknowledged moves end at move {end}: {self.acked}"
            assert rows[at] == head, f"{kind}: acknowledged {head}, but move {at + 1} is {rows[at]}"
            rest = rows[at + 1:end]
            assert not rest or (kind == "act" and rest == [(outcome.player, Done(), "player")]), (kind, head, rest)
            at = end
        assert at == len(rows), f"moves nobody acknowledged are stored: {rows[at:]}"
        self.rows = rows

    def saw(self, state) -> None:
        """A state the game passed through: what it showed everyone, what it gave each player."""
        self.public |= shown(spectator_view(state))
        for p in state.players:
            self.own.setdefault(p.id, set()).update(name_of(c) for c in p.hand + p.offered)

    async def check_public(self, stored, played, deadlines) -> None:
        """What the table says (its log worded for everyone, its embed) names only cards made public; what each
        person is shown (their panel, what happened since their last move) only those and cards of their own."""
        history = self.history
        for player, action, actor in played[len(history.rows):]:
            assert history.play(player, action, by_player=actor in BY_PLAYER).ok
            self.saw(history.state)
        assert history.state == stored.state, "replayed move by move, the log is another game"
        names_of = named_people(stored)
        certificates = frozenset(stored.state.edition.certificates)
        lines = []
        for move in await self.service.core.store.log.moves_since(stored.id, self.told):
            worded = move_lines(ENGLISH, move, names_of, None, ed=stored.state.edition)
            told = {name_of(c) for e in move.entries if getattr(e, "to", None) is None
                    for c in shown_in(e.model_dump(), certificates)}
            for line in worded:
                named = card_names(line)
                if named:
                    assert any(p.search(line) for p in CARDS_SHOWN), f"a public line names cards: {line}"
                    assert named <= told, f"a public line names cards no public event showed: {line}"
                    self.public |= named
                    FEATURES["public_cards"] += 1
            lines += worded
            self.told = max(self.told, move.move)
        timeouts = {d.player: d.due_at for d in deadlines if d.kind == "timeout"}
        embed = table_embed(ENGLISH, stored, spectator_view(stored.state), lines[-5:], timeouts).to_dict()
        text = [embed.get("title", ""), embed.get("description", ""), embed.get("footer", {}).get("text", "")]
        text += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
        for line in "\n".join(text).splitlines():
            assert card_names(line) <= self.public, f"the table names cards never made public: {line}"
            if not any(p.search(line) for p in CARDS_SHOWN):
                assert not card_names(line), f"the table names cards: {line}"
        for person in self.humans:
            text = [catch_up(ENGLISH, await self.service.games.since_last_move(stored, person), names_of, person,
                             ed=stored.state.edition)]
            if stored.open:
                content, view = panel(ENGLISH, stored, self.service.games.decision(stored, person))
                text += [content, *(part for item in view.children for part in labels(item))]
            leaked = card_names("\n".join(text)) - self.own.get(person, set()) - self.public
            assert not leaked, f"{person} is shown cards neither theirs nor public: {leaked}"

    def teardown(self):
        try:
            if self.service is not None:
                self.run(self.service.close())
            if self.dbname is not None:
                self.run(admin_execute(self.admin, f"DROP DATABASE IF EXISTS {self.dbname} WITH (FORCE)"))
        finally:
            self.runner.close()
            logging.getLogger().removeHandler(self.errors)
            if self.folder is not None:
                shutil.rmtree(self.folder, ignore_errors=True)


def present(record, humans: list[str]) -> list[str]:
    """The people still seated (not left for good)."""
    return [p for p in humans if not record.table.seat(p).left]


def labels(item) -> list[str]:
    """What a panel's control says: its label, placeholder, options."""
    options = getattr(item, "options", [])
    return [getattr(item, "label", None) or "", getattr(item, "placeholder", None) or "",
            *(o.label for o in options), *(o.description or "" for o in options)]


def named_people(record):
    """The players as the table names them (a person by a mention, a computer by its name)."""
    return people(ENGLISH, record.table)


def shown(view) -> set[str]:
    """The cards a public view shows (by English name)."""
    return {name_of(c) for c in shown_in(view.model_dump(), frozenset(view.edition.certificates))}


def shown_in(value, certificates: frozenset[str]) -> set[str]:
    """Every certificate (of `certificates`, an edition's) named anywhere in dumped data."""
    if isinstance(value, str):
        return {value} if value in certificates else set()
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return set().union(*(shown_in(v, certificates) for v in items)) if items else set()


@contextlib.contextmanager
def losing_a_connection(when: str | None) -> Iterator[list[bool]]:
    """The next move's one statement on PostgreSQL (storage/onestatement.py) loses its connection `when`
    ("after": it committed; "before": it never ran); yields [True] once that happened."""
    import asyncpg

    hit: list[bool] = []
    original = asyncpg.connection.Connection.fetchrow

    async def fetchrow(self, query, *args, **kwargs):
        if when is None or hit or not query.startswith("WITH g AS (UPDATE games SET version"):
            return await original(self, query, *args, **kwargs)
        hit.append(True)
        if when == "after":
            await original(self, query, *args, **kwargs)
        raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    asyncpg.connection.Connection.fetchrow = fetchrow
    try:
        yield hit
    finally:
        asyncpg.connection.Connection.fetchrow = original


def run_machine(backend: str, admin: str | None = None) -> None:
    FEATURES.clear()
    machine = type(f"FeaturesMeetOn{backend.title()}", (FeaturesMeet,), {"backend": backend, "admin": admin})
    run_state_machine_as_test(machine, settings=RUNS)
    every = EVERY_FEATURE | ({"lost_under_a_move"} if backend == "postgresql" else set())
    missing = every - set(FEATURES)
    assert not missing, f"features no example met: {sorted(missing)} (met: {dict(FEATURES)})"


def test_every_feature_meets_every_other_on_sqlite():
    run_machine("sqlite")


@pytest.mark.usefixtures("postgres_server")
def test_every_feature_meets_every_other_on_postgresql(postgres_server):
    run_machine("postgresql", postgres_server)


# --- what the machine found, as plain regression tests


async def test_the_bot_moves_a_computer_due_after_the_game_left_the_cache(database):
    """Found by the machine: once the game was dropped from memory (core.forget: another process wrote, or a
    write failed), play_computer said nobody was due, although computers were: the bot's runner stopped until
    a computer's marker fired (the terminal has none). It reads the stored game, as every request does."""
    service = await GameService.open(database, clock=ManualClock(), timing=TIMING)
    try:
        opened = await service.lobby.open_table(GUILD, CHANNEL, Seat(id="101", name="Ada"))
        for _ in range(2):
            await service.lobby.add_computer(CHANNEL, opened.record.id, "101")
        record = (await service.lobby.start(CHANNEL, opened.record.id, "101", seed=0)).record
        assert {"ai1", "ai2"} <= set(to_act(record.state))  # the first purchase: everyone at once
        service.core.forget(CHANNEL)
        outcome = await service.decisions.play_computer(CHANNEL)
        assert outcome is not None and outcome.ok and outcome.player in ("ai1", "ai2")
        assert len(await service.core.store.log.played(record.id)) == 1
    finally:
        await service.close()
