"""`python -m bot`: run the Discord bot."""

from __future__ import annotations

import logging
import sys

import discord
import yarl
from discord.gateway import DiscordWebSocket

from .backups import damaged_database
from .config import Settings
from .discord_app.client import AugsburgBot


def point_at(settings: Settings, bot: discord.Client | None = None) -> None:
    """Use a Discord-compatible server instead of discord.com (self-hosted, or a loopback test server).

    discord.py's client connects to `DiscordWebSocket.DEFAULT_GATEWAY` (and later to the resume URL
    the server hands out); only auto-sharded clients ask the API, so that call is pinned too.
    """
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        url = settings.discord_gateway_url
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        if bot is not None:
            ask = bot.http.get_bot_gateway

            async def pinned_bot_gateway(*args, **kwargs):
                shards, _url, limits = await ask(*args, **kwargs)
                return shards, url, limits

            bot.http.get_bot_gateway = pinned_bot_gateway


def main() -> int:
    settings = Settings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "DISCORD_TOKEN is not set: put your bot token in the environment or in .env (see .env.example).",
            file=sys.stderr,
        )
        return 2
    damaged = damaged_database(settings)  # before connecting anywhere: one line, and what to run
    if damaged:
        print(damaged, file=sys.stderr)
        return 3
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = AugsburgBot(settings)
    point_at(settings, bot)
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
