"""How many interactions a decision costs, and how many pings a person gets (issues 13 and 27):
`python tests/clicks_per_decision.py`.

Plays seeded games through the bot and the project's fake Discord the way people do: whoever must
decide uses the private panel on their screen if it offers that decision (live panels follow the
game), and otherwise opens their panel from the table first. What they decide is what the computer
player would decide in their seat, found among the panel's buttons and menus. Each decision takes its
person `--think` seconds (the bot's clock and Discord's move on; deadlines due meanwhile fire); with
`--pause` a person is away between turns: they come back that many minutes after another person's move
made it their turn (a panel's token has expired by then, and they are not watching), while a decision
that follows their own move, with only computers between, they make on the spot.

Prints, per game, the interactions per decision, the private panels each person was sent, the "your
move" pings each person got, how many of those came right after their own move with only computers
(or nobody) acting since, and how many decisions with one legal option they were asked to make.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

TESTS = Path(__file__).resolve().parent
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

from support.bot_support import ADA, BEN, CLEO, game, long_lived, make_bot  # noqa: E402
from support.clock import ManualClock  # noqa: E402
from support.fake_discord import FakeUser, Harness  # noqa: E402

from bot.service import codes, decision_key  # noqa: E402
from bot.service.choices import positions  # noqa: E402
from bot.service.decisions import computer_choice  # noqa: E402
from engine import legal_actions, player_view, to_act  # noqa: E402
from engine.actions import Buy, Reveal, RevealChoice  # noqa: E402

try:  # what the bot decides for a person by itself (issue 27); before it, only computer seats
    from bot.service.turns import bot_decides
    from engine import only_action
except ImportError:  # measuring an older version
    bot_decides = None
    only_action = None

DAN, EVE = 1004, 1005
NAMES = {ADA: "Ada", BEN: "Ben", CLEO: "Cleo", DAN: "Dan", EVE: "Eve"}


@dataclass
class Counts:
    decisions: int = 0
    interactions: int = 0
    opened: Counter = field(default_factory=Counter)  # panels opened from the table, per player
    panels: Counter = field(default_factory=Counter)  # private messages with a panel sent, per player
    pings: Counter = field(default_factory=Counter)  # "your move" pings (public messages notifying them)
    after_own: Counter = field(default_factory=Counter)  # ... right after their own move, no other person since
    one_option: Counter = field(default_factory=Counter)  # decisions with one legal option they were asked

    @property
    def per_decision(self) -> float:
        return self.interactions / max(1, self.decisions)


def _one_option(record, player: str) -> bool:
    if only_action is not None:
        return only_action(record.state, player) is not None
    options = legal_actions(record.state, player)  # an older version: the same cases, counted here
    if len(options) == 1 and isinstance(options[0], RevealChoice):
        choice = options[0]
        return len(choice.cards) == choice.count and any(c != "joker" for c in choice.cards)
    return len(options) == 1 and not hasattr(options[0], "kind")


def _people_due(record) -> list[str]:
    """The people who must decide now themselves."""
    if bot_decides is not None:
        return [p for p in to_act(record.state) if p not in bot_decides(record.state, record.table)]
    return [p for p in to_act(record.state) if not record.table.computer_plays(p)]


def _control(output, key: str, action, record, player: str) -> tuple[str, list[str] | None] | None:
    """The button (custom_id, None) or menu (custom_id, values) on a panel that makes `action`, if any."""
    live = [c for c in output.all_components() if f":{key}:" in c.get("custom_id", "") and not c.get("disabled")]
    if isinstance(action, (Buy, Reveal)):
        kind = "buy" if isinstance(action, Buy) else "rev"
        me = record.state.players[record.table.players.index(player)]
        at = positions(me.offered if kind == "buy" else player_view(record.state, player).you.hand, action.cards)
        code = codes.encode_positions(kind, at)
        button = next((c for c in live if c["custom_id"].endswith(f":{code}")), None)
        if button is not None:
            return button["custom_id"], None
        menu = next((c for c in live if c["custom_id"].endswith(f":{kind}")), None)
        return (menu["custom_id"], [str(i) for i in at]) if menu is not None and at else None
    code = codes.encode(action)
    for c in live:
        if c["custom_id"].endswith(f":{code}") and c.get("type") == 2:
            return c["custom_id"], None
        if any(o["value"] == code for o in c.get("options", [])):
            return c["custom_id"], [code]
    return None


async def decide(h: Harness, user: int, table: int, shown: dict[int, int], counts: Counts) -> str:
    """One decision of `user`, as a player makes it; what they clicked or chose, as they read it."""
    record, player = game(h), str(user)
    key = decision_key(record.state)
    if _one_option(record, player):
        counts.one_option[user] += 1
    action = computer_choice(record, player)
    if isinstance(action, Reveal) and any(isinstance(o, RevealChoice) and sorted(o.suggested) == sorted(
            action.cards) for o in legal_actions(record.state, player)):
        action = Reveal(cards=next(o.suggested for o in legal_actions(record.state, player)))
    panel = h.message(shown[user]) if user in shown else None
    control = _control(panel, key, action, record, player) if panel is not None and not panel.deleted else None
    if control is None:  # nothing on screen offers it: open the panel from the table
        opened = await h.click(user, table, label="My hand & actions")
        counts.interactions += 1
        counts.opened[user] += 1
        shown[user] = opened.answer.message_id
        panel = h.message(shown[user])
        control = _control(panel, key, action, record, player)
        assert control is not None, f"no control for {action!r} on {panel.custom_ids()}"
    custom_id, values = control
    used = next(c for c in panel.all_components() if c.get("custom_id") == custom_id)
    said = used["label"] if values is None else ", ".join(o["label"] for o in used["options"] if o["value"] in values)
    moves = record.state.moves
    if values is None:
        result = await h.click(user, shown[user], custom_id)
    else:
        result = await h.select(user, shown[user], custom_id, values)
    counts.interactions += 1
    counts.decisions += 1
    assert not result.unanswered and game(h) is None or game(h).state.moves > moves, result.answer.content
    return said


class Pings:
    """Counts the "your move" pings each person gets (public messages without an embed that notify them:
    not the table, not the standings), and which came right after their own move with no other person
    acting since."""

    def __init__(self, h: Harness, people: tuple[int, ...], counts: Counts):
        self.h, self.people, self.counts = h, people, counts
        self.seen: set[int] = set()
        self.alone: dict[int, bool] = {}  # per person: whether nobody else has decided since their move

    def decided(self, user: int) -> None:
        for person in self.people:
            self.alone[person] = person == user

    def tally(self) -> None:
        for msg_id in sorted(set(self.h.posted_in()) - self.seen):  # (a ping is deleted once it is done)
            self.seen.add(msg_id)
            msg = self.h.message(msg_id)
            if msg.embeds:
                continue
            for user in msg.notified(self.people):
                self.counts.pings[user] += 1
                self.counts.after_own[user] += self.alone.get(user, False)


async def play(folder: Path, players: tuple[int, ...], computers: int, seed: int, pause: float = 0.0,
               watch=None, think: float = 0.0, settings: dict | None = None, fake: dict | None = None,
               tune=None, until=None) -> Counts:
    """A game played to its end; `watch(h, user, chosen)` is awaited after each decision (and with user 0
    once the game has started). Each decision takes its person `think` seconds; one that another person's
    move gave them, `pause` seconds (they were away). `settings`: the bot's, beside the tests' defaults;
    `fake`: the fake Discord's options (its rate limits); `tune(h)`: called once the bot is attached;
    `until(record)`: true to stop before the game's end."""
    users = [FakeUser(u, NAMES[u]) for u in players]
    database = folder / f"clicks{len(players)}.{computers}.{seed}.sqlite3"  # one each: commands sync to each fake
    clock = ManualClock()
    h = await Harness.create(make_bot(database, clock=clock, **(settings or {})), users=users, ignore=(long_lived,),
                             **(fake or {}))
    if tune is not None:
        tune(h)
    try:
        await h.settle()  # the commands are synced
        counts = Counts()
        pings = Pings(h, players, counts)
        table = (await h.slash(players[0], "augsburg new")).answer.message_id
        for user in players[1:]:
            await h.click(user, table, label="Join")
        for _ in range(computers):
            await h.click(players[0], table, label="Add computer player")
        with mock.patch("bot.service.lobby.deal_seed", lambda fixed, game_id: seed):  # the game's seed is `seed`
            await h.click(players[0], table, label="Start game")
        if watch is not None:
            await watch(h, 0, "")
        shown: dict[int, int] = {}
        last = 0  # who decided last
        scheduler = h.bot.get_cog("Augsburg").scheduler
        while (record := game(h)) is not None and record.open and not (until and until(record)):
            pings.tally()
            due = sorted(_people_due(record), key=lambda p: int(p) != last)  # who is on the spot goes first
            if not due:
                await h.settle()
                continue
            # Away between turns (`pause`), a person comes back when another person's move made it their turn;
            # a decision that follows their own (only computers between) they make on the spot.
            wait = pause if pause and last != int(due[0]) else think
            if wait:
                h.advance(wait)
                clock.advance(wait)
                h._begin()
                await scheduler.run_due()  # deferred pings, reminders: whatever fell due meanwhile
                await h.settle()
                pings.tally()
                if (record := game(h)) is None or not record.open or due[0] not in _people_due(record):
                    continue
            chosen = await decide(h, int(due[0]), table, shown, counts)
            pings.decided(last := int(due[0]))
            if watch is not None:
                await watch(h, int(due[0]), chosen)
        pings.tally()
        for output in h.outputs:
            if output.ephemeral and output.kind in ("response", "followup") and output.custom_ids():
                counts.panels[output.user_id] += 1
        h.assert_all_answered()
        return counts
    finally:
        await h.close()


