"""The skill rating (issue 46): openskill's Plackett-Luce model, with no I/O, shared by the ratings kept in the
database (ratings.py) and the script that measured the computer levels' fixed marks (tests/rate_levels.py).

Why Plackett-Luce: it is made for free-for-all games of any number of players (a game of Augsburg 1520 is one
ranking of 2 to 5), rates from the whole final order with ties, is maintained (openskill.py, MIT), and is as
accurate as TrueSkill while much faster and free of its patents. Each rating is a belief: `mu` (the skill) and
`sigma` (how unsure that is); the conservative rank the model intends is its ordinal, mu - 3 sigma, below the
true skill with 99.7% certainty, so a newcomer (25 ± 8.33: ordinal 0) climbs as their games make it sure.

The rated-game rule, in one place (`ranking`):
- Only games finished at their end with at least one person are rated. Cancelled and abandoned games are not
  rated for anybody (they have no results), nor are games between computers only.
- The final ranking is the game's own: the winners (as the rules break ties) share first place, everybody else
  is placed after all who scored more; equal places are ties for the model.
- A person who left the game, or whose stand-in (the computer standing in, on time away, or at their clock's
  end) made more than `STOOD_IN_OVER` of their decisions, is rated as last (sharing last place with any other
  such person): leaving a lost game never saves a rating, and a table is not punished for a leaver.
- Computers take part at their level's fixed mark (`MARKS`) and are never changed: a person alone against
  three computers is rated against the marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from engine.levels import Level

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
STOOD_IN_OVER = 0.5  # a person whose stand-in made more than this share of their decisions is rated as last

# The computer levels' fixed marks (mu, sigma), measured once by 210 games between the levels (at 840a221's
# levels; README, "Ratings"):
#     .venv/bin/python tests/rate_levels.py --deals 70 --seed 1 --workers 2
# Never changed by games against people. Ordinals (mu - 3 sigma): easy 8.0, normal 16.8, strong 29.6.
MARKS: dict[Level, tuple[float, float]] = {
    "easy": (14.63, 2.21),
    "normal": (23.06, 2.08),
    "strong": (36.74, 2.38),
}


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rank the model intends: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma)


def mark(level: Level) -> Rating:
    return Rating(*MARKS[level])


@dataclass(frozen=True)
class Seated:
    """One seat of a finished game, as rated: its place (1 = first; equal places tie), whether a computer plays
    it (at `level`), and for a person whether they left and how many of their decisions were their own."""

    player: str
    place: int
    computer: bool = False
    level: Level = "normal"
    left: bool = False
    own: int = 0  # decisions they made (or settled ahead)
    stood_in: int = 0  # decisions the computer made for them (standing in, time away, their clock)

    @property
    def rated_last(self) -> bool:
        if self.computer:
            return False
        made = self.own + self.stood_in
        return self.left or (made > 0 and self.stood_in / made > STOOD_IN_OVER)


def place(score: int, winner: bool, others: Sequence[tuple[int, bool]]) -> int:
    """A seat's place at the end (stats.py stores it): winners share first, everybody else comes after all who
    scored more and after the winners. `others`: every seat's (score, winner), this one's included."""
    return 1 if winner else 1 + sum(1 for s, w in others if s > score or w)


def ranking(seats: Sequence[Seated]) -> list[int]:
    """Each seat's rank for the model (lower is better, equal ranks tie): its place, or last for a person rated
    as last (see the module's rule)."""
    last = max((s.place for s in seats), default=0) + 1
    return [last if s.rated_last else s.place for s in seats]


def rated(seats: Sequence[Seated]) -> bool:
    """Whether the game is rated at all: a person sits at it, and there are two seats to rank."""
    return len(seats) >= 2 and any(not s.computer for s in seats)


def rate(seats: Sequence[Seated], ratings: Sequence[Rating]) -> list[Rating]:
    """The ratings after the game (`ratings`: before it, in the seats' order; a computer's is its mark, and is
    returned unchanged)."""
    teams = [[PlackettLuceRating(r.mu, r.sigma)] for r in ratings]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranking(seats)])
    return [before if s.computer else Rating(team[0].mu, team[0].sigma)
            for s, before, team in zip(seats, ratings, after)]


def update(levels: Sequence[str], places: Sequence[int], ratings: dict[str, Rating]) -> None:
    """Rate one game between identities that all change (the measuring script: the levels themselves)."""
    teams = [[PlackettLuceRating(ratings[k].mu, ratings[k].sigma)] for k in levels]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    for k, team in zip(levels, after):
        ratings[k] = Rating(team[0].mu, team[0].sigma)
