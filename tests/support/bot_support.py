"""Shared pieces of the bot tests: a bot on a temporary database inside the Discord test harness."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from bot.app.config import Settings
from bot.app.discord_bot import AugsburgBot
from bot.service.lease import HEARTBEAT_TASK
from bot.wording import ENGLISH, LANGUAGES, names, words
from engine import to_act
from engine.state import PrivilegeTurn
from storage import GameRecord
from support.fake_discord import FakeUser, Harness

ADA, BEN, CLEO, STRANGER = 1001, 1002, 1003, 1009
NOBLE_IN_ENGLISH = {names.noble(words(lang), n): names.noble(ENGLISH, n) for lang in LANGUAGES
                    for n in ("philipp", "louise", "leo", "maria")}
CARD = re.compile(rf"\b({'|'.join(NOBLE_IN_ENGLISH)}) (\d{{1,2}})\b")
PUBLIC_IDS = re.compile(r"^aug:(lob|tbl|again):")
PRIVILEGE_DISPLAY = ["1", "2", "4", "7", "9"]


# Every game a test bot starts deals from a seed the test chose (DEAL_SEED): a failure reproduces by
# running the same test again. A test that plays several deals sets `service(h).lobby.deal_seed` itself.
TEST_DEAL_SEED = 1


def make_bot(path, delay: float = 0.0, clock=None, **settings) -> AugsburgBot:
    """A bot on `path`: a SQLite file, or a database URL (DATABASE_URL)."""
    where = {"database_url": str(path)} if "://" in str(path) else {"database_path": str(path), "database_url": None}
    return AugsburgBot(
        Settings(
            _env_file=None,
            discord_token="test-token",
            **where,
            table_edit_delay=delay,
            computer_delay=0.0,
            # The fake Discord does not rate-limit (unless a test asks it to): tests run unpaced.
            # Pictures only where a test asks for them: drawing one takes ~20 ms.
            **{"discord_guild_id": None, "channel_ops_per_5s": 10_000, "requests_per_second": 10_000.0,
               "table_pictures": False, "picture_processes": 0, "computer_workers": 0,
               "deal_seed": TEST_DEAL_SEED, **settings},
        ),
        clock=clock,
    )


HOUR = 3600


def hourly_bot(h_or_path, clock) -> AugsburgBot:
    """A bot whose turn clock gives an hour and reminds a quarter of an hour in (the clock's tests, time away)."""
    path = h_or_path.db_path if isinstance(h_or_path, Harness) else h_or_path
    return make_bot(path, clock=clock, turn_timeout_seconds=HOUR, reminder_seconds=HOUR / 4)


def long_lived(task) -> bool:
    """The bot's deadline scheduler and its lease heartbeat run for as long as the bot."""
    return task.get_name() in ("deadline scheduler", HEARTBEAT_TASK)


@pytest.fixture
async def harness(tmp_path):
    users = [FakeUser(ADA, "Ada"), FakeUser(BEN, "Ben"), FakeUser(CLEO, "Cleo"), FakeUser(STRANGER, "Sam")]
    h = await Harness.create(make_bot(tmp_path / "bot.sqlite3"), users=users, ignore=(long_lived,))
    h.db_path = tmp_path / "bot.sqlite3"
    yield h
    await h.close()


def shows_now(h: Harness, table: int, record: GameRecord | None = None) -> bool:
    """Whether the table message shows the channel's game as it is now (`record`: as stored, not cached)."""
    from bot.discord_app.people import people
    from bot.wording import phases
    from engine import spectator_view

    record = record or game(h)
    status = phases.status(ENGLISH, spectator_view(record.state), people(ENGLISH, record.table))
    return h.message(table).embeds[0]["description"] == status


async def clocked_harness(path, make, **kwargs) -> Harness:
    """Ada, Ben and Cleo at a bot on `path` whose time is a ManualClock (`make(path, clock)` builds the bot);
    the harness keeps `db_path` and `clock`."""
    from .clock import ManualClock

    clock = ManualClock()
    users = [FakeUser(ADA, "Ada"), FakeUser(BEN, "Ben"), FakeUser(CLEO, "Cleo")]
    harness = await Harness.create(make(path, clock), users=users, ignore=(long_lived,), **kwargs)
    harness.db_path, harness.clock = path, clock
    return harness


async def pass_time(h: Harness, seconds: float) -> int:
    """Move a clocked harness's time on and let the scheduler fire what is due; how many deadlines fired."""
    h.clock.advance(seconds)
    return await run(h, h.bot.get_cog("Augsburg").scheduler.run_due())


async def run(h: Harness, awaitable):
    """Run `awaitable` (the scheduler firing, say) as Discord would dispatch it, and settle what it starts."""
    h._begin()
    result = await awaitable
    await h.settle()
    return result


def message_text(msg) -> str:
    parts = [msg.content]
    for e in msg.embeds:
        parts += [e.get("title", ""), e.get("description", ""), (e.get("footer") or {}).get("text", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in e.get("fields", [])]
    for c in msg.all_components():
        parts += [c.get("label") or "", c.get("placeholder") or "", c.get("custom_id") or ""]
        parts += [o["label"] for o in c.get("options", [])]
    return "\n".join(parts)


def card_names(text: str) -> set[str]:
    """The cards a text names, in any language, by their English names ('Philippe 3' is 'Philipp 3')."""
    return {f"{NOBLE_IN_ENGLISH[noble]} {value}" for noble, value in CARD.findall(text)}


def name_of(card: str) -> str:
    return names.card(ENGLISH, card)


def _pattern(template: str) -> re.Pattern:
    """A translated sentence with `{placeholders}` as a pattern that finds it with anything filled in."""
    parts = re.split(r"\{\w*\}", template)
    return re.compile(".*?".join(re.escape(p) for p in parts))


def _in_every_language(*sources: str) -> list[re.Pattern]:
    return [_pattern(words(lang)._(source)) for lang in LANGUAGES for source in sources]


# Private headings (in any language) never appear in public; these public lines may name cards.
PRIVATE_MARKS = _in_every_language("**Your money:** {money}", "Your money: {money}")
CARDS_SHOWN = _in_every_language("Cards laid down for {noble}: {offers}.", "{who} discards {card}.",
                                 "Deck: {deck} · Discard pile: {discard} on top")


class PublicRecord:
    """What a game has made public so far, and what each player has held: the game's actions replayed from
    its seed (every state it passed through, not only those a message happened to show), its public view
    (R28) at each, and its whole public log worded as the table and `/augsburg log` word it.

    Whatever a reader is shown beyond this and their own cards is a leak."""

    def __init__(self):
        self.cards: set[str] = set()  # by English name ('Maria 8')
        self.own: dict[int, set[str]] = {}
        self._game: int | None = None
        self._state = None
        self._applied = 0  # actions replayed
        self._told = 0  # log moves worded

    async def update(self, h: Harness) -> PublicRecord:
        from bot.discord_app.people import people
        from bot.wording.history import move_lines
        from engine import spectator_view
        from engine.undo import History

        record = game(h)
        if record is None:
            return self
        log = service(h).core.store.log
        if record.id != self._game:
            table = record.table
            self._game, self._applied, self._told = record.id, 0, -1
            self._history = History(table.players, table.seed, table.start_player)  # it replays take-backs too
            self._state = self._history.state
            self._note(spectator_view(self._state))
        for player, action, actor in (await log.played(record.id))[self._applied:]:
            result = self._history.play(player, action, by_player=actor in ("player", "only", "ahead"))
            assert result.ok, f"the stored log does not replay: {result}"
            self._state, self._applied = result.state, self._applied + 1
            self._note(spectator_view(self._state))
        assert self._state == record.state, "the replayed game is not the game the bot holds"
        named = people(ENGLISH, record.table)
        for move in await log.moves_since(record.id, self._told):
            lines = move_lines(ENGLISH, move, named, None, ed=record.state.edition)
            self.cards |= {c for line in lines for c in card_names(line)}
            self._told = max(self._told, move.move)
        return self

    def _note(self, view) -> None:
        self.cards |= {name_of(c) for c in _cards_in(view.model_dump(), frozenset(view.edition.certificates))}
        for p in self._state.players:
            if not p.id.isdigit():
                continue  # a computer: it reads no messages
            self.own.setdefault(int(p.id), set()).update(name_of(c) for c in p.hand + p.offered)


def _cards_in(value, certificates: frozenset[str]) -> set[str]:
    """Every certificate named anywhere in a dumped view."""
    if isinstance(value, str):
        return {value} if value in certificates else set()
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return set().union(*(_cards_in(v, certificates) for v in items)) if items else set()


def check_no_leak(h: Harness, seen: PublicRecord) -> None:
    """No message a player can see names another player's hidden cards or shows a hand that is not theirs,
    whatever the languages of the table and of each reader. What counts as public is the game's whole
    public record (`seen`), not what happens to be on screen."""
    for msg in h.channel_messages.values():
        text = message_text(msg)
        assert not any(mark.search(text) for mark in PRIVATE_MARKS), text[:300]
        assert all(PUBLIC_IDS.match(cid) for cid in msg.custom_ids()), msg.custom_ids()
        for line in text.splitlines():
            if not any(shown.search(line) for shown in CARDS_SHOWN):
                assert not card_names(line), f"public line names hidden cards: {line}"
            assert card_names(line) <= seen.cards, f"public line names cards never made public: {line}"
    for user in h.users:
        for msg in [*h.ephemeral_messages(user).values(), *h.dm_messages(user).values()]:
            leaked = card_names(message_text(msg)) - seen.own.get(user, set()) - seen.cards
            assert not leaked, f"{user} sees {leaked} in {message_text(msg)[:300]}"


async def next_to_act(h: Harness, seen: PublicRecord, rnd: random.Random) -> int | None:
    """One step of a whole game: bring the public record up to date, check that nothing leaked, and pick one
    of the players to act (None once the game is over)."""
    record = game(h)
    if record is None:
        return None
    check_no_leak(h, await seen.update(h))
    return rnd.choice(due_people(h))


async def buy_for_philipp(h: Harness, user: int, panel_id: int, settle: bool = True):
    """Buy the offered cards that count for Philipp (the first auction), so that the player has a choice
    there: with none (two jokers only) they could only pass, which the bot does for them."""
    menu = next(s for s in h.message(panel_id).selects() if s["custom_id"].endswith(":buy"))
    picked = [o["value"] for o in menu["options"] if o["label"].startswith(("Philipp", "Filippo", "Philippe"))]
    assert picked, "the deal offers no Philipp card: choose another seed"
    return await h.select(user, panel_id, menu["custom_id"], picked, settle=settle)


def philipp_offered(h: Harness, user: int) -> str:
    """The Philipp cards offered to `user`, as `/augsburg buy cards:` takes them (see buy_for_philipp)."""
    me = next(p for p in game(h).state.players if p.id == str(user))
    return ", ".join(name_of(c) for c in me.offered if c.startswith("philipp"))


def due_people(h: Harness) -> list[int]:
    """The people who must decide now themselves (not those whose only option, or decision settled ahead,
    the bot makes for them), in seating order; [] once the game is over."""
    from bot.service.turns import people_due

    record = game(h)
    if record is None or record.state is None:
        return []
    due = people_due(record.state, record.table)
    return [int(p) for p in to_act(record.state) if p in due]


async def take_a_decision(h: Harness, user: int, table: int, rnd: random.Random,
                          label: str = "My hand & actions") -> None:
    """Open the private panel (the table's button `label`) and take one of the decisions it offers."""
    panel = (await h.click(user, table, label=label)).answer
    assert panel.ephemeral and panel.kind == "response"
    await decide(h, user, panel, rnd)


async def decide(h: Harness, user: int, panel, rnd: random.Random) -> None:
    """One of the decisions an open panel offers, by its button or its menu, as a player takes it."""
    buttons = [b for b in panel.buttons() if b["custom_id"].startswith("aug:do:") and not b.get("disabled")]
    choice = rnd.choice(buttons + panel.selects())
    if choice.get("type") == 2:
        result = await h.click(user, panel.message_id, choice["custom_id"])
    else:
        values = [o["value"] for o in choice["options"]]
        low, high = choice.get("min_values", 1), choice.get("max_values", 1)
        picked = rnd.sample(values, rnd.randint(low, high))
        result = await h.select(user, panel.message_id, choice["custom_id"], picked)  # a menu decides at once
    assert not result.unanswered and result.answer.ephemeral


async def use_old(h, user: int, old, custom_id: str, values: list[str] | None = None):
    """Use a control of a panel as it was shown then (`old`): a screen that has not caught up with a later
    redraw of the panel (an offline client), or the panel redrawn since (live panels move on)."""
    data = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    payload = h.interaction_payload(user, 3, data, h.message(old.message_id))
    payload["message"]["components"] = old.components
    return await h.send_interaction(payload)


def service(h: Harness):
    return h.bot.get_cog("Augsburg").service


def game(h: Harness):
    return service(h).games.cached(h.channel_id)


async def open_and_start(h: Harness, players=(ADA, BEN, CLEO)) -> int:
    r = await h.slash(players[0], "augsburg new")
    assert r.answer.kind == "response" and not r.answer.ephemeral
    table = r.answer.message_id
    for p in players[1:]:
        joined = await h.click(p, table, label="Join")
        assert joined.answer.kind == "update"
    started = await h.click(players[0], table, label="Start game")
    assert started.answer.kind == "update" and "round 1 of" in started.answer.embeds[0]["title"]
    return table


async def ada_at_privilege(h, card: str | None = None, display=PRIVILEGE_DISPLAY, hand=None, **turn) -> None:
    """Ada has won an auction and is to take a privilege card from `display` (or is using `card`)."""
    await open_and_start(h, players=(ADA, BEN))
    record = game(h)
    state = record.state.model_copy(deep=True)
    seat = next(i for i, p in enumerate(state.players) if p.id == str(ADA))
    state.phase, state.noble, state.auction, state.showdown, state.purchase = "privilege", 0, None, None, None
    state.privilege_waiting = tuple(c for c in state.privilege_display + state.privilege_waiting if c not in display)
    state.privilege_display = tuple(display)
    state.privilege = PrivilegeTurn(seat=seat, card=card, **turn)
    if hand is not None:
        state.players[seat].hand = tuple(hand)
    service(h).core._games.put(dataclasses.replace(record, state=state))
