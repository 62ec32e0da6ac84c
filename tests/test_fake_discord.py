"""End-to-end checks that an unmodified discord.py 2.7.1 client works against tests/fake_discord.py."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import os
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from fake_discord import FakeDiscord, stop_process

GUILD_ID = 900000000000000001
CHANNEL_ID = 900000000000000002
ALICE = 900000000000000011
BOB = 900000000000000012


def configure_discord_endpoints(
    api_base: str | None, gateway_url: str | None, client: discord.Client | None = None
) -> None:
    """Point discord.py at another Discord (e.g. the test fake). Call before ``client.start()``.

    The bot calls this with ``os.environ.get("DISCORD_API_BASE")`` and ``os.environ.get("DISCORD_GATEWAY_URL")``;
    ``None``/empty leaves the real Discord defaults untouched.

    * REST: every request (HTTPClient and the interaction/webhook adapter) builds its URL from ``Route.BASE``,
      so it must include the version, e.g. ``http://127.0.0.1:PORT/api/v10``.
    * Gateway: discord.py 2.7.1's ``Client.connect`` never asks ``GET /gateway``; it connects to
      ``DiscordWebSocket.DEFAULT_GATEWAY`` (and later to READY's ``resume_gateway_url``).
      ``AutoShardedClient`` without ``shard_count`` does use ``GET /gateway/bot``; with ``client`` given that
      answer's URL is pinned to ``gateway_url`` as well.
    """
    if api_base:
        Route.BASE = api_base.rstrip("/")
    if gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
        if client is not None:
            get_bot_gateway = client.http.get_bot_gateway

            async def pinned_bot_gateway():  # type: ignore[no-untyped-def]
                shards, _url, session_start_limit = await get_bot_gateway()
                return shards, gateway_url, session_start_limit

            client.http.get_bot_gateway = pinned_bot_gateway  # type: ignore[method-assign]


# ---------------------------------------------------------------------------- a minimal bot


class JoinView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="augsburg:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"Players: {interaction.user.mention}", view=self)
        await interaction.followup.send("You joined.", ephemeral=True)
        await interaction.channel.send(f"{interaction.user.display_name} joined the game")


class MiniBot(commands.Bot):
    def __init__(self, guild_id: int, slow_seconds: float = 0.0) -> None:
        super().__init__(
            command_prefix="!", intents=discord.Intents.default(), help_command=None, guild_ready_timeout=0.05
        )
        self.guild = discord.Object(guild_id)
        self.slow_seconds = slow_seconds
        group = app_commands.Group(name="augsburg", description="Play Augsburg 1520")

        @group.command(name="new", description="Start a new game in this channel")
        async def new(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("New game of Augsburg 1520! Press Join.", view=JoinView())

        @group.command(name="board", description="Show the board")
        @app_commands.describe(round="Which round")
        async def board(interaction: discord.Interaction, round: int = 1) -> None:
            await interaction.response.defer(thinking=True)
            png = discord.File(io.BytesIO(b"\x89PNG fake board"), filename="board.png")
            await interaction.edit_original_response(content=f"Board, round {round}", attachments=[png])

        @group.command(name="slow", description="Answers too late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.slow_seconds)
            await interaction.response.send_message("finally")

        self.tree.add_command(group, guild=self.guild)

    async def setup_hook(self) -> None:
        # Persistent: routed by custom_id, so a click that arrives before the bot has stored the message's
        # view (possible on a loaded machine) still finds it.
        self.add_view(JoinView())
        await self.tree.sync(guild=self.guild)


# ---------------------------------------------------------------------------- fixtures


@pytest.fixture
def restore_endpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    """configure_discord_endpoints() patches class attributes; put them back after the test."""
    monkeypatch.setattr(Route, "BASE", Route.BASE)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)


@pytest.fixture
async def fake(restore_endpoints: None) -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL_ID, users=[ALICE, BOB]) as fake:
        configure_discord_endpoints(fake.api_base, fake.gateway_url)
        yield fake
        assert not fake.unknown_requests, fake.unknown_requests


@contextlib.asynccontextmanager
async def running(bot: discord.Client, token: str = "fake-token") -> AsyncIterator[asyncio.Task[None]]:
    task = asyncio.create_task(bot.start(token))
    try:
        yield task
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


# ---------------------------------------------------------------------------- tests


async def test_slash_command_and_button_click_in_process(fake: FakeDiscord) -> None:
    bot = MiniBot(GUILD_ID)
    async with running(bot):
        identify = await fake.wait_for_ready()
        assert identify["token"] == "fake-token"
        query = fake.gateway_connections[0]
        assert (query["v"], query["encoding"]) == ("10", "json")
        assert query.get("compress") in ("zlib-stream", "zstd-stream")  # zlib-stream on this Python

        commands_json = await fake.wait_for_commands(guild_id=GUILD_ID)
        assert [c["name"] for c in commands_json] == ["augsburg"]
        assert {o["name"]: o["type"] for o in commands_json[0]["options"]} == {"new": 1, "board": 1, "slow": 1}
        assert commands_json[0]["guild_id"] == str(GUILD_ID)

        await asyncio.wait_for(bot.wait_until_ready(), 5)
        guild = bot.get_guild(GUILD_ID)
        assert guild is not None and guild.get_channel(CHANNEL_ID) is not None
        assert guild.member_count == 3 and guild.me is not None  # members are cached only with the members intent
        assert bot.application_id == int(fake.application_id)

        # /augsburg new -> message with a Join button
        rec = await fake.wait_for_callback(await fake.send_interaction(fake.slash(ALICE, "augsburg", "new")))
        assert rec.callback_type == 4
        assert rec.message["content"] == "New game of Augsburg 1520! Press Join."
        assert rec.custom_ids == ["augsburg:join"]
        assert rec.message["type"] == 20 and not rec.ephemeral
        game_message_id = rec.message["id"]

        # Bob clicks Join -> message edited in place, ephemeral followup, channel announcement
        click = await fake.wait_for_callback(await fake.send_interaction(fake.click(BOB, rec.message, "augsburg:join")))
        assert click.callback_type == 7
        assert click.message["id"] == game_message_id
        assert click.message["content"] == f"Players: <@{BOB}>"
        assert fake.messages[game_message_id]["edited_timestamp"] is not None
        await fake.wait_until(lambda: click.channel_messages, what="channel announcement")
        assert [m["content"] for m in click.followups] == ["You joined."]
        assert click.followups[0]["flags"] & 64
        assert [m["content"] for m in click.channel_messages] == ["Player 2 joined the game"]
        assert [m["content"] for m in fake.channel_messages(CHANNEL_ID)] == [
            f"Players: <@{BOB}>",
            "Player 2 joined the game",
        ]
    assert fake.problems == []


async def test_defer_edit_original_with_file_and_channel_rest(fake: FakeDiscord) -> None:
    bot = MiniBot(GUILD_ID)
    async with running(bot):
        await fake.wait_for_ready()
        await fake.wait_for_commands()

        iid = await fake.send_interaction(fake.slash(ALICE, "augsburg", "board", options={"round": 3}))
        rec = await fake.wait_for_callback(iid)
        assert rec.callback_type == 5  # deferred, "thinking"
        await fake.wait_for_request("PATCH", r"/webhooks/\d+/[^/]+/messages/@original")
        assert rec.message["content"] == "Board, round 3"
        assert [a["filename"] for a in rec.message["attachments"]] == ["board.png"]
        assert fake.attachments[rec.message["attachments"][0]["id"]].data == b"\x89PNG fake board"

        # plain channel REST: send (multipart), fetch, edit, delete
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        channel = bot.get_channel(CHANNEL_ID)
        sent = await channel.send("hello", file=discord.File(io.BytesIO(b"x"), filename="x.txt"))
        assert (await channel.fetch_message(sent.id)).attachments[0].filename == "x.txt"
        edited = await sent.edit(content="edited")
        assert edited.content == "edited" == fake.messages[str(sent.id)]["content"]
        await sent.delete()
        assert str(sent.id) in fake.deleted_messages and str(sent.id) not in fake.messages

        # unknown routes answer 404 JSON at once (and are recorded) instead of hanging
        with pytest.raises(discord.NotFound):
            await bot.http.request(
                Route("GET", "/applications/{app}/role-connections/metadata", app=fake.application_id)
            )
        assert [r.path for r in fake.unknown_requests] == [
            f"/applications/{fake.application_id}/role-connections/metadata"
        ]
        fake.unknown_requests.clear()


async def test_late_or_double_acknowledgement_is_rejected(restore_endpoints: None) -> None:
    async with FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL_ID, users=[ALICE], ack_deadline=0.2) as fake:
        configure_discord_endpoints(fake.api_base, fake.gateway_url)
        bot = MiniBot(GUILD_ID, slow_seconds=0.4)
        errors: list[Exception] = []

        async def on_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            errors.append(error)

        bot.tree.on_error = on_error  # type: ignore[method-assign]
        async with running(bot):
            await fake.wait_for_ready()
            await fake.wait_for_commands()
            iid = await fake.send_interaction(fake.slash(ALICE, "augsburg", "slow"))
            await fake.wait_until(lambda: errors, timeout=3, what="command error")
            assert fake.interactions[iid].callback is None
            assert isinstance(errors[0].__cause__, discord.NotFound) and errors[0].__cause__.code == 10062

            # a second callback for an answered interaction -> 400 / 40060, as on Discord
            rec = await fake.wait_for_callback(await fake.send_interaction(fake.slash(ALICE, "augsburg", "new")))
            url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback"
            async with aiohttp.ClientSession() as http, http.post(url, json={"type": 6}) as resp:
                assert resp.status == 400 and (await resp.json())["code"] == 40060


async def test_reconnect_resumes_session(fake: FakeDiscord) -> None:
    bot = MiniBot(GUILD_ID)
    resumed = asyncio.Event()

    async def on_resumed() -> None:
        resumed.set()

    bot.add_listener(on_resumed)
    async with running(bot):
        await fake.wait_for_ready()
        await fake.wait_for_commands()
        await fake.reconnect()  # op 7: discord.py reconnects to resume_gateway_url and RESUMEs
        await fake.wait_for_resume()
        await asyncio.wait_for(resumed.wait(), 5)
        assert fake.ready_count == 1 and len(fake.gateway_connections) == 2
        assert any(p.get("op") == 6 for p in fake.gateway_received)
        rec = await fake.wait_for_callback(await fake.send_interaction(fake.slash(BOB, "augsburg", "new")))
        assert rec.callback_type == 4


SUBPROCESS_MAIN = """
async def main() -> None:
    discord.utils.setup_logging()  # to stderr -> mini_bot.log, printed if the test fails
    bot = MiniBot(int(os.environ["TEST_GUILD_ID"]))
    configure_discord_endpoints(os.environ.get("DISCORD_API_BASE"), os.environ.get("DISCORD_GATEWAY_URL"), bot)
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


asyncio.run(main())
"""


async def test_client_in_subprocess(tmp_path: Path) -> None:
    # the script is the helper + bot from this file, verbatim, plus a main() reading the env vars
    header = (
        "import asyncio, io, os\n\nimport discord\nimport yarl\nfrom discord import app_commands\n"
        "from discord.ext import commands\nfrom discord.gateway import DiscordWebSocket\n"
        "from discord.http import Route\n\n"
    )
    parts = [inspect.getsource(obj) for obj in (configure_discord_endpoints, JoinView, MiniBot)]
    script = tmp_path / "mini_bot.py"
    script.write_text(header + "\n\n".join(parts) + textwrap.dedent(SUBPROCESS_MAIN))
    log = tmp_path / "mini_bot.log"

    async with FakeDiscord(guild_id=GUILD_ID, channel_id=CHANNEL_ID, users=[ALICE, BOB], token="sekrit") as fake:
        env = {**os.environ, **fake.env(), "TEST_GUILD_ID": str(GUILD_ID), "PYTHONUNBUFFERED": "1"}
        with log.open("wb") as out:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(script), env=env, stdout=out, stderr=asyncio.subprocess.STDOUT
            )
        try:
            identify = await fake.wait_for_ready(timeout=20)
            assert identify["token"] == "sekrit"
            assert all(r.authorization in (None, "Bot sekrit") for r in fake.requests)
            assert [c["name"] for c in await fake.wait_for_commands(guild_id=GUILD_ID)] == ["augsburg"]

            rec = await fake.wait_for_callback(await fake.send_interaction(fake.slash(ALICE, "augsburg", "new")))
            assert rec.custom_ids == ["augsburg:join"]
            click = await fake.wait_for_callback(
                await fake.send_interaction(fake.click(BOB, rec.message, "augsburg:join"))
            )
            assert click.callback_type == 7 and click.message["content"] == f"Players: <@{BOB}>"
            await fake.wait_for_message(lambda m: m["content"] == "Player 2 joined the game")
            assert fake.problems == [] and fake.unknown_requests == []
        except BaseException:
            print(log.read_text(errors="replace")[-4000:])
            raise
        finally:
            await stop_process(proc, 5)
