"""Tests for tests/discord_harness.py, using a toy bot defined here.

The toy bot has an app-command group ``/toy`` with:

* ``/toy count start:int``   -> public message with a persistent DynamicItem button ``toy:btn:<n>``
* ``/toy color name:str``    -> autocomplete on ``name``; ephemeral reply with a Select (plain View)
* ``/toy slow [private]``    -> defer (thinking) then followups
* ``/toy post``              -> channel.send with a non-persistent View, ephemeral ack
* ``/toy ignore`` / ``/toy boom`` / ``/toy late`` / ``/toy hang`` -> misbehaving handlers
* ``/toy admin reset confirm:bool`` -> nested subcommand group
"""

from __future__ import annotations

import asyncio

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from discord.webhook.async_ import async_context

from tests.discord_harness import EPHEMERAL, FakeUser, Harness, HarnessError, SettleTimeout

ALICE, BOB = 101, 102
COLORS = ["red", "green", "blue", "rebeccapurple"]


# ------------------------------------------------------------------------------------------
# Toy bot
# ------------------------------------------------------------------------------------------


class CounterButton(discord.ui.DynamicItem[discord.ui.Button], template=r"toy:btn:(?P<n>[0-9]+)"):
    """Persistent button: the count lives in the custom_id, so it survives restarts."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(label=f"Bump {n}", style=discord.ButtonStyle.primary, custom_id=f"toy:btn:{n}")
        )
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.seen.append(("bump", self.n, interaction.user.id, interaction.client.instance))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=counter_view(self.n + 1))


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(n))
    return view


class PickView(discord.ui.View):
    """Ephemeral, non-persistent view with a string select."""

    @discord.ui.select(
        custom_id="toy:pick",
        placeholder="Pick a color",
        options=[discord.SelectOption(label=c.title(), value=c) for c in COLORS],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        eph = interaction.message.flags.ephemeral
        await interaction.response.send_message(f"you picked {select.values[0]} (on ephemeral={eph})", ephemeral=True)


class PostView(discord.ui.View):
    """Non-persistent view on a plain channel message: dies with the bot process."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Delete", custom_id="toy:delete")
    async def delete(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.message.delete()


class NameModal(discord.ui.Modal, title="Rename"):
    name = discord.ui.TextInput(label="New name", custom_id="toy:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}", ephemeral=True)


async def color_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=c, value=c) for c in COLORS if c.startswith(current)]


