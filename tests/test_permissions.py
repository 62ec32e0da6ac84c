"""The bot's permissions (issue 12, point 9): a table opens only where the bot can keep it going, the
command is offered in servers only, the README's invite asks for what the bot uses, and a channel that
refuses the bot's public posts never turns a player's move into an apology."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import discord
import pytest
from support.bot_support import ADA, BEN, buy_for_philipp, game, open_and_start, service
from support.fake_discord import DEFAULT

from bot.discord_app import permissions
from bot.wording import ENGLISH, names

ROOT = Path(__file__).resolve().parents[1]
COMMAND = 2
SEND = "/channels/{channel_id}/messages"
EDIT = "/channels/{channel_id}/messages/{message_id}"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
EVERYTHING = discord.Permissions.all_channel()


async def new_table(h, app_permissions: discord.Permissions, channel: dict | None = None):
    payload = h.interaction_payload(ADA, COMMAND, h._command_data("augsburg new", {}))
    payload["app_permissions"] = str(app_permissions.value)
    if channel is not None:
        payload["channel"], payload["channel_id"] = channel, channel["id"]
    return await h.send_interaction(payload)


def without(*names: str) -> discord.Permissions:
    perms = discord.Permissions(EVERYTHING.value)
    perms.update(**dict.fromkeys(names, False))
    return perms


@pytest.mark.parametrize("lacking, named", [
    (("send_messages", "embed_links"), ["Send Messages", "Embed Links"]),
    (("view_channel",), ["View Channel"]),
])
async def test_a_table_opens_only_with_the_permissions_the_bot_uses(harness, lacking, named):
    h = harness
    refused = await new_table(h, without(*lacking))
    answer = refused.answer
    assert answer.ephemeral and all(name in answer.content for name in named), answer.content
    others = {"View Channel", "Send Messages", "Embed Links", "Send Messages in Threads", "Create Public Threads"}
    others -= set(named)
    assert not any(re.search(rf"\b{name}\b(?! in Threads)", answer.content) for name in others), answer.content
    assert await service(h).games.current(h.channel_id) is None and not refused.public
    opened = await new_table(h, EVERYTHING)
    assert not opened.answer.ephemeral and opened.answer.embeds
    h.assert_no_errors()


async def test_in_a_thread_the_bot_needs_to_send_messages_in_threads(harness):
    h = harness
    thread = {"id": str(h.channel_id + 77), "type": 11, "guild_id": str(h.guild_id), "name": "game night",
              "parent_id": str(h.channel_id), "owner_id": str(ADA), "flags": 0, "message_count": 0, "member_count": 1,
              "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "locked": False,
                                  "archive_timestamp": "2024-01-01T00:00:00+00:00"}}
    refused = await new_table(h, without("send_messages_in_threads"), channel=thread)
    assert refused.answer.ephemeral and "Send Messages in Threads" in refused.answer.content
    assert await service(h).games.current(h.channel_id + 77) is None
    h.assert_no_errors()


def test_the_permissions_are_listed_in_one_place():
    assert permissions.needed(in_thread=False) == discord.Permissions(view_channel=True, send_messages=True,
                                                                       embed_links=True)
    assert permissions.needed(in_thread=True) == discord.Permissions(view_channel=True, send_messages_in_threads=True,
                                                                      embed_links=True)
    assert permissions.needed(in_thread=False, opens_thread=True) == permissions.needed(in_thread=True) | \
        discord.Permissions(create_public_threads=True)  # a table in a thread of its own (test_threads.py)
    assert permissions.INVITE == permissions.needed(in_thread=False) | permissions.needed(False, opens_thread=True)


def test_the_readme_invite_asks_for_every_permission_the_bot_uses():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"https://discord\.com/oauth2/authorize\?\S*?permissions=(\d+)", readme)
    assert links and all(int(value) == permissions.INVITE.value for value in links), links
    prose = " ".join(readme.split())  # names may wrap across lines
    for name in [names.permission(ENGLISH, flag) for flag in permissions.flags(permissions.INVITE)]:
        assert name in prose, f"the README does not name {name}"


async def test_augsburg_is_offered_in_servers_and_a_dm_with_the_bot_only(harness):
    """Issue 43: `/augsburg me …` works in a DM with the bot, so the command is offered there too (Discord sets
    where per top-level command); not in group DMs, and the other subcommands refuse in a DM (test_my_games)."""
    h = harness
    synced = next(c for scope in h.commands.values() for c in scope if c["name"] == "augsburg")
    assert synced["contexts"] == [0, 1]
    assert not any("dm_permission" in o or "contexts" in o for o in synced["options"])


def refuse_public_posts(h, code: int = 50013, message: str = "Missing Permissions", edits: bool = False) -> None:
    """The channel refuses the bot's messages, and no interaction token is alive to post with instead."""
    h.on_route("POST", SEND, lambda req: (_ for _ in ()).throw(h.http_error(403, code, message)))
    if edits:
        h.on_route("PATCH", EDIT, lambda req: (_ for _ in ()).throw(h.http_error(403, code, message)))

    def expired(req):
        if int((req.json or {}).get("flags") or 0) & 64:
            return DEFAULT  # the player's own ephemeral answers still go through
        raise h.http_error(401, 50027, "Invalid Webhook Token")

    h.on_route("POST", FOLLOWUP, expired)


@pytest.mark.parametrize("code, message, edits", [(50013, "Missing Permissions", False),
                                                  (50001, "Missing Access", True)])
async def test_a_channel_refusing_public_posts_never_turns_a_move_into_an_apology(harness, caplog, code, message,
                                                                                  edits):
    h = harness
    table = await open_and_start(h, players=(ADA, BEN))
    refuse_public_posts(h, code, message, edits)
    with caplog.at_level(logging.WARNING):
        for user in (ADA, BEN):  # the second purchase starts the auction: its opener is pinged
            panel = (await h.click(user, table, label="My hand & actions")).answer
            moved = await buy_for_philipp(h, user, panel.message_id)
            assert "✅" in moved.answer.content
            assert not any("Sorry" in m.content for m in moved.messages), moved.messages
        assert game(h).state.phase == "auction"
        ask = await h.slash(ADA, "augsburg cancel")
        done = await h.click(ADA, ask.answer.message_id, label="Yes, cancel the game")
        assert "cancelled" in done.answer.content and not any("Sorry" in m.content for m in done.messages)
    assert game(h) is None
    assert any(r.levelno == logging.WARNING and str(h.channel_id) in r.getMessage() for r in caplog.records)
    h.assert_all_answered()
    h.assert_no_errors()
