"""Unknown or forged input (issue 12, point 8): every interaction gets a polite private answer, changes
nothing and logs no error, whatever arrives.

Discord's client only sends what the synced commands and the components on a message allow; anyone can
send other interaction data, and an old client can send what an earlier version of the bot offered. The
fake's helpers refuse to build such payloads, so these tests build them and send them raw.
"""

from __future__ import annotations

import pytest
from support.bot_support import ADA, BEN, game, open_and_start

from bot.wording import ENGLISH, notices

COMMAND, COMPONENT, AUTOCOMPLETE = 2, 3, 4
BUTTON, STRING_SELECT = 2, 3
SORRY = notices.sorry(ENGLISH)


def leaf(data: dict) -> dict:
    """The subcommand's node in a command's interaction data."""
    while data.get("options") and data["options"][0]["type"] in (1, 2):
        data = data["options"][0]
    return data


async def forged_command(h, user: int, command: str, valid: dict, forged: dict | None = None, drop=(),
                         extra=(), kind: int = COMMAND):
    """Send `/command` as the client would with `valid` options, then with values replaced by `forged`,
    the options in `drop` left out and the raw options `extra` added."""
    data = h._command_data(command, valid)
    node = leaf(data)
    node["options"] = [dict(o, value=(forged or {}).get(o["name"], o["value"]))
                       for o in node["options"] if o["name"] not in drop] + list(extra)
    return await h.send_interaction(h.interaction_payload(user, kind, data))


def assert_polite(result) -> str:
    answer = result.answer
    assert not result.unanswered and answer.ephemeral, result
    assert answer.content and answer.content != SORRY and "Traceback" not in answer.content
    return answer.content


FORGED_COMMANDS = [
    pytest.param("augsburg rules", {"topic": "limits"}, {"topic": "xyz"}, (), (), id="unknown rules topic"),
    pytest.param("augsburg compensate", {"take": "money"}, {"take": "gold"}, (), (), id="unknown compensation"),
    pytest.param("augsburg seat notify", {"how": "dm"}, {"how": "carrier pigeon"}, (), (), id="unknown notify choice"),
    pytest.param("augsburg buy", {"cards": "nothing"}, None, ("cards",), (), id="missing required option"),
    pytest.param("augsburg bid", {"count": 3}, {"count": "three"}, (), (), id="text for a number"),
    pytest.param("augsburg bid", {"count": 3}, {"count": 500}, (), (), id="number out of range"),
    pytest.param("augsburg log", {"round": 2}, {"round": 99}, (), (), id="round out of range"),
    pytest.param("augsburg status", {}, None, (), ({"name": "colour", "type": 3, "value": "red"},),
                 id="unknown option"),
]


@pytest.mark.parametrize("command, valid, forged, drop, extra", FORGED_COMMANDS)
async def test_a_forged_command_gets_a_polite_answer_and_changes_nothing(harness, command, valid, forged, drop,
                                                                         extra):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    before = game(h).state.model_copy(deep=True)
    answer = assert_polite(await forged_command(h, ADA, command, valid, forged, drop, extra))
    assert "could not read that command" in answer
    assert game(h).state == before
    h.assert_all_answered()
    h.assert_no_errors()


async def test_an_unknown_subcommand_gets_a_polite_answer(harness):
    h = harness
    data = h._command_data("augsburg status", {})
    data["options"] = [{"name": "fly", "type": 1, "options": []}]
    answer = assert_polite(await h.send_interaction(h.interaction_payload(ADA, COMMAND, data)))
    assert "could not read that command" in answer
    # Autocomplete for it: no suggestions (an autocomplete can only be answered with choices).
    data["options"][0]["options"] = [{"name": "to", "type": 3, "value": "", "focused": True}]
    result = await h.send_interaction(h.interaction_payload(ADA, AUTOCOMPLETE, data))
    assert result.choices == []
    h.assert_all_answered()
    h.assert_no_errors()


FORGED_AUTOCOMPLETES = [
    pytest.param("augsburg reveal", {"cards": "x"}, [{"name": "zzz", "type": 3, "value": "", "focused": True}],
                 id="unknown option"),
    pytest.param("augsburg rules", {}, [{"name": "topic", "type": 3, "value": "", "focused": True}],
                 id="an option that does not autocomplete"),
    pytest.param("augsburg buy", {"cards": "x"}, [{"name": "cards", "type": 3, "value": ""}], id="nothing focused"),
    pytest.param("augsburg buy", {"cards": "x"}, [{"name": "cards", "type": 3, "value": 7, "focused": True}],
                 id="a number as text"),
]


@pytest.mark.parametrize("command, valid, options", FORGED_AUTOCOMPLETES)
async def test_a_forged_autocomplete_gets_no_suggestions_and_logs_no_error(harness, command, valid, options):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    data = h._command_data(command, valid)
    leaf(data)["options"] = options
    result = await h.send_interaction(h.interaction_payload(ADA, AUTOCOMPLETE, data))
    assert not result.unanswered and isinstance(result.choices, list)
    h.assert_no_errors()


async def test_a_command_from_outside_a_server_gets_a_polite_answer(harness):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    data = h._command_data("augsburg pass", {})
    payload = h.interaction_payload(ADA, COMMAND, data)
    for key in ("guild_id", "guild", "member", "guild_locale"):  # a DM with the bot, as Discord sends it
        del payload[key]
    payload.update(user=h.user(ADA).user_payload(), context=1, channel={"id": "123", "type": 1},
                   channel_id="123")
    moves = game(h).state.moves
    answer = assert_polite(await h.send_interaction(payload))
    assert "server channel" in answer and game(h).state.moves == moves
    h.assert_no_errors()


UNKNOWN_COMPONENTS = [
    pytest.param("aug:zzz:1", BUTTON, id="an id the bot no longer knows"),
    pytest.param("some-other-bot:vote:1", BUTTON, id="not one of ours"),
    pytest.param("aug:do:1:0:p", BUTTON, id="one of ours, not on the message"),
    pytest.param("aug:tbl:1:hand", STRING_SELECT, id="a button's id as a menu"),
]


@pytest.mark.parametrize("custom_id, kind", UNKNOWN_COMPONENTS)
async def test_an_unknown_component_gets_a_polite_answer(harness, custom_id, kind):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    before = game(h).state.model_copy(deep=True)
    data = {"custom_id": custom_id, "component_type": kind, **({"values": ["0"]} if kind == STRING_SELECT else {})}
    result = await h.send_interaction(h.interaction_payload(BEN, COMPONENT, data, h.message(table)))
    assert "not one of ours" in assert_polite(result)
    assert game(h).state == before
    h.assert_all_answered()
    h.assert_no_errors()


async def test_known_components_are_answered_once(harness):
    """The catch-all leaves alone what discord.py routes: a second answer would be refused by Discord."""
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    opened = await h.click(ADA, table, label="My hand & actions")
    assert "Your money" in opened.answer.content and len(opened.messages) == 1
    h.assert_no_errors()  # the fake records a second callback to one interaction as a refusal
