"""The /augsburg extension: `await bot.load_extension("bot.discord_app.extension")`.

`setup` adds the cog and the durable buttons (DynamicItems route clicks on any
old message to the cog); `teardown` removes the buttons again.
"""

from __future__ import annotations

from ..service import GameService
from .cog import Augsburg
from .widgets import DYNAMIC_ITEMS


async def setup(bot) -> None:
    settings = bot.settings
    service = GameService(bot.store)
    await bot.add_cog(Augsburg(bot, service, settings.table_edit_delay, settings.computer_delay))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)


async def teardown(bot) -> None:
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
