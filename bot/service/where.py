"""Where the work of the current task happens, for the log: the shard, guild, channel and game.

Context variables, set where an interaction, a computer's move or a deadline begins (each runs in a task of
its own, so what one sets never shows in another's lines), and read by the JSON log format (bot/app/logs.py).
Free of Discord and of logging: any layer may say where it is working.
"""

from __future__ import annotations

from contextvars import ContextVar

SHARD: ContextVar[int | None] = ContextVar("log_shard", default=None)
GUILD: ContextVar[int | None] = ContextVar("log_guild", default=None)
CHANNEL: ContextVar[int | None] = ContextVar("log_channel", default=None)
GAME: ContextVar[int | None] = ContextVar("log_game", default=None)


def working_in(*, shard: int | None = None, guild: int | None = None, channel: int | None = None,
               game: int | None = None) -> None:
    """Note where this task works from now on (what is not given stays as it was)."""
    for var, value in ((SHARD, shard), (GUILD, guild), (CHANNEL, channel), (GAME, game)):
        if value is not None:
            var.set(value)


def where() -> dict[str, int]:
    """What is known of where this task works: some of shard, guild, channel, game."""
    found = {"shard": SHARD.get(), "guild": GUILD.get(), "channel": CHANNEL.get(), "game": GAME.get()}
    return {k: v for k, v in found.items() if v is not None}
