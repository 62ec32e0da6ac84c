"""Settings kept across games: each person's (how to be told it is their move, the heads-up, a DM that
failed, their hours and daily word), each server's (tables in threads), and facts about the deployment (the
commands last synced). Each person's change is merged atomically (storage/settings.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from storage.contract import SettingsStore

from .clock import Clock
from .hours import Hours, hours_of, known_zone, of_settings
from .outcome import Outcome, refuse

FRESH_SECONDS = 60.0  # how long a person's hours read are trusted (another process may change them)


class HoursBook:
    """Each person's hours as the turn clock and the pings need them: read from their settings, kept in memory
    for `FRESH_SECONDS`, and dropped at once when they change them here."""

    def __init__(self, settings: SettingsStore, clock: Clock):
        self._settings = settings
        self._clock = clock
        # Per person (zone, start, end, when read): plain values, which the garbage collector stops walking
        # once it has seen them, where an `Hours` and its tuple per person would be walked by every full
        # collection (1,250 people: 2,500 objects, a twentieth of the old generation at 5,000 games, issue 44).
        self._known: dict[str, tuple[str, int | None, int | None, float]] = {}

    async def of(self, user: int | str) -> Hours:
        user, now = str(user), self._clock.now()
        known = self._known.get(user)
        if known is None or now - known[3] > FRESH_SECONDS:
            hours = of_settings(await self._settings.player_settings(user))
            self._known[user] = (hours.zone, hours.start, hours.end, now)
            return hours
        return hours_of(*known[:3])

    async def of_all(self, users: Iterable[str]) -> dict[str, Hours]:
        return {u: await self.of(u) for u in sorted(set(users))}

    async def outside(self, users: Iterable[str]) -> dict[str, float]:
        """Those of `users` outside their hours now, each with when their hours begin."""
        now, back = self._clock.now(), {}
        for user, hours in (await self.of_all(users)).items():
            at = hours.back_at(now)
            if at is not None:
                back[user] = at
        return back

    def forget(self, user: int | str) -> None:
        self._known.pop(str(user), None)

NOTIFY_CHOICES = ("channel", "dm", "none")
HEADS_UP_CHOICES = ("off", "dm", "channel")  # channel: a line that pings nobody


class Settings:
    def __init__(self, settings: SettingsStore, hours: HoursBook, clock: Clock):
        self._settings = settings
        self.hours = hours  # each person's hours, as the turn clock reads them
        self._clock = clock
        # People found owing no notice of a failed DM, and when: a panel asks at every open, and a failure
        # noted here drops the entry at once; one noted by another process is told within FRESH_SECONDS.
        self._no_notice: dict[str, float] = {}

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
        self._no_notice.pop(user, None)
        await self._settings.merge_player_settings(user, {"dm_failed": True, "dm_failed_told": False},
                                                   when={"dm_failed": False})

    def no_dm_notice(self, user: int | str) -> bool:
        """Whether this process knows, from memory, that there is no failed DM to tell `user` of now."""
        read = self._no_notice.get(str(user))
        return read is not None and self._clock.now() - read < FRESH_SECONDS

    async def take_dm_notice(self, user: int | str) -> bool:
        """Whether to tell this player now that their DMs failed (True once per failure)."""
        if self.no_dm_notice(user):
            return False
        user, now = str(user), self._clock.now()
        told = await self._settings.merge_player_settings(user, {"dm_failed_told": True},
                                                          when={"dm_failed": True, "dm_failed_told": False})
        self._no_notice[user] = now  # told now, or nothing to tell: nothing owed either way
        return told

    # --- hours (issue 43): time zone, a daily window, the daily word

    async def set_hours(self, user: int | str, zone: str | None = None, window: tuple[int, int] | None = None,
                        any_time: bool = False, lang: str = "en") -> Outcome:
        """Set a person's zone and/or their daily window (`any_time`: no window). Refused, changing nothing: an
        unknown zone, a window of no hours, a window and `any_time` at once."""
        changes: dict[str, Any] = {"lang": lang}
        if zone is not None:
            if not known_zone(zone):
                return refuse("unknown_zone", zone=zone[:100])
            changes["zone"] = zone
        if window is not None and any_time:
            return refuse("unknown_choice")
        if window is not None:
            start, end = window
            if not (0 <= start <= 23 and 0 <= end <= 24) or start == end % 24:
                return refuse("empty_hours")
            changes["hours"] = [start, end or 24]
        if any_time:
            changes["hours"] = None
        await self._settings.merge_player_settings(str(user), changes)
        self.hours.forget(user)
        return Outcome(True)

    async def daily(self, user: int | str) -> int | None:
        """The hour (in their zone) of a person's daily word, or None: they get pinged as usual."""
        hour = (await self.of(user)).get("daily")
        return hour if isinstance(hour, int) else None

    async def set_daily(self, user: int | str, hour: int | None, lang: str = "en") -> Outcome:
        if hour is not None and not 0 <= hour <= 23:
            return refuse("unknown_choice")
        await self._settings.merge_player_settings(str(user), {"daily": hour, "lang": lang})
        return Outcome(True)
