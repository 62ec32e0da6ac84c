"""An answered interaction is freed at once, not left for a garbage collection (issue 44).

discord.py's Interaction and its InteractionResponse refer to each other. Left as it is, that cycle kept
every interaction (its member, the clicked message with its embeds and components, the handler's state)
alive until a collection found it: under load, most of what the collections walked, in pauses of 50 ms
and more for every table. `answers.let_go` breaks the cycles once the handler is done.
"""

from __future__ import annotations

import gc
import random

import discord
from support.bot_support import ADA, BEN, STRANGER, due_people, open_and_start, take_a_decision

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


def interactions_alive() -> list[discord.Interaction]:
    return [o for o in gc.get_objects() if isinstance(o, discord.Interaction)]


async def test_answered_interactions_of_every_kind_go_without_a_garbage_collection(harness) -> None:
    h = harness
    table = await open_and_start(h)
    gc.collect()
    gc.disable()  # only reference counting frees anything from here on
    try:
        rnd = random.Random(44)
        for _ in range(3):  # panels opened from the table's button, and the moves taken on them
            await take_a_decision(h, due_people(h)[0], table, rnd)
        await h.slash(BEN, "augsburg hand")  # a typed command
        assert isinstance(await h.autocomplete(ADA, "augsburg buy", "cards", ""), list)  # an autocomplete
        refused = await h.click(STRANGER, table, label="My hand & actions")  # someone not seated
        assert refused.answer.ephemeral
        unknown = {"custom_id": "some-other-bot:vote:1", "component_type": 2}  # a component not ours
        assert (await h.send_interaction(h.interaction_payload(BEN, 3, unknown, h.message(table)))).answer
        forged = h._command_data("augsburg bid", {"count": 3})  # a command with an option it does not offer
        forged["options"][0]["options"][0]["value"] = 500
        assert (await h.send_interaction(h.interaction_payload(BEN, 2, forged))).answer
        await h.settle()
        alive = interactions_alive()
    finally:
        gc.enable()
    assert alive == [], f"{len(alive)} answered interactions wait for a garbage collection"


async def test_an_answered_interaction_still_knows_it_was_answered(harness) -> None:
    """Nothing answers twice once the cycle is broken: discord.py (after an autocomplete) and a late defer
    ask the response whether it is done, and it still says so."""
    from bot.discord_app import answers

    h = harness
    table = await open_and_start(h)
    gc.collect()
    seen: list[discord.Interaction] = []
    let_go = answers.let_go

    def noting(interaction: discord.Interaction) -> None:
        let_go(interaction)
        seen.append(interaction)  # (kept alive here, to be asked afterwards)

    answered_before = len(h.requests_to("POST", CALLBACK))
    answers.let_go = noting
    try:
        await h.click(ADA, table, label="My hand & actions")
        await h.autocomplete(ADA, "augsburg buy", "cards", "")
        await h.settle()
    finally:
        answers.let_go = let_go
    assert len(seen) == 2
    assert all(i.response.is_done() for i in seen)
    for interaction in seen:
        await answers.acknowledge(interaction)  # a late defer finds it answered: it sends nothing
    assert len(h.requests_to("POST", CALLBACK)) - answered_before == 2, "one answer each, and no more"
