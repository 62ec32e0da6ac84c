"""Whole seeded games at a German and at an Italian table (issue 14), with players whose Discord clients
speak German, Italian and English: each reads their own panels in their own language, the channel reads
the table's, and nobody sees a hidden card, in any language."""

from __future__ import annotations

import random

import pytest
from support.bot_support import ADA, BEN, CLEO, check_no_leak, game, long_lived, make_bot, message_text, name_of
from support.fake_discord import FakeUser, Harness

from bot.discord_app.panels import panel
from bot.wording import words
from engine import to_act

READERS = {ADA: "de", BEN: "it", CLEO: "en-US"}


@pytest.mark.parametrize(("table_lang", "seed"), [("de", 5), ("it", 6)])
async def test_a_whole_game_at_a_table_in_one_language_with_readers_in_three(tmp_path, table_lang, seed):
    users = [FakeUser(u, name, locale=READERS[u]) for u, name in ((ADA, "Ada"), (BEN, "Ben"), (CLEO, "Cleo"))]
    h = await Harness.create(make_bot(tmp_path / "bot.sqlite3"), users=users, ignore=(long_lived,),
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
    public: set[str] = set()
    seen_own = {user: set() for user in READERS}
    for _ in range(3000):
        record = game(h)
        if record is None:
            break
        for p in record.state.players:
            seen_own[int(p.id)] |= {name_of(c) for c in p.hand + p.offered}
        check_no_leak(h, seen_own, public)
        user = int(rnd.choice(to_act(record.state)))
        reader = words(READERS[user])
        opened = (await h.click(user, table, label=tw._("My hand & actions"))).answer  # the table's words
        assert opened.ephemeral and opened.content == panel(reader, game(h), user)[0], f"{reader.lang} panel"
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


async def decide(h: Harness, user: int, opened, rnd: random.Random) -> None:
    """One of the decisions the panel offers, by its button or its menu, as a player takes it."""
    buttons = [b for b in opened.buttons() if b["custom_id"].startswith("aug:do:") and not b.get("disabled")]
    choice = rnd.choice(buttons + opened.selects())
    if choice.get("type") == 2:
        result = await h.click(user, opened.message_id, choice["custom_id"])
    else:
        values = [o["value"] for o in choice["options"]]
        picked = rnd.sample(values, rnd.randint(choice.get("min_values", 1), choice.get("max_values", 1)))
        result = await h.select(user, opened.message_id, choice["custom_id"], picked)
    assert not result.unanswered and result.answer.ephemeral
