"""An answer with no buttons (a view of None) through discord.py's real code paths (found typing bot/discord_app).

discord.py's `InteractionResponse.send_message` takes no None for a view: it sends the message, then asks
the view `is_finished()`, so the answer stood while the handler failed and the person got an apology after
it. `answers.post` and `answers.send` take None as "no buttons". Nothing reaches them with None today (only
an open game's table, which has buttons, is posted; a panel is of an active game): these tests hand them one.
"""

from __future__ import annotations

from support.bot_support import ADA, BEN, game, open_and_start

from bot.discord_app.handlers import play


def presenter(h):
    return h.bot.get_cog("Augsburg").presenter


async def test_a_table_posted_again_without_buttons_is_posted_and_not_an_apology(harness):
    h = harness
    opened = await h.slash(ADA, "augsburg new")
    table = opened.answer
    h.message(table.message_id).deleted = True  # someone deleted the lobby: the next /augsburg new posts it again
    looks = presenter(h).looks

    async def no_buttons(record, slotted=False):
        embed, _, files = await looks(record, slotted)
        return embed, None, files

    presenter(h).looks = no_buttons
    again = await h.slash(BEN, "augsburg new")
    assert again.errors == [] and not again.answer.ephemeral
    assert again.answer.embeds and again.answer.components == []
    assert not again.ephemeral  # no apology after it
    h.assert_all_answered()


async def test_a_private_answer_without_buttons_or_embed_is_sent_and_not_an_apology(harness, monkeypatch):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))

    async def bare_panel(w, service, record, user_id, note="", moves=None):
        return "your panel", None, None

    monkeypatch.setattr(play, "private_panel", bare_panel)
    shown = await h.click(ADA, table, label="My hand & actions")
    assert shown.errors == [] and shown.answer.ephemeral and shown.answer.content == "your panel"
    assert shown.answer.components == [] and len(shown.ephemeral) == 1  # the panel alone: no apology after it
    assert game(h).state is not None
    h.assert_all_answered()