def report(label: str, counts: Counts) -> str:
    def each(counter: Counter) -> str:
        return ", ".join(f"{NAMES[u]} {counter[u]}" for u in sorted(set(counter) | set(counts.panels)))

    return (f"{label}: decisions={counts.decisions} interactions={counts.interactions} "
            f"per_decision={counts.per_decision:.2f} panels_opened_from_table={sum(counts.opened.values())} "
            f"new_private_panels=({each(counts.panels)})\n"
            f"    pings=({each(counts.pings)}) right_after_own_move=({each(counts.after_own)}) "
            f"one_option_asked=({each(counts.one_option)})")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="*", default=[1, 2, 3])
    parser.add_argument("--think", type=float, default=30.0, help="seconds each decision takes its person")
    parser.add_argument("--pause", type=float, default=0.0,
                        help="minutes a person is away before a turn another person's move gave them")
    parser.add_argument("--only", choices=("2", "5", "3+2"), help="one of the set-ups only")
    args = parser.parse_args()
    setups = [("2", "2 players", (ADA, BEN), 0), ("5", "5 players", (ADA, BEN, CLEO, DAN, EVE), 0),
              ("3+2", "3 people + 2 computers", (ADA, BEN, CLEO), 2)]
    total = Counts()
    with tempfile.TemporaryDirectory() as folder:
        for short, name, players, computers in setups:
            if args.only not in (None, short):
                continue
            for seed in args.seeds:
                counts = await play(Path(folder), players, computers, seed, args.pause * 60, think=args.think)
                print(report(f"{name}, seed {seed}", counts))
                total.decisions += counts.decisions
                total.interactions += counts.interactions
    print(f"all games: decisions={total.decisions} interactions={total.interactions} "
          f"per_decision={total.per_decision:.2f} (think={args.think:g} s, pause={args.pause:g} min)")


if __name__ == "__main__":
    asyncio.run(main())
