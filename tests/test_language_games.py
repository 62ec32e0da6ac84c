"""Whole seeded games at a German and at an Italian table (issue 14), with players whose Discord clients
speak German, Italian and English: each reads their own panels in their own language, the channel reads
the table's, and nobody sees a hidden card, in any language."""

from __future__ import annotations

import random

import pytest
from support.bot_support import (
    ADA,
    BEN,
    CLEO,
    PublicRecord,
    decide,
    game,
    long_lived,
    make_bot,
    message_text,
    next_to_act,
)
from support.fake_discord import FakeUser, Harness

from bot.discord_app.panels import panel
from bot.service.showing import decision_of
from bot.wording import words

READERS = {ADA: "de", BEN: "it", CLEO: "en-US"}


@pytest.mark.parametrize(("table_lang", "seed"), [("de", 5), ("it", 6)])
async def test_a_whole_game_at_a_table_in_one_language_with_readers_in_three(tmp_path, table_lang, seed):
    users = [FakeUser(u, name, locale=READERS[u]) for u, name in ((ADA, "Ada"), (BEN, "Ben"), (CLEO, "Cleo"))]
    h = await Harness.create(make_bot(tmp_path / "bot.sqlite3", deal_seed=seed), users=users, ignore=(long_lived,),
                             locale=table_lang)
    try:
        await play(h, words(table_lang), random.Random(seed))
    finally:
        await h.close()


async def play(h: Harness, tw, rnd: random.Random) -> None:
    await h.settle()
    table = (await h.slash(ADA, "augsburg new")).answer.message_id
    for user in (BEN, CLEO):
        await h.click(user, table, label=tw._("Join"))
    await h.click(ADA, table, label=tw._("Start game"))
    seen = PublicRecord()
    for _ in range(3000):
        user = await next_to_act(h, seen, rnd)
        if user is None:
            break
        reader = words(READERS[user])
        opened = (await h.click(user, table, label=tw._("My hand & actions"))).answer  # the table's words
        expected = panel(reader, game(h), decision_of(game(h), str(user)))[0]
        assert opened.ephemeral and opened.content == expected, f"{reader.lang} panel"
        await decide(h, user, opened, rnd)
    assert game(h) is None, "the game did not finish"
    h.assert_all_answered()
    h.assert_no_errors()
    channel = "\n".join(message_text(m) for m in h.channel_messages.values())
    assert tw._("**Augsburg 1520 — final standings**") in channel
    assert "final standings" not in channel and " bids " not in channel, "an English sentence in public"
    ended = h.message(table).embeds[0]["description"]
    over = [tw.n_("The game is over. Winner: {winners}.", "The game is over. Winners: {winners}.", n,
                  winners="\0").split("\0")[0] for n in (1, 2)]
    assert any(ended.startswith(prefix) for prefix in over), ended
