"""Every control of the panel in one whole game (issue 41, point 5): through the fake Discord, a game in which
every button and menu a player's panel offers is used at least once (the table's "My hand & actions", each
kind of decision as a button and as a menu, settling ahead and clearing it, choosing on a panel drawn before
the turn came once it has come, Undo, the hand's picture) ends, and logs no ERROR.

The players choose at random (seeded), but first whatever kind of control they have not used yet; deals and
choices are fixed, so the game is the same every run."""

from __future__ import annotations

import copy
import random
import re

import pytest
from support.bot_support import (
    ADA,
    BEN,
    CLEO,
    PublicRecord,
    due_people,
    game,
    long_lived,
    make_bot,
    next_to_act,
    service,
)
from support.fake_discord import FakeUser, Harness

from bot.service.automatic import auction_id

TABLE = "My hand & actions"
DEAL, CHOICES = 6, 1  # the deal (DEAL_SEED) and the players' choices: a game that meets every control

# Each kind of decision by its code on a button (aug:do:<game>:<key>:<code>) or by its menu.
BUTTON_KINDS = [("buy:", "buy nothing"), ("rev:", "lay down (the suggestion)"), ("p", "pass"), ("c", "call"),
                ("b", "bid"), ("t", "privilege card"), ("u", "privilege"), ("B", "building"), ("d", "finish card"),
                ("m", "compensation")]
MENU_KINDS = {"buy": "buy (menu)", "rev": "lay down (menu)", "b": "raise (menu)", "x": "discard (menu)",
              "r": "return (menu)", "u": "privilege (menu)"}
# Every control a panel has, and every kind of decision this game asks for (not a return of cards, which only
# a deck shortage asks for, nor a menu of privileges, for more than fifteen uses: neither occurs here).
PREFIXES = {"aug:tbl:", "aug:do:", "aug:sel:", "aug:ahd:", "aug:ahx:", "aug:undo:", "aug:pic:"}
DECISIONS = {"buy nothing", "buy (menu)", "lay down (the suggestion)", "lay down (menu)", "pass", "call", "bid",
             "raise (menu)", "privilege card", "privilege", "building", "finish card", "compensation", "discard (menu)",
             "settled ahead, made once the turn came", "settled ahead on a panel drawn before the turn came",
             "taken back"}


def kind_of(control: dict) -> str:
    """The kind of decision a panel's control makes."""
    cid = control["custom_id"]
    if cid.startswith("aug:do:"):
        code = cid.split(":", 4)[4]
        return next(kind for prefix, kind in BUTTON_KINDS if code.startswith(prefix))
    menu = cid.rsplit(":", 1)[1]
    if menu == "pick":
        return MENU_KINDS[control["options"][0]["value"][0]]
    return MENU_KINDS[menu]


def affordable(h, user: int, values: list[str]) -> list[str]:
    """Positions of the offer to buy: a random set the player can pay for (at least one card)."""
    me = next(p for p in game(h).state.players if p.id == str(user))
    price = game(h).state.edition.card_price
    chosen, total = [], 0
    for v in values:
        cost = price[me.offered[int(v)]]
        if total + cost <= me.money:
            chosen.append(v)
            total += cost
    return chosen or [min(values, key=lambda v: price[me.offered[int(v)]])]


