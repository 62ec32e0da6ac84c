"""Settings kept across games: each person's (how to be told it is their move, the heads-up, a DM that
failed), each server's (tables in threads), and facts about the deployment (the commands last synced).
Each person's change is merged atomically (storage/settings.py)."""

from __future__ import annotations

from typing import Any

from storage.contract import SettingsStore

from .outcome import Outcome, refuse

NOTIFY_CHOICES = ("channel", "dm", "none")
HEADS_UP_CHOICES = ("off", "dm", "channel")  # channel: a line that pings nobody


class Settings:
    def __init__(self, settings: SettingsStore):
        self._settings = settings

    # --- facts about the deployment

    async def fact(self, key: str) -> str | None:
        return await self._settings.meta(key)

    async def set_fact(self, key: str, value: str) -> None:
        await self._settings.set_meta(key, value)

    # --- a server's own settings

    async def threads_default(self, guild_id: int) -> bool:
        """Whether `/augsburg new` opens its table in a new thread unless told otherwise."""
        return bool((await self._settings.guild_settings(guild_id)).get("threads"))

    async def set_threads_default(self, guild_id: int, threads: bool) -> None:
        settings = await self._settings.guild_settings(guild_id)  # the others as they are
        await self._settings.set_guild_settings(guild_id, settings | {"threads": threads})

    # --- a person's own settings

    async def of(self, user: int | str) -> dict[str, Any]:
        """Everything a person has set (with the language of their direct messages)."""
        return await self._settings.player_settings(str(user))

    async def notify(self, user: int | str) -> str:
        """How to tell a person it is their move: in the channel, also by DM, or not at all."""
        return str((await self.of(user)).get("notify", "channel"))

    async def set_notify(self, user: int | str, how: str, lang: str = "en") -> Outcome:
        """How to tell a player it is their move; `lang`: the language of their direct messages."""
        if how not in NOTIFY_CHOICES:
            return refuse("unknown_choice")
        await self._settings.merge_player_settings(str(user), {"notify": how, "dm_failed": False, "lang": lang})
        return Outcome(True)

    async def heads_up(self, user: int | str) -> str:
        """Whether to tell a player, quietly, that they bid next after the one now on the clock."""
        return str((await self.of(user)).get("heads_up", "off"))

    async def set_heads_up(self, user: int | str, how: str, lang: str = "en") -> Outcome:
        if how not in HEADS_UP_CHOICES:
            return refuse("unknown_choice")
        await self._settings.merge_player_settings(str(user), {"heads_up": how, "lang": lang})
        return Outcome(True)

    async def note_dm_failed(self, user: str) -> None:
        """A DM could not be delivered: the player is told once, privately, at their next visit."""
        await self._settings.merge_player_settings(user, {"dm_failed": True, "dm_failed_told": False},
                                                   when={"dm_failed": False})

    async def take_dm_notice(self, user: int | str) -> bool:
        """Whether to tell this player now that their DMs failed (True once per failure)."""
        return await self._settings.merge_player_settings(str(user), {"dm_failed_told": True},
                                                          when={"dm_failed": True, "dm_failed_told": False})
