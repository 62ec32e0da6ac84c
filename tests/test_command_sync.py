"""Slash commands are synced at start-up only when their definition changed since the last sync."""

from __future__ import annotations

import discord
from support.bot_support import ADA, long_lived, make_bot
from support.fake_discord import FakeUser, Harness

SYNC = ("PUT", "/applications/{application_id}/commands")
GUILD_SYNC = ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")


def with_extra_command(bot):
    @bot.tree.command(name="extra", description="a command added since the last sync")
    async def extra(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("extra", ephemeral=True)

    return bot


async def test_a_restart_with_the_same_commands_does_not_sync_and_a_change_does(tmp_path):
    path = tmp_path / "sync.sqlite3"
    h = await Harness.create(make_bot(path), users=[FakeUser(ADA, "Ada")], ignore=(long_lived,))
    try:
        assert len(h.requests_to(*SYNC)) == 1
        await h.restart(make_bot(path))
        assert len(h.requests_to(*SYNC)) == 1  # the same commands: nothing sent
        new = await h.slash(ADA, "augsburg new")  # Discord still has them
        assert "new table" in new.answer.embeds[0]["title"]

        await h.restart(with_extra_command(make_bot(path)))
        syncs = h.requests_to(*SYNC)
        assert len(syncs) == 2 and "extra" in {c["name"] for c in syncs[-1].json}
        await h.restart(with_extra_command(make_bot(path)))
        assert len(h.requests_to(*SYNC)) == 2

        await h.restart(make_bot(path, discord_guild_id=h.guild_id))  # another place: synced there
        assert len(h.requests_to(*GUILD_SYNC)) == 1 and len(h.requests_to(*SYNC)) == 2
    finally:
        await h.close()


async def test_a_failed_sync_is_tried_again_at_the_next_start(tmp_path):
    path = tmp_path / "sync.sqlite3"
    h = await Harness.create(make_bot(path), users=[FakeUser(ADA, "Ada")], ignore=(long_lived,))
    try:
        h.fail_next(*SYNC, status=403, code=50001, message="Missing Access")  # not transient: no retry
        await h.detach()
        refused = with_extra_command(make_bot(path))
        try:
            await h.attach(refused)
        except discord.Forbidden:
            pass
        else:
            raise AssertionError("the refused sync should stop the start")
        h.bot = None
        await refused.close()
        await h.attach(with_extra_command(make_bot(path)))  # the hash was not stored: synced now
        syncs = h.requests_to(*SYNC)
        assert len(syncs) == 3 and syncs[-1].status == 200
    finally:
        await h.close()
