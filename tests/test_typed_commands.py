"""Every decision as a typed /augsburg subcommand with private autocomplete (issue 6)."""

from __future__ import annotations

import random
import re

from support.bot_support import ADA, BEN, STRANGER, game, open_and_start, philipp_offered

from bot.wording import ENGLISH, names
from engine import to_act

COMMAND = re.compile(r"`/augsburg (\w+)(?: (\w+):)?`")


async def typed_decision(h, user: int, rnd: random.Random) -> None:
    """Ask /augsburg help what can be done, then do one of those things by typing it."""
    help_text = (await h.slash(user, "augsburg help")).answer.content
    assert "What you can do now" in help_text
    commands = COMMAND.findall(help_text.split("\n\n")[0])
    command, option = rnd.choice(commands)
    if not option:
        result = await h.slash(user, f"augsburg {command}")
    else:
        if command == "compensate":
            value = rnd.choice(["money", "prestige"])
        else:
            offered = await h.autocomplete(user, f"augsburg {command}", option, "")
            assert offered, f"no autocomplete for /augsburg {command} {option}"
            value = rnd.choice(offered)["value"]
        result = await h.slash(user, f"augsburg {command}", **{option: value})
    assert result.answer.ephemeral and not result.unanswered


async def test_a_whole_game_through_typed_commands_alone(harness):
    h = harness
    await open_and_start(h)
    rnd = random.Random(3)
    for _ in range(3000):
        record = game(h)
        if record is None:
            break
        user = int(rnd.choice(to_act(record.state)))
        await typed_decision(h, user, rnd)
    assert game(h) is None, "the game did not finish"
    assert any("final standings" in m.content for m in h.channel_messages.values())
    h.assert_all_answered()
    h.assert_no_errors()


async def test_autocomplete_offers_only_the_typists_own_choices(harness):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    ada_buys = await h.autocomplete(ADA, "augsburg buy", "cards", "")
    shown = set(re.findall(r"(?:Philipp|Louise|Leo|Maria) \d+|Joker", " ".join(c["name"] for c in ada_buys)))
    ada, ben = game(h).state.players
    assert ada_buys and shown <= {names.card(ENGLISH, c) for c in ada.offered}
    assert await h.autocomplete(STRANGER, "augsburg buy", "cards", "") == []
    assert await h.autocomplete(ADA, "augsburg bid", "count", "") == []  # not an auction now


async def test_an_illegal_typed_value_is_refused_like_a_stale_button(harness):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    for user in (ADA, BEN):
        await h.slash(user, "augsburg buy", cards=philipp_offered(h, user))
    opener = int(to_act(game(h).state)[0])
    other = ADA if opener == BEN else BEN
    moves = game(h).state.moves
    too_many = await h.slash(opener, "augsburg bid", count=40)
    assert too_many.answer.ephemeral and "⚠️" in too_many.answer.content
    not_yours = await h.slash(other, "augsburg pass")
    assert not_yours.answer.ephemeral and "not your turn" in not_yours.answer.content
    nonsense = await h.slash(opener, "augsburg use", privilege="fly to the moon")
    assert nonsense.answer.ephemeral and "⚠️" in nonsense.answer.content
    stranger = await h.slash(STRANGER, "augsburg pass")
    assert stranger.answer.ephemeral and "not playing" in stranger.answer.content
    assert game(h).state.moves == moves
    help_text = (await h.slash(other, "augsburg help")).answer.content
    assert "not your turn" in help_text
