"""Reliability (issue 46): how well a person keeps their seat, over their games on every server, as Board
Game Arena's karma does.

It counts their finished games (player_results, with whether they left and how many of their decisions a
stand-in made) and the games they left that then ended unplayed (`departures`, written by `record_departures`
in the transaction that cancels or abandons the game): leaving a game that was cancelled later still counts
as leaving it; a game cancelled or abandoned (its channel deleted) while they were still seated does not count
at all, for it was not theirs to finish.
"""

from __future__ import annotations

from dataclasses import dataclass

from .records import Table
from .sql import Reader, Transaction, one

OWN = ("player", "ahead")  # the actors of a person's own decisions
STOOD_IN = ("stand_in", "clock", "away")  # the computer's for a person: standing in, on time away, at the clock


@dataclass(frozen=True)
class Reliability:
    """A person's record of keeping their seat, over their games on every server: those finished, and those
    they left that then ended unplayed."""

    games: int  # games they sat at (finished, or left and then cancelled or abandoned)
    left: int  # of which they left before the end
    own: int  # decisions they made themselves
    stood_in: int  # decisions a stand-in made for them

    @property
    def finished_share(self) -> float | None:
        return (self.games - self.left) / self.games if self.games else None

    @property
    def stood_in_share(self) -> float | None:
        made = self.own + self.stood_in
        return self.stood_in / made if made else None

    @property
    def percent(self) -> int | None:
        """One figure, as Board Game Arena's karma: the share of their games finished without leaving, less
        the share of their decisions a stand-in made (None: no games counted yet)."""
        if self.finished_share is None:
            return None
        return max(0, round(100 * (self.finished_share - (self.stood_in_share or 0.0))))


async def record_departures(tx: Transaction, game_id: int, table: Table, status: str, now: float) -> None:
    """A game ended unplayed ('cancelled' or 'abandoned'): each person who had left it counts it as a game
    left, with the decisions they and their stand-in made in it."""
    gone = [s.id for s in table.seats if s.kind == "human" and s.left]
    if not gone:
        return
    counts: dict[tuple[str, str], int] = {(r["player"], r["actor"]): r["n"] for r in await tx.fetchall(
        "SELECT player, actor, COUNT(*) AS n FROM actions WHERE game_id = ? GROUP BY player, actor", (game_id,))}
    await tx.executemany(
        "INSERT INTO departures (game_id, player, status, own_decisions, stood_in, ended_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, player) DO NOTHING",
        [(game_id, p, status, sum(counts.get((p, a), 0) for a in OWN), sum(counts.get((p, a), 0) for a in STOOD_IN),
          now) for p in gone])


async def reliability(db: Reader, player: str) -> Reliability:
    """Over their finished games, and the games they left that then ended unplayed (all counted as left)."""
    row = await one(db, "SELECT COUNT(*) AS games, COALESCE(SUM(left_game), 0) AS left_games,"
                    " COALESCE(SUM(own_decisions), 0) AS own, COALESCE(SUM(stood_in), 0) AS stood_in"
                    " FROM (SELECT left_game, own_decisions, stood_in FROM player_results"
                    " WHERE player = ? AND computer = 0"
                    " UNION ALL SELECT 1, own_decisions, stood_in FROM departures WHERE player = ?) AS seated",
                    (player, player))
    return Reliability(row["games"], row["left_games"], row["own"], row["stood_in"])
