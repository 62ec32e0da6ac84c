"""Results and statistics: rows written once when a game ends at its end, read back by index.

A finished game writes, in the transaction that finishes it: a `player_results`
row per seat, `noble_wins` (auctions won per noble, counted from the game's own
stored events), adds itself to each player's `player_totals` on its server, and
is rated (ratings.py).
Cancelled and abandoned games write no results, so they never count here (those who left them count it
in their reliability: ratings.py, `departures`). The
leaderboard reads `player_totals` only; a player's statistics read their own
rows (index on the player).
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from typing import Any

from engine import GameState

from . import skill
from .decisions import Decisions, decisions
from .ratings import rate_game
from .records import Table
from .reliability import OWN, STOOD_IN
from .rows import ENDED
from .sql import Database, Dialect, Transaction, one

MIN_GAMES = 3  # a win rate counts in the leaderboard's order from this many games on
STEADY = 80  # the leaderboard's filter: people who finished at least this share (%) of their games


@dataclass(frozen=True)
class PlayerStats:
    games: int
    wins: int
    score_sum: int
    best_score: int
    favourite: str | None  # the noble whose auctions the player won most often (ties: by name)
    favourite_wins: int = 0
    decisions: int = 0  # in the games that counted them (decisions.py): all, and those made in time
    in_time: int = 0
    median_seconds: float | None = None  # of the person's own decisions; None: none counted
    left: int = 0  # finished games they had left (the computer played their seat to the end)

    @property
    def in_time_share(self) -> float | None:
        return self.in_time / self.decisions if self.decisions else None

    @property
    def average(self) -> float:
        return self.score_sum / self.games if self.games else 0.0

    def __getitem__(self, key: str) -> Any:  # stats["games"], as the older dict did
        return getattr(self, key)


@dataclass(frozen=True)
class BoardRow:
    place: int
    player: str
    name: str
    games: int
    wins: int
    best_score: int

    @property
    def win_rate(self) -> float | None:
        """None below MIN_GAMES: too few games for a rate to say anything."""
        return self.wins / self.games if self.games >= MIN_GAMES else None


@dataclass(frozen=True)
class GameSummary:
    """One ended game as history lists it; `results` (player, score, place, winner) for a finished one."""

    id: int
    guild_id: int
    channel_id: int
    status: str
    ended_at: float
    table: Table
    results: tuple[tuple[str, int, int, bool], ...]


# Ranked by wins, then by win rate (from MIN_GAMES games on; fewer rank below any rate), then fewer games.
BOARD_ORDER = (f"wins DESC, CASE WHEN games >= {MIN_GAMES} THEN CAST(wins AS DOUBLE PRECISION) / games"
               " ELSE -1 END DESC, games ASC, player ASC")


async def record_results(tx: Transaction, dialect: Dialect, game_id: int, state: GameState, now: float) -> None:
    """A game finished at its end: its results, auctions won and each player's totals, in its transaction.
    The totals are added to in place (`ON CONFLICT ... DO UPDATE`), so two games ending at once both count."""
    if state.winners is None:
        raise ValueError(f"game {game_id} has not ended: it has no winners to record")
    winners = state.winners
    row = await one(tx, "SELECT guild_id, setup, created_at FROM games WHERE id = ?", (game_id,))  # being written
    guild, table = row["guild_id"], Table.model_validate_json(row["setup"])
    timing = await _decisions(tx, game_id, table, state, row["created_at"])
    actors: dict[tuple[str, str], int] = {(r["player"], r["actor"]): r["n"] for r in await tx.fetchall(
        "SELECT player, actor, COUNT(*) AS n FROM actions WHERE game_id = ? GROUP BY player, actor", (game_id,))}
    for seat, p in enumerate(state.players):
        winner = p.id in winners
        # Winners share first place; everyone else is placed after all who scored more, and the winners.
        place = skill.place(p.score, winner, [(q.score, q.id in winners) for q in state.players])
        sat = table.seat(p.id)
        computer, name = int(sat is not None and sat.kind == "computer"), sat.name if sat is not None else ""
        left, mine = int(sat is not None and sat.left), timing[p.id]
        own, stood_in = (sum(actors.get((p.id, actor), 0) for actor in kinds) for kinds in (OWN, STOOD_IN))
        await tx.execute(
            "INSERT INTO player_results (game_id, player, guild_id, seat, players, score, place, winner,"
            " finished_at, computer, name, decisions, in_time, decide_seconds, left_game, own_decisions, stood_in)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, p.id, guild, seat, len(state.players), p.score, place, int(winner), now, computer, name,
             mine.made, mine.in_time, mine.seconds_json(), left, own, stood_in),
        )
        await tx.execute(
            "INSERT INTO player_totals (guild_id, player, computer, name, games, wins, score_sum, best_score,"
            " left_games) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?) ON CONFLICT (guild_id, player) DO UPDATE SET"
            " name = excluded.name, computer = excluded.computer, games = player_totals.games + 1,"
            " wins = player_totals.wins + excluded.wins, score_sum = player_totals.score_sum + excluded.score_sum,"
            " best_score = CASE WHEN excluded.best_score > player_totals.best_score THEN excluded.best_score"
            " ELSE player_totals.best_score END, left_games = player_totals.left_games + excluded.left_games",
            (guild, p.id, computer, name, int(winner), p.score, p.score, left),
        )
    # The auctions won, from the events this game stored with its moves (the last one included).
    who, noble, kind = (dialect.json_field("e.value", key) for key in ("player", "noble", "type"))
    await tx.execute(
        "INSERT INTO noble_wins (game_id, player, guild_id, noble, wins)"
        f" SELECT CAST(? AS BIGINT), {who}, CAST(? AS BIGINT), {noble}, COUNT(*)"
        f" FROM actions a, {dialect.json_elements('a.events', 'e')} WHERE a.game_id = ? AND {kind} = 'auction_won'"
        f" GROUP BY {who}, {noble}",
        (game_id, guild, game_id),
    )
    await rate_game(tx, dialect, game_id, now)  # in this transaction: a finished game is rated exactly once


async def _decisions(tx: Transaction, game_id: int, table: Table, state: GameState,
                     created_at: float) -> dict[str, Decisions]:
    """Each seat's decisions in this game, from its stored moves (decisions.py); the game started when the
    deal was logged (before the first move), else when its table was opened."""
    started = await tx.fetchone("SELECT MIN(at) AS at FROM table_log WHERE game_id = ? AND move = 0", (game_id,))
    moves = [(r["player"], r["actor"], r["at"], json.loads(r["action"])) for r in await tx.fetchall(
        "SELECT player, actor, at, action FROM actions WHERE game_id = ? ORDER BY move", (game_id,))]
    if table.seed is None:
        raise ValueError(f"game {game_id} has a state but its table no seed")
    return decisions(table.players, table.seed, table.start_player, state.edition, table.game_rules,
                     started["at"] if started and started["at"] is not None else created_at, moves)


class Records:
    """Statistics, the leaderboard and the history of ended games (RecordStore)."""

    def __init__(self, db: Database):
        self.db = db

    async def player_stats(self, player: str, guild_id: int | None = None) -> PlayerStats:
        """A player's finished games: on one server, or (None) everywhere."""
        where, params = ("player = ? AND guild_id = ?", (player, guild_id)) if guild_id is not None else (
            "player = ?", (player,))
        row = await one(
            self.db, "SELECT COUNT(*) AS games, COALESCE(SUM(winner), 0) AS wins, COALESCE(SUM(score), 0) AS score_sum,"
            " COALESCE(MAX(score), 0) AS best_score, COALESCE(SUM(decisions), 0) AS decisions,"
            " COALESCE(SUM(in_time), 0) AS in_time, COALESCE(SUM(left_game), 0) AS left_games"
            f" FROM player_results WHERE {where}", params)
        noble = await self.db.fetchone(
            f"SELECT noble, SUM(wins) AS won FROM noble_wins WHERE {where} GROUP BY noble"
            " ORDER BY won DESC, noble ASC LIMIT 1", params)
        seconds = [t for r in await self.db.fetchall(f"SELECT decide_seconds FROM player_results WHERE {where}",
                                                     params) for t in json.loads(r["decide_seconds"])]
        return PlayerStats(row["games"], row["wins"], row["score_sum"], row["best_score"],
                           noble["noble"] if noble else None, noble["won"] if noble else 0,
                           row["decisions"], row["in_time"], statistics.median(seconds) if seconds else None,
                           row["left_games"])

    async def player_name(self, player: str, guild_id: int | None = None) -> str:
        """The name a player had at their latest finished game ('' if none)."""
        row = await self.db.fetchone(
            "SELECT name FROM player_results WHERE player = ?" + (" AND guild_id = ?" if guild_id is not None else "")
            + " ORDER BY finished_at DESC LIMIT 1", (player,) if guild_id is None else (player, guild_id))
        return row["name"] if row else ""

    async def leaderboard(self, guild_id: int, offset: int = 0, limit: int = 10,
                          steady: bool = False) -> tuple[list[BoardRow], int]:
        """A page of the server's people (computers never rank), and how many people there are in all;
        `steady`: only those who finished at least STEADY of their games (left no more than the rest)."""
        who = "guild_id = ? AND computer = 0" + (f" AND (games - left_games) * 100 >= games * {STEADY}" if steady
                                                 else "")
        rows = await self.db.fetchall(
            f"SELECT player, name, games, wins, best_score FROM player_totals WHERE {who}"
            f" ORDER BY {BOARD_ORDER} LIMIT ? OFFSET ?", (guild_id, limit, offset))
        total = await one(self.db, f"SELECT COUNT(*) AS n FROM player_totals WHERE {who}", (guild_id,))
        board = [BoardRow(offset + i + 1, r["player"], r["name"], r["games"], r["wins"], r["best_score"])
                 for i, r in enumerate(rows)]
        return board, total["n"]

    async def computer_totals(self, guild_id: int) -> tuple[int, int]:
        """(seats played, wins) of all computer seats on the server."""
        row = await one(
            self.db, "SELECT COALESCE(SUM(games), 0) AS games, COALESCE(SUM(wins), 0) AS wins FROM player_totals"
            " WHERE guild_id = ? AND computer = 1", (guild_id,))
        return row["games"], row["wins"]

    async def recent_games(self, guild_id: int, channel_id: int | None = None, before: int | None = None,
                           limit: int = 10) -> list[GameSummary]:
        """The server's (or one channel's, with those of its threads) latest ended games, newest first, older
        than game `before`. A thread's own: those of `channel_id` the thread, as no game's parent is a thread."""
        where, params = (("(channel_id = ? OR parent_id = ?)", [channel_id, channel_id]) if channel_id is not None
                         else ("guild_id = ?", [guild_id]))
        if before is not None:
            where, params = where + " AND id < ?", params + [before]
        rows = await self.db.fetchall(
            "SELECT id, guild_id, channel_id, status, setup, updated_at, finished_at FROM games"
            f" WHERE {where} AND status IN {ENDED} ORDER BY id DESC LIMIT ?", (*params, limit))
        if not rows:
            return []
        ids = [r["id"] for r in rows]
        results: dict[int, list[tuple[str, int, int, bool]]] = {}
        for r in await self.db.fetchall(
                "SELECT game_id, player, score, place, winner FROM player_results"
                f" WHERE game_id IN ({', '.join('?' * len(ids))}) ORDER BY game_id, place, seat", ids):
            results.setdefault(r["game_id"], []).append((r["player"], r["score"], r["place"], bool(r["winner"])))
        return [GameSummary(r["id"], r["guild_id"], r["channel_id"], r["status"], r["finished_at"] or r["updated_at"],
                            Table.model_validate_json(r["setup"]), tuple(results.get(r["id"], ())))
                for r in rows]

    async def game_summary(self, game_id: int) -> GameSummary | None:
        rows = await self.db.fetchall("SELECT guild_id FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        found = await self.recent_games(rows[0]["guild_id"], before=game_id + 1, limit=1)
        return found[0] if found and found[0].id == game_id else None