def make_toy_group() -> app_commands.Group:
    """A fresh /toy group per bot instance (like a real bot building its tree in setup_hook)."""
    toy = app_commands.Group(name="toy", description="Toy commands")
    admin = app_commands.Group(name="admin", description="Admin commands", parent=toy)

    @toy.command(name="count", description="Start a counter")
    async def count(interaction: discord.Interaction, start: app_commands.Range[int, 0, 1000]) -> None:
        interaction.client.seen.append(
            (
                "count",
                type(start).__name__,
                type(interaction.user).__name__,
                interaction.channel.id,
                interaction.guild.id,
            )
        )
        await interaction.response.send_message(f"count={start}", view=counter_view(start))

    @toy.command(name="color", description="Pick a color")
    @app_commands.autocomplete(name=color_autocomplete)
    async def color(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"color {name}", ephemeral=True, view=PickView())

    @toy.command(name="slow", description="Think, then answer")
    async def slow(interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(ephemeral=private, thinking=True)
        await asyncio.sleep(0.01)
        await interaction.followup.send("done thinking")  # fills the thinking message
        await interaction.followup.send("and one more", embed=discord.Embed(title="Extra", description="x"))

    @toy.command(name="post", description="Post a message in the channel")
    async def post(interaction: discord.Interaction) -> None:
        msg = await interaction.channel.send("a plain post", view=PostView())
        await interaction.response.send_message(f"posted {msg.id}", ephemeral=True)

    @toy.command(name="ignore", description="Never answers")
    async def ignore(interaction: discord.Interaction) -> None:
        return None

    @toy.command(name="boom", description="Raises")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    @toy.command(name="late", description="Answers after Discord's deadline")
    async def late(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.2)
        await interaction.response.send_message("too late")

    @toy.command(name="hang", description="Answers, then never finishes")
    async def hang(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("hanging")
        await asyncio.Event().wait()

    @toy.command(name="poke", description="Poke a member")
    async def poke(interaction: discord.Interaction, who: discord.Member, times: float = 1.0) -> None:
        await interaction.response.send_message(f"poke {who.display_name} ({type(who).__name__}) x{times!r}")
        original = await interaction.original_response()
        await original.edit(content=original.content + " (edited)")
        note = await interaction.followup.send("temporary note", wait=True)
        await note.edit(content="edited note")
        await note.delete()

    @toy.command(name="rename", description="Opens a modal")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @toy.command(name="whisper", description="Sends a DM")
    async def whisper(interaction: discord.Interaction) -> None:
        await interaction.user.send("psst")
        await interaction.response.send_message("check your DMs", ephemeral=True)

    @admin.command(name="reset", description="Reset everything")
    async def reset(interaction: discord.Interaction, confirm: bool, reason: str | None = None) -> None:
        await interaction.response.send_message(f"reset confirm={confirm!r} reason={reason!r}", ephemeral=True)

    return toy


class ToyBot(commands.Bot):
    def __init__(self, instance: int = 1) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.instance = instance
        self.seen: list[tuple] = []
        self.ready_seen = False

    async def setup_hook(self) -> None:
        self.tree.add_command(make_toy_group())
        self.add_dynamic_items(CounterButton)
        await self.tree.sync()

    async def on_ready(self) -> None:
        self.ready_seen = True


class GuildBot(commands.Bot):
    """Registers its commands for one guild only, and has a buggy on_interaction that answers too."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        @app_commands.command(name="hello", description="Say hello")
        async def hello(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("hello")

        self.tree.add_command(hello, guild=discord.Object(self.guild_id))
        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("me too!")  # races the command handler


# ------------------------------------------------------------------------------------------
# Fixtures
# ------------------------------------------------------------------------------------------


@pytest.fixture
async def h():
    harness = await Harness.create(ToyBot(), users=[FakeUser(ALICE, "alice"), FakeUser(BOB, "bob")])
    try:
        yield harness
    finally:
        await harness.close()


# ------------------------------------------------------------------------------------------
# Tests
# ------------------------------------------------------------------------------------------


async def test_startup_runs_real_login_setup_hook_and_ready(h: Harness) -> None:
    bot = h.bot
    assert bot.user.id == h.bot_user.id and bot.application_id == h.application_id
    assert bot.ready_seen and bot.is_ready()
    assert h.guild is not None and h.channel is not None and h.channel.guild is h.guild
    # setup_hook's tree.sync went through the fake HTTP with the real command payload
    (sync,) = h.requests_to("PUT", "/applications/{application_id}/commands")
    (toy,) = sync.json
    assert toy["name"] == "toy" and {o["name"] for o in toy["options"]} >= {"count", "color", "admin"}


async def test_slash_with_int_option_posts_public_message_with_dynamic_button(h: Harness) -> None:
    r = await h.slash(ALICE, "toy count", start=3)

    assert not r.unanswered and r.errors == []
    assert r.response.kind == "response" and r.response.ephemeral is False
    assert r.response.content == "count=3"
    assert r.custom_ids() == ["toy:btn:3"] and r.labels() == ["Bump 3"]
    # the option arrived as an int, the user as a Member, in the right channel/guild
    assert h.bot.seen == [("count", "int", "Member", h.channel_id, h.guild_id)]
    # the nested payload discord.py received
    (cb,) = h.requests_to("POST", "/interactions/{webhook_id}/{webhook_token}/callback")
    assert cb.json["type"] == 4
    # channel model and gateway echo into discord.py's message cache
    msg = h.channel_messages[r.response.message_id]
    assert msg.content == "count=3" and not msg.ephemeral
    assert msg.data["interaction_metadata"]["user"]["id"] == str(ALICE)
    assert any(m.id == msg.id for m in h.bot.cached_messages)
    h.assert_all_answered()


async def test_click_dynamic_button_updates_the_same_message(h: Harness) -> None:
    r = await h.slash(ALICE, "toy count", start=3)
    board = r.response.message_id

    r2 = await h.click(BOB, board, "toy:btn:3")
    assert r2.response.kind == "update" and r2.response.message_id == board
    assert r2.response.content == "count=4" and r2.custom_ids() == ["toy:btn:4"]
    assert h.channel_messages[board].custom_ids() == ["toy:btn:4"]
    # the old button is gone from the message, so a user can no longer click it
    with pytest.raises(HarnessError, match="no component"):
        await h.click(BOB, board, "toy:btn:3")
    # messages can also be addressed via the Result / by label
    r3 = await h.click(ALICE, r2, label="Bump 4")
    assert r3.response.content == "count=5"
    assert [s[:3] for s in h.bot.seen[1:]] == [("bump", 3, BOB), ("bump", 4, ALICE)]
    h.assert_all_answered()


async def test_autocomplete_returns_choices(h: Harness) -> None:
    choices = await h.autocomplete(ALICE, "toy color", "name", "re")
    assert choices == [{"name": "red", "value": "red"}, {"name": "rebeccapurple", "value": "rebeccapurple"}]
    assert h.last_result.response.kind == "autocomplete"
    assert await h.autocomplete(ALICE, "toy color", "name", "zzz") == []


async def test_ephemeral_reply_with_select(h: Harness) -> None:
    r = await h.slash(ALICE, "toy color", name="blue")

    out = r.response
    assert out.kind == "response" and out.ephemeral and out.content == "color blue"
    assert out.payload["flags"] & EPHEMERAL
    assert [o["value"] for o in out.select_options("toy:pick")] == COLORS
    assert out.message_id in h.ephemeral_messages(ALICE)
    assert out.message_id not in h.channel_messages and not h.ephemeral_messages(BOB)

    # Bob cannot see Alice's ephemeral message; invalid values are rejected like the client would
    with pytest.raises(HarnessError, match="ephemeral"):
        await h.select(BOB, out.message_id, "toy:pick", ["red"])
    with pytest.raises(HarnessError, match="not among options"):
        await h.select(ALICE, out.message_id, "toy:pick", ["purple"])

    r2 = await h.select(ALICE, out.message_id, "toy:pick", ["green"])
    # the interaction payload carried the message with flags 64, so discord.py saw it as ephemeral
    assert r2.response.content == "you picked green (on ephemeral=True)"
    assert r2.response.ephemeral
    h.assert_all_answered()


async def test_defer_then_followups(h: Harness) -> None:
    r = await h.slash(BOB, "toy slow")

    assert [o.kind for o in r.outputs] == ["defer", "followup", "followup"]
    defer, first, second = r.outputs
    # the first followup fills the "thinking" message; the second is a new message
    assert first.message_id == defer.message_id and first.content == "done thinking"
    assert second.message_id != first.message_id and second.embeds[0]["title"] == "Extra"
    assert not r.still_thinking and not h.channel_messages[defer.message_id].loading
    assert "Extra" in r.text
    h.assert_all_answered()


async def test_private_defer_makes_first_followup_ephemeral(h: Harness) -> None:
    r = await h.slash(BOB, "toy slow", private=True)
    defer, first, second = r.outputs
    assert defer.ephemeral and first.ephemeral and first.message_id == defer.message_id
    assert not second.ephemeral  # later followups follow their own flags
    assert list(h.ephemeral_messages(BOB)) == [first.message_id]


async def test_nested_subcommand_group_and_bool_option(h: Harness) -> None:
    r = await h.slash(ALICE, "toy admin reset", confirm=True)
    assert r.response.content == "reset confirm=True reason=None"
    r = await h.slash(ALICE, "toy admin reset", confirm=False, reason="why not")
    assert r.response.content == "reset confirm=False reason='why not'"


async def test_client_side_validation_of_options(h: Harness) -> None:
    with pytest.raises(HarnessError, match="required option 'start'"):
        await h.slash(ALICE, "toy count")
    with pytest.raises(HarnessError, match="integer"):
        await h.slash(ALICE, "toy count", start="3")
    with pytest.raises(HarnessError, match="outside"):
        await h.slash(ALICE, "toy count", start=5000)
    with pytest.raises(HarnessError, match="unknown option"):
        await h.slash(ALICE, "toy count", start=1, nope=2)
    with pytest.raises(HarnessError, match="no subcommand"):
        await h.slash(ALICE, "toy nope")
    with pytest.raises(HarnessError, match="is a group"):
        await h.slash(ALICE, "toy admin")
    assert h.requests_to("POST", "/interactions/{webhook_id}/{webhook_token}/callback") == []


async def test_unanswered_interaction_is_detected(h: Harness) -> None:
    r = await h.slash(ALICE, "toy ignore")
    assert r.unanswered and r.outputs == []
    with pytest.raises(AssertionError, match="never answered"):
        h.assert_all_answered()


async def test_handler_exception_is_unanswered_and_logged(h: Harness) -> None:
    r = await h.slash(ALICE, "toy boom")
    assert r.unanswered
    assert any("kaboom" in e for e in r.errors)
    with pytest.raises(AssertionError, match="kaboom"):
        h.assert_no_errors()


async def test_answer_after_deadline_fails_like_discord() -> None:
    h = await Harness.create(ToyBot(), users=[ALICE], response_deadline=0.05)
    try:
        r = await h.slash(ALICE, "toy late")
        assert r.unanswered
        assert any("10062" in e or "Unknown interaction" in e for e in r.errors)
    finally:
        await h.close()


async def test_settle_timeout_reports_stuck_task(h: Harness) -> None:
    r = await h.slash(ALICE, "toy hang", settle=False)
    with pytest.raises(SettleTimeout, match="hang"):
        await h.settle(timeout=0.2)
    assert r.response.content == "hanging"  # the answer itself did arrive


async def test_channel_send_and_delete_via_view(h: Harness) -> None:
    r = await h.slash(ALICE, "toy post")
    assert [o.kind for o in r.outputs] == ["channel_message", "response"]
    post, ack = r.outputs
    assert ack.ephemeral and ack.content == f"posted {post.message_id}"
    assert h.channel_messages[post.message_id].content == "a plain post"

    r2 = await h.click(BOB, post.message_id, "toy:delete")
    assert [o.kind for o in r2.outputs] == ["defer_update", "message_delete"]
    assert post.message_id not in h.channel_messages
    h.assert_all_answered()


async def test_restart_routes_dynamic_items_but_not_plain_views(h: Harness) -> None:
    counter = (await h.slash(ALICE, "toy count", start=7)).response.message_id
    post = (await h.slash(ALICE, "toy post")).outputs[0].message_id
    first_bot = h.bot

    await h.restart(ToyBot(instance=2))
    assert h.bot is not first_bot and first_bot.is_closed()
    assert h.bot.ready_seen

    # DynamicItem: the new process rebuilds the button from its custom_id
    r = await h.click(BOB, counter, "toy:btn:7")
    assert r.response.content == "count=8"
    assert h.bot.seen == [("bump", 7, BOB, 2)]

    # A plain (non-persistent) View died with the old process -> "This interaction failed"
    r2 = await h.click(BOB, post, "toy:delete")
    assert r2.unanswered
    assert post in h.channel_messages


async def test_interaction_payload_shape(h: Harness) -> None:
    seen: list[discord.Interaction] = []

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction)

    h.bot.add_listener(on_interaction)
    await h.slash(ALICE, "toy admin reset", confirm=True)
    (interaction,) = seen
    assert interaction.type is discord.InteractionType.application_command
    assert interaction.data["options"] == [
        {
            "name": "admin",
            "type": 2,
            "options": [{"name": "reset", "type": 1, "options": [{"name": "confirm", "type": 5, "value": True}]}],
        }
    ]
    assert interaction.command.qualified_name == "toy admin reset"
    assert interaction.user.guild_permissions.send_messages
    assert interaction.locale is discord.Locale.american_english


async def test_member_option_original_response_and_followup_edits(h: Harness) -> None:
    r = await h.slash(ALICE, "toy poke", who=BOB, times=2)
    kinds = [o.kind for o in r.outputs]
    assert kinds == ["response", "edit_original", "followup", "followup_edit", "followup_delete"]
    assert r.outputs[1].content == "poke bob (Member) x2.0 (edited)"
    assert list(h.channel_messages) == [r.response.message_id]  # the followup was deleted again
    assert h.sent[-1]["data"]["resolved"]["users"][str(BOB)]["username"] == "bob"


async def test_modal_submit(h: Harness) -> None:
    r = await h.slash(ALICE, "toy rename")
    assert r.response.kind == "modal" and r.modal["title"] == "Rename"
    with pytest.raises(HarnessError, match="no inputs"):
        await h.submit_modal(ALICE, {"toy:nope": "x"})
    r = await h.slash(ALICE, "toy rename")
    r2 = await h.submit_modal(ALICE, {"toy:name": "Jakob Fugger"})
    assert r2.response.content == "renamed to Jakob Fugger" and r2.response.ephemeral


async def test_direct_message(h: Harness) -> None:
    r = await h.slash(BOB, "toy whisper")
    assert [o.kind for o in r.outputs] == ["dm_message", "response"]
    assert [m.content for m in h.dm_messages(BOB).values()] == ["psst"]
    assert not h.dm_messages(ALICE)


async def test_http_failure_injection(h: Harness) -> None:
    h.fail_next("POST", "/channels/{channel_id}/messages", status=403, code=50013, message="Missing Permissions")
    r = await h.slash(ALICE, "toy post")
    assert r.unanswered and any("Missing Permissions" in e for e in r.errors)
    r = await h.slash(ALICE, "toy post")  # one-shot: the next request works again
    assert not r.unanswered


async def test_guild_scoped_commands_and_double_acknowledgement() -> None:
    guild_id = 777_000_000_000_000_001
    h = await Harness.create(GuildBot(guild_id), guild_id=guild_id, users=[ALICE])
    try:
        assert h.requests_to("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
        r = await h.slash(ALICE, "hello")
        assert h.sent[-1]["data"]["guild_id"] == str(guild_id)
        # both the command and the listener answered: only the first wins, the second gets 40060
        assert len([o for o in r.outputs if o.kind == "response"]) == 1
        assert any("40060" in e for e in r.errors)
    finally:
        await h.close()


async def test_close_restores_discord_globals() -> None:
    h = await Harness.create(ToyBot(), users=[ALICE])
    assert "request" in async_context.get().__dict__  # interaction webhook adapter is patched
    await h.close()
    assert "request" not in async_context.get().__dict__
    assert h.bot is None
