"""Ratings (issue 46): each person's skill rating on each server, across every server and per season, kept
with the results (the model and the rated-game rule: skill.py).

A game is rated by `rate_game`, in the transaction that finishes it (stats.record_results): its row in
`rated_games` (keyed by the game) is written there too, so a game is rated exactly once whatever is killed
when; a game finished before ratings existed is rated by `Ratings.catch_up` at open, oldest first, each in a
transaction of its own that claims the same row (a second process doing the same finds it claimed, and its
transaction changes nothing). Each scope is rated apart: across servers (guild 0), this server all time
(season ''), this server's season of the game's end. A person's rows are locked (`FOR UPDATE`) before they
are read, so two games ending at once with the same person both count, one after the other.

Seasons are per server: none (the default), started by a manager ('S1', 'S2'... each ends when the next
starts, or by hand), or by calendar months ('2026-11') or quarters ('2026-Q4'), set in the server's settings
(`seasons`: 'manual' | 'month' | 'quarter'). A game counts in the season under way when it ended.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.levels import DEFAULT_LEVEL

from . import skill
from .records import Table
from .reliability import Reliability, reliability
from .sql import Database, Dialect, Reader, Transaction, one

SeasonMode = Literal["manual", "month", "quarter"]
SEASON_MODES: tuple[SeasonMode, ...] = ("manual", "month", "quarter")
ACROSS = 0  # the guild id of the ratings across every server


@dataclass(frozen=True)
class RatedRow:
    place: int
    player: str
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Season:
    guild_id: int
    season: str
    started_at: float
    ended_at: float | None


def calendar_season(mode: str, at: float) -> str:
    t = time.gmtime(at)
    return f"{t.tm_year}-{t.tm_mon:02d}" if mode == "month" else f"{t.tm_year}-Q{(t.tm_mon - 1) // 3 + 1}"


async def _mode(reader: Reader, guild_id: int) -> str:
    row = await reader.fetchone("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
    mode = json.loads(row["settings"]).get("seasons") if row else None
    return mode if mode in SEASON_MODES else ""


async def season_at(reader: Reader, guild_id: int, at: float, mode: str | None = None) -> str:
    """The server's season under way at `at` ('': none); `mode`: its season mode, if read already."""
    mode = await _mode(reader, guild_id) if mode is None else mode
    if mode in ("month", "quarter"):
        return calendar_season(mode, at)
    row = await reader.fetchone(
        "SELECT season FROM seasons WHERE guild_id = ? AND started_at <= ? AND (ended_at IS NULL OR ended_at > ?)"
        " ORDER BY started_at DESC LIMIT 1", (guild_id, at, at))
    return row["season"] if row else ""


async def rate_game(tx: Transaction, dialect: Dialect, game_id: int, now: float) -> bool:
    """Rate the finished game `game_id` from its results, once: False if it was rated already."""
    game = await one(tx, "SELECT guild_id, setup, finished_at FROM games WHERE id = ?", (game_id,))
    guild, table = game["guild_id"], Table.model_validate_json(game["setup"])
    ended = game["finished_at"] if game["finished_at"] is not None else now
    rows = await tx.fetchall(
        "SELECT player, place, computer, name, left_game, own_decisions, stood_in FROM player_results"
        " WHERE game_id = ? ORDER BY seat", (game_id,))
    seats = []
    for r in rows:
        sat = table.seat(r["player"])
        seats.append(skill.Seated(r["player"], r["place"], bool(r["computer"]),
                                  sat.level if sat is not None else DEFAULT_LEVEL, bool(r["left_game"]),
                                  r["own_decisions"], r["stood_in"]))
    people = sum(1 for s in seats if not s.computer) if skill.rated(seats) else 0
    mode = await _mode(tx, guild) if people else ""
    season = await season_at(tx, guild, ended, mode) if people else ""
    claimed = await tx.execute(
        "INSERT INTO rated_games (game_id, guild_id, season, people, rated_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id) DO NOTHING", (game_id, guild, season, people, now))
    if not claimed or not people:
        return bool(claimed)
    if season and mode in ("month", "quarter"):
        await tx.execute("INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?)"
                         " ON CONFLICT (guild_id, season) DO NOTHING", (guild, season, ended))
    names = {r["player"]: r["name"] for r in rows}
    scopes = [(ACROSS, ""), (guild, "")] + ([(guild, season)] if season else [])
    for scope_guild, scope_season in scopes:
        changed = await _rate_scope(tx, dialect, scope_guild, scope_season, seats, names, now)
        if (scope_guild, scope_season) == (guild, ""):  # what the game's standings show: this server, all time
            await tx.executemany(
                "INSERT INTO rating_changes (game_id, player, mu_before, sigma_before, mu, sigma)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, player) DO UPDATE SET mu_before = excluded.mu_before,"
                " sigma_before = excluded.sigma_before, mu = excluded.mu, sigma = excluded.sigma",
                [(game_id, p, old.mu, old.sigma, new.mu, new.sigma) for p, (old, new) in changed.items()])
    return True


