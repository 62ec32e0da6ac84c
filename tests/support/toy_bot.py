"""A small discord.py bot that exercises what the fake models, for the fake's own tests.

``/toy``: ``count start`` (public message with a persistent DynamicItem button), ``color name``
(autocomplete; ephemeral reply with a select), ``slow [private]`` (thinking defer, two followups),
``post`` (channel message with a plain View), ``note`` (edits of @original and of a followup),
``say text`` (sends ``text`` as it is), ``shout text`` (``text`` pinging nobody, then a followup pinging
only the caller), ``dm text`` (DMs ``text`` with a "Got it" button to the caller, says so or why not),
``picture`` (a file shown as its embed's image, with a "Next" button that swaps the picture for
another), ``late``/``wait`` (answer or follow up once ``bot.gate`` opens), ``ignore``/``boom``/``hang`` (misbehave)
and ``admin reset confirm [reason]`` (a nested group). :func:`on_gateway` runs it against a
:class:`~support.server.FakeDiscord` through the gateway door, in this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

COLORS = ["red", "green", "blue", "rebeccapurple"]


class CounterButton(discord.ui.DynamicItem[discord.ui.Button], template=r"toy:btn:(?P<n>[0-9]+)"):
    """The count lives in the custom_id, so the button survives restarts."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Bump {n}", custom_id=f"toy:btn:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.seen.append(("bump", self.n, interaction.user.id, interaction.client.instance))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=counter_view(self.n + 1))


def counter_view(n: int) -> discord.ui.View:
    return discord.ui.View(timeout=None).add_item(CounterButton(n))


class PickView(discord.ui.View):
    @discord.ui.select(custom_id="toy:pick", options=[discord.SelectOption(label=c.title(), value=c) for c in COLORS])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        on = interaction.message.flags.ephemeral
        await interaction.response.send_message(f"you picked {select.values[0]} (on ephemeral={on})", ephemeral=True)


class PostView(discord.ui.View):
    """Not persistent: it dies with the bot."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Delete", custom_id="toy:delete")
    async def delete(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.message.delete()


def picture(name: str, data: bytes) -> tuple[discord.File, discord.Embed]:
    """A file and an embed showing it (``attachment://name``)."""
    embed = discord.Embed(title=name).set_image(url=f"attachment://{name}")
    return discord.File(io.BytesIO(data), filename=name, description=f"picture {name}"), embed


class PictureView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Next", custom_id="toy:picture:next")
    async def next(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        file, embed = picture("next.png", b"next picture")
        await interaction.response.edit_message(embed=embed, attachments=[file], view=self)


class DmView(discord.ui.View):
    """On a DM: the click comes from the DM channel, with a User instead of a Member."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Got it", custom_id="toy:dm:ack")
    async def ack(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        where = (interaction.guild, type(interaction.channel).__name__, type(interaction.user).__name__)
        interaction.client.seen.append(("ack", *where))
        await interaction.response.edit_message(content=f"{interaction.message.content} (seen)", view=None)


def toy_group() -> app_commands.Group:
    toy = app_commands.Group(name="toy", description="Toy commands")
    admin = app_commands.Group(name="admin", description="Admin commands", parent=toy)

    async def color_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in COLORS if c.startswith(current)]

    @toy.command(description="Start a counter")
    async def count(interaction: discord.Interaction, start: app_commands.Range[int, 0, 1000]) -> None:
        interaction.client.seen.append(("count", type(start).__name__, type(interaction.user).__name__))
        await interaction.response.send_message(f"count={start}", view=counter_view(start))

    @toy.command(description="Pick a color")
    @app_commands.autocomplete(name=color_names)
    async def color(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"color {name}", ephemeral=True, view=PickView())

    @toy.command(description="Think, then answer")
    async def slow(interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(ephemeral=private, thinking=True)
        await interaction.followup.send("done thinking")  # fills the thinking message
        await interaction.followup.send("and one more", embed=discord.Embed(title="Extra", description="x"))

    @toy.command(description="Post in the channel")
    async def post(interaction: discord.Interaction) -> None:
        msg = await interaction.channel.send("a plain post", view=PostView())
        await interaction.response.send_message(f"posted {msg.id}", ephemeral=True)

    @toy.command(description="Edit the response and a followup")
    async def note(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("noted")
        original = await interaction.original_response()
        await original.edit(content=original.content + " (edited)")
        extra = await interaction.followup.send("temporary", wait=True)
        await extra.edit(content="edited temporary")
        await extra.delete()

    @toy.command(name="picture", description="Show a picture")
    async def show_picture(interaction: discord.Interaction) -> None:
        interaction.client.seen.append(("picture", interaction))
        file, embed = picture("first.png", b"first picture")
        await interaction.response.send_message(file=file, embed=embed, view=PictureView())

    @toy.command(description="Say exactly this")
    async def say(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text)

    @toy.command(description="Say it pinging nobody, then ping only you")
    async def shout(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())
        only_you = discord.AllowedMentions(everyone=False, roles=False, users=[interaction.user])
        await interaction.followup.send(f"{interaction.user.mention} {text}", allowed_mentions=only_you)

    @toy.command(description="Send me a DM")
    async def dm(interaction: discord.Interaction, text: str) -> None:
        try:
            sent = await interaction.user.send(text, view=DmView())
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"cannot DM you: {exc.code}", ephemeral=True)
        else:
            await interaction.response.send_message(f"sent {sent.id}", ephemeral=True)

    @toy.command(description="Answer once the gate opens")
    async def late(interaction: discord.Interaction) -> None:
        await interaction.client.gate.wait()
        await interaction.response.send_message("too late?")

    @toy.command(description="Defer, follow up once the gate opens")
    async def wait(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.client.gate.wait()
        await interaction.followup.send("finally")

    @toy.command(description="Never answers")
    async def ignore(interaction: discord.Interaction) -> None:
        return None

    @toy.command(description="Raises")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    @toy.command(description="Answers, then never finishes")
    async def hang(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("hanging")
        await asyncio.Event().wait()

    @admin.command(description="Reset everything")
    async def reset(interaction: discord.Interaction, confirm: bool, reason: str | None = None) -> None:
        await interaction.response.send_message(f"reset confirm={confirm!r} reason={reason!r}", ephemeral=True)

    return toy


class ToyBot(commands.Bot):
    def __init__(self, instance: int = 1, guild_id: int | None = None, intents: discord.Intents | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default())
        self.instance, self.guild_id = instance, guild_id
        self.seen: list[tuple] = []
        self.gate = asyncio.Event()

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id) if self.guild_id else None
        self.tree.add_command(toy_group(), guild=guild)
        self.add_dynamic_items(CounterButton)
        await self.tree.sync(guild=guild)


class EagerBot(ToyBot):
    """Its on_interaction answers too, racing the command: Discord accepts only the first answer."""

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("me too!")


@contextlib.asynccontextmanager
async def on_gateway(fake: Any, bot: discord.Client | None = None, token: str = "fake-token") -> AsyncIterator[Any]:
    """``bot`` (a ToyBot) started against ``fake`` over HTTP and the gateway, as a subprocess bot would
    be, and ready; discord.py's API and gateway URLs point at the fake meanwhile."""
    bot = bot or ToyBot()
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = fake.api_base, yarl.URL(fake.gateway_url)
    task = asyncio.create_task(bot.start(fake.token or token))
    try:
        await fake.wait_for_ready()
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved
