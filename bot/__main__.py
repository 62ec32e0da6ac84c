"""`python -m bot`: run the Discord bot."""

from __future__ import annotations

import logging
import sys

import discord

from .client import AugsburgBot
from .config import Settings


def point_at(settings: Settings) -> None:
    """Use a Discord-compatible server instead of discord.com (self-hosted, or a loopback test server)."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway_url:
        url = settings.discord_gateway_url

        async def gateway(self, *, encoding: str = "json", zlib: bool = True):
            return url

        async def bot_gateway(self, *, encoding: str = "json", zlib: bool = True):
            return 1, url, None

        discord.http.HTTPClient.get_gateway = gateway
        discord.http.HTTPClient.get_bot_gateway = bot_gateway


def main() -> int:
    settings = Settings()
    if settings.discord_token is None or not settings.discord_token.get_secret_value().strip():
        print(
            "DISCORD_TOKEN is not set: put your bot token in the environment or in .env (see .env.example).",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    point_at(settings)
    bot = AugsburgBot(settings)
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