async def _rate_scope(tx: Transaction, dialect: Dialect, guild: int, season: str, seats: Sequence[skill.Seated],
                      names: dict[str, str], now: float) -> dict[str, tuple[skill.Rating, skill.Rating]]:
    """Rate the game in one scope; each person's rating there (before, after)."""
    people = sorted(s.player for s in seats if not s.computer)
    await tx.executemany(
        "INSERT INTO ratings (guild_id, season, player, name, mu, sigma, ordinal, games, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT (guild_id, season, player) DO NOTHING",
        [(guild, season, p, names[p], skill.NEW.mu, skill.NEW.sigma, skill.NEW.ordinal, now) for p in people])
    held = {r["player"]: skill.Rating(r["mu"], r["sigma"]) for r in await tx.fetchall(
        f"SELECT player, mu, sigma FROM ratings WHERE guild_id = ? AND season = ? AND player IN"
        f" ({', '.join('?' * len(people))}) ORDER BY player{dialect.for_update}", (guild, season, *people))}
    before = [skill.mark(s.level) if s.computer else held[s.player] for s in seats]
    after = skill.rate(seats, before)
    await tx.executemany(
        "UPDATE ratings SET mu = ?, sigma = ?, ordinal = ?, games = games + 1, name = ?, updated_at = ?"
        " WHERE guild_id = ? AND season = ? AND player = ?",
        [(r.mu, r.sigma, r.ordinal, names[s.player], now, guild, season, s.player)
         for s, r in zip(seats, after) if not s.computer])
    return {s.player: (held[s.player], r) for s, r in zip(seats, after) if not s.computer}