class Players:
    """The three players at the table, choosing through their panels; what they have used so far."""

    def __init__(self, h, table: int, rnd: random.Random):
        self.h, self.table, self.rnd = h, table, rnd
        self.prefixes: set[str] = set()
        self.kinds: set[str] = set()
        self.drawn_before: dict[int, tuple[str, object, dict]] = {}  # user: (auction, ahead menu, panel as drawn)

    def used(self, custom_id: str) -> None:
        self.prefixes.add(re.match(r"aug:[a-z]+:", custom_id).group(0))

    async def open_panel(self, user: int):
        opened = await self.h.click(user, self.table, label=TABLE)
        self.used(self.h.message(self.table).component(label=TABLE)["custom_id"])
        panel = opened.answer
        assert panel.ephemeral and panel.kind == "response", panel
        return panel

    async def press(self, user: int, panel, control: dict, values: list[str] | None = None):
        """Use one control of a panel; the panel as it is then (answers update it in place)."""
        h, cid = self.h, control["custom_id"]
        if values is None:
            result = await h.click(user, panel.message_id, cid)
        else:
            result = await h.select(user, panel.message_id, cid, values)
        self.used(cid)
        assert not result.unanswered and result.answer.ephemeral, result.answer
        assert "went wrong" not in result.answer.content, result.answer.content
        return result.answer

    async def decide(self, user: int) -> None:
        """Open the panel and take one decision; first any kind of control not used yet."""
        h, rnd = self.h, self.rnd
        if await self.choose_on_an_old_panel(user):
            return
        panel = await self.open_panel(user)
        if "aug:pic:" not in self.prefixes and any(c.startswith("aug:pic:") for c in panel.custom_ids()):
            cid = next(c for c in panel.custom_ids() if c.startswith("aug:pic:"))
            picture = await h.click(user, panel.message_id, cid)
            self.used(cid)
            assert picture.answer.ephemeral and picture.answer.attachments, picture.answer
        controls = [b for b in panel.buttons() if b["custom_id"].startswith("aug:do:") and not b.get("disabled")]
        controls += [s for s in panel.selects() if s["custom_id"].startswith("aug:sel:")]
        assert controls, f"{user} is due and their panel offers nothing: {panel.content}"
        fresh = [c for c in controls if kind_of(c) not in self.kinds]
        control = rnd.choice(fresh or controls)
        values = None
        if control.get("type") != 2:
            offered = [o["value"] for o in control["options"]]
            if control["custom_id"].endswith(":buy"):
                values = affordable(h, user, rnd.sample(offered, rnd.randint(1, len(offered))))
            else:
                values = rnd.sample(offered, control.get("min_values", 1))
        moves = game(h).state.moves
        answer = await self.press(user, panel, control, values)
        if game(h) is not None and game(h).state.moves == moves:
            return  # refused (say, a purchase it cannot pay for): nothing was decided
        self.kinds.add(kind_of(control))
        now = h.message(answer.message_id)  # as the panel is now (it follows the game)
        undo = next((c for c in now.custom_ids() if c.startswith("aug:undo:")), None)
        if undo is not None and ("aug:undo:" not in self.prefixes or rnd.random() < 0.1):
            taken = await h.click(user, answer.message_id, undo)
            self.used(undo)
            said = taken.answer.content  # an Undo stays on a panel that nothing else redrew: it may have gone stale
            assert "You took back" in said or "Nothing was changed" in said or "no longer" in said, said
            if "You took back" in said:
                self.kinds.add("taken back")

    async def settle_ahead(self, user: int) -> None:
        """A player whose turn has not come opens their panel and settles what to do when it comes (or clears
        it again); the panel is kept as drawn, to be used once the turn has come."""
        h, rnd = self.h, self.rnd
        panel = await self.open_panel(user)
        menu = next((s for s in panel.selects() if s["custom_id"].startswith("aug:ahd:")), None)
        if menu is None:
            return
        state = game(h).state
        if user not in self.drawn_before and "settled ahead on a panel drawn before the turn came" not in self.kinds:
            self.drawn_before[user] = (auction_id(state), menu, copy.deepcopy(h.message(panel.message_id)))
            return  # only looked: chosen there once the turn has come
        value = rnd.choice([o["value"] for o in menu["options"]])
        answer = await self.press(user, panel, menu, [value])
        assert "Settled ahead" in answer.content, answer.content
        self.kinds.add("settled ahead")
        clear = next((c for c in h.message(answer.message_id).custom_ids() if c.startswith("aug:ahx:")), None)
        if clear is not None and ("aug:ahx:" not in self.prefixes or rnd.random() < 0.3):
            cleared = await h.click(user, answer.message_id, clear)
            self.used(clear)
            assert "Cleared" in cleared.answer.content, cleared.answer.content

    async def choose_on_an_old_panel(self, user: int) -> bool:
        """The player's turn has come: they choose on the panel drawn before it came (not redrawn on their
        screen), which makes it their decision now."""
        h = self.h
        drawn = self.drawn_before.pop(user, None)
        if drawn is None or auction_id(game(h).state) != drawn[0]:
            return False
        _, menu, as_drawn = drawn
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [menu["options"][0]["value"]]}
        moves = game(h).state.moves
        result = await h.send_interaction(h.interaction_payload(user, 3, data, as_drawn))
        self.used(menu["custom_id"])
        answer = result.answer
        assert answer.ephemeral and "Sorry" not in answer.content and "went wrong" not in answer.content, answer
        logged = await service(h).games.history(game(h)) if game(h) is not None else []
        made = [m for m in logged if m.move > moves and m.player == str(user)]
        assert made and made[0].actor == "player", "chosen once the turn came, it is the player's own move"
        self.kinds.add("settled ahead on a panel drawn before the turn came")
        return True


@pytest.fixture
async def h(database):
    """Ada, Ben and Cleo at a bot on each backend."""
    users = [FakeUser(ADA, "Ada"), FakeUser(BEN, "Ben"), FakeUser(CLEO, "Cleo")]
    harness = await Harness.create(make_bot(database), users=users, ignore=(long_lived,))
    yield harness
    await harness.close()


async def test_every_control_of_the_panel_in_one_whole_game_logs_no_error(h, caplog):
    service(h).lobby.deal_seed = DEAL
    r = await h.slash(ADA, "augsburg new")
    table = r.answer.message_id
    for user in (BEN, CLEO):
        await h.click(user, table, label="Join")
    await h.click(ADA, table, label="Start game")
    rnd, seen = random.Random(CHOICES), PublicRecord()
    players = Players(h, table, rnd)
    for _ in range(3000):
        user = await next_to_act(h, seen, rnd)  # nothing leaked so far; somebody due
        if user is None:
            break
        state = game(h).state
        waiting = [p for p in (ADA, BEN, CLEO) if p not in due_people(h) and state.phase == "auction"
                   and not state.auction.passed[[q.id for q in state.players].index(str(p))]]
        if waiting and rnd.random() < 0.3:
            await players.settle_ahead(rnd.choice(waiting))
            continue
        await players.decide(user)
    assert game(h) is None, "the game did not end"
    logged = await service(h).games.history(await service(h).games.last_game(h.channel_id))
    assert logged[-1].move > 100 and any(e.type == "game_over" for m in logged for e in m.entries)
    if any(m.actor == "ahead" for m in logged):
        players.kinds.add("settled ahead, made once the turn came")
    assert players.prefixes == PREFIXES, f"controls never used: {PREFIXES - players.prefixes}"
    missing = DECISIONS - players.kinds
    assert not missing, f"kinds of decision never made: {sorted(missing)} (made: {sorted(players.kinds)})"
    assert not [rec for rec in caplog.records if rec.levelname == "ERROR"], [rec.getMessage() for rec in caplog.records]
    h.assert_all_answered()
    h.assert_no_errors()
