"""Skill ratings, seasons and reliability (issue 46): the ratings are written by storage when a game ends
(storage/ratings.py, the model and the rated-game rule: storage/skill.py); this object reads them for the
front-ends, gives the computer levels' fixed marks, and lets a server's manager run its seasons."""

from __future__ import annotations

from engine.levels import LEVELS, Level
from storage import RatedRow, Reliability, Season, skill
from storage.contract import RatingStore

from .core import Core


class Ratings:
    def __init__(self, core: Core):
        self._core = core

    @property
    def _store(self) -> RatingStore:
        return self._core.store.ratings

    async def board(self, guild_id: int, season: str = "", offset: int = 0,
                    limit: int = 10) -> tuple[list[RatedRow], int]:
        """A page of a server's rated people (0: every server), in a season ('': all time), best first."""
        return await self._store.board(guild_id, season, offset, limit)

    async def rating(self, player: str, guild_id: int = 0, season: str = "") -> RatedRow | None:
        return await self._store.rating(player, guild_id, season)

    @staticmethod
    def marks() -> list[tuple[Level, skill.Rating]]:
        """The computer levels' fixed ratings, easiest first."""
        return [(level, skill.mark(level)) for level in LEVELS]

    async def seasons(self, guild_id: int) -> list[Season]:
        return await self._store.seasons(guild_id)

    async def season_now(self, guild_id: int) -> str:
        return await self._store.season_now(guild_id, self._core.clock.now())

    async def season_mode(self, guild_id: int) -> str:
        return await self._store.season_mode(guild_id)

    async def start_season(self, guild_id: int) -> str:
        """A manager's: the next season starts now (the one under way ends); its name."""
        return await self._store.start_season(guild_id, self._core.clock.now())

    async def set_season_mode(self, guild_id: int, mode: str) -> None:
        """A manager's: seasons by calendar 'month' or 'quarter', or none ('')."""
        await self._store.set_season_mode(guild_id, mode, self._core.clock.now())

    async def changes(self, game_id: int) -> dict[str, tuple[skill.Rating, skill.Rating]]:
        """Each person's rating on the game's server before and after the game (empty: not rated)."""
        return await self._store.changes(game_id)

    async def reliability(self, player: str) -> Reliability:
        return await self._store.reliability(player)