class Ratings:
    """The ratings' reads, the seasons a manager starts, and the catch-up of games finished unrated."""

    def __init__(self, db: Database):
        self.db = db

    async def catch_up(self) -> int:
        """Rate every finished game not rated yet (those finished before ratings existed), in the order they
        ended, each in its own transaction; how many this call rated."""
        rows = await self.db.fetchall(
            "SELECT g.id FROM games g WHERE g.status = 'finished'"
            " AND EXISTS (SELECT 1 FROM player_results p WHERE p.game_id = g.id)"
            " AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id) ORDER BY g.finished_at, g.id")
        rated = 0
        for row in rows:
            game_id: int = row["id"]

            async def work(tx: Transaction, game_id: int = game_id) -> bool:
                return await rate_game(tx, self.db.dialect, game_id, time.time())

            rated += await self.db.transaction(work)
        return rated

    async def board(self, guild_id: int, season: str = "", offset: int = 0,
                    limit: int = 10) -> tuple[list[RatedRow], int]:
        """A page of the people rated on a server (ACROSS: everywhere) in a season ('': all time), best
        ordinal first; and how many there are."""
        rows = await self.db.fetchall(
            "SELECT player, name, mu, sigma, games FROM ratings WHERE guild_id = ? AND season = ? AND games > 0"
            " ORDER BY ordinal DESC, games DESC, player LIMIT ? OFFSET ?", (guild_id, season, limit, offset))
        total = await one(self.db, "SELECT COUNT(*) AS n FROM ratings WHERE guild_id = ? AND season = ?"
                          " AND games > 0", (guild_id, season))
        return [RatedRow(offset + i + 1, r["player"], r["name"], r["mu"], r["sigma"], r["games"])
                for i, r in enumerate(rows)], total["n"]

    async def rating(self, player: str, guild_id: int = ACROSS, season: str = "") -> RatedRow | None:
        """A person's rating (with their place) on a server, or across servers; None: never rated there."""
        row = await self.db.fetchone("SELECT player, name, mu, sigma, ordinal, games FROM ratings"
                                     " WHERE guild_id = ? AND season = ? AND player = ? AND games > 0",
                                     (guild_id, season, player))
        if row is None:
            return None
        above = await one(self.db, "SELECT COUNT(*) AS n FROM ratings WHERE guild_id = ? AND season = ?"
                          " AND games > 0 AND ordinal > ?", (guild_id, season, row["ordinal"]))
        return RatedRow(above["n"] + 1, player, row["name"], row["mu"], row["sigma"], row["games"])

    async def rated_games(self, guild_id: int | None = None) -> list[tuple[int, int]]:
        """(game id, people rated) of every rated game (of one server), in the order rated."""
        where, params = ("WHERE guild_id = ?", (guild_id,)) if guild_id is not None else ("", ())
        rows = await self.db.fetchall(f"SELECT game_id, people FROM rated_games {where} ORDER BY rated_at, game_id",
                                      params)
        return [(r["game_id"], r["people"]) for r in rows]

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, newest first."""
        rows = await self.db.fetchall("SELECT guild_id, season, started_at, ended_at FROM seasons WHERE guild_id = ?"
                                      " ORDER BY started_at DESC, season DESC", (guild_id,))
        return [Season(r["guild_id"], r["season"], r["started_at"], r["ended_at"]) for r in rows]

    async def season_now(self, guild_id: int, now: float | None = None) -> str:
        """The server's season under way ('': none)."""
        return await season_at(self.db, guild_id, time.time() if now is None else now)

    async def season_mode(self, guild_id: int) -> str:
        """'manual' | 'month' | 'quarter', or '' (no seasons)."""
        return await _mode(self.db, guild_id)

    async def start_season(self, guild_id: int, now: float | None = None) -> str:
        """A manager starts the next season by hand (the one under way ends now); the server's seasons are
        then by hand. Its key ('S1', 'S2'...)."""
        at = time.time() if now is None else now

        async def work(tx: Transaction) -> str:
            await _set_mode(tx, guild_id, "manual", at)
            count = await one(tx, "SELECT COUNT(*) AS n FROM seasons WHERE guild_id = ? AND season LIKE 'S%'",
                              (guild_id,))
            await tx.execute("UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND ended_at IS NULL", (at, guild_id))
            key = f"S{count['n'] + 1}"
            await tx.execute("INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?)", (guild_id, key, at))
            return key

        return await self.db.transaction(work)

    async def set_season_mode(self, guild_id: int, mode: str, now: float | None = None) -> None:
        """Seasons by calendar 'month' or 'quarter', or none (''); a season started by hand ends now."""
        at = time.time() if now is None else now

        async def work(tx: Transaction) -> None:
            await _set_mode(tx, guild_id, mode, at)
            await tx.execute("UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND ended_at IS NULL", (at, guild_id))

        await self.db.transaction(work)

    async def changes(self, game_id: int) -> dict[str, tuple[skill.Rating, skill.Rating]]:
        """Each person's rating on the game's server before and after it (empty: not rated, or rated before
        changes were kept)."""
        rows = await self.db.fetchall("SELECT player, mu_before, sigma_before, mu, sigma FROM rating_changes"
                                      " WHERE game_id = ?", (game_id,))
        return {r["player"]: (skill.Rating(r["mu_before"], r["sigma_before"]), skill.Rating(r["mu"], r["sigma"]))
                for r in rows}

    async def reliability(self, player: str) -> Reliability:
        return await reliability(self.db, player)


async def _set_mode(tx: Transaction, guild_id: int, mode: str, at: float) -> None:
    """The server's `seasons` setting, merged into its settings under the row's lock."""
    await tx.execute("INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, '{}', ?)"
                     " ON CONFLICT (guild_id) DO NOTHING", (guild_id, at))
    row = await one(tx, "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
    settings = json.loads(row["settings"])
    if mode:
        settings["seasons"] = mode
    else:
        settings.pop("seasons", None)
    await tx.execute("UPDATE guild_settings SET settings = ?, updated_at = ? WHERE guild_id = ?",
                     (json.dumps(settings), at, guild_id))
