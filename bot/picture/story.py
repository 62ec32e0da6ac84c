"""What the table's picture needs beyond the view, read from the game's public log: who won each noble in
the round under way, and, once the game is over, where each player's prestige came from."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field

from storage import GameRecord, LoggedMove


@dataclass(frozen=True)
class Story:
    won: dict[str, str | None] = field(default_factory=dict)  # noble -> its winner this round (None: nobody)
    prestige: dict[str, dict[str, int]] = field(default_factory=dict)  # player -> source -> points


# A story as two flat tuples of text and numbers (the nobles won: noble, winner, …; each player's prestige:
# player, source, points, …), which the garbage collector stops walking once it has seen them: one is kept
# per live game. (Tuples nested deeper reach the old generation still walked, until a full collection.)
_Told = tuple[tuple[str | None, ...], tuple[str | int, ...]]


def story(moves: Iterable[LoggedMove], before: _Told = ((), ())) -> Story:
    """From `storage.LoggedMove`s (the whole game, or at least the round under way): public entries only;
    `before`: the story of the moves before these, as `Stories` keeps it (they go on from it)."""
    nobles = before[0]
    won: dict[str, str | None] = {str(nobles[i]): nobles[i + 1] for i in range(0, len(nobles), 2)}
    prestige: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    gained = before[1]
    for i in range(0, len(gained), 3):
        prestige[str(gained[i])][str(gained[i + 1])] = int(gained[i + 2])
    for move in moves:
        for e in move.entries:
            if e.type == "round_started":
                won = {}
            elif e.type == "auction_won":
                won[e.noble] = e.player
            elif e.type == "auction_skipped":
                won[e.noble] = None
            elif e.type == "prestige_gained":
                prestige[e.player][e.reason] += e.amount
    return Story(won, {p: dict(s) for p, s in prestige.items()})


STORY_MOVES = 400  # moves read back for the story of the round under way, when none was told before
History = Callable[[GameRecord, int], Awaitable[list[LoggedMove]]]
GAMES_KEPT = 20_000  # open games of one process (one that ended elsewhere is never told here again)


class Stories:
    """The story of each open game as far as it was told last, so the next picture reads only the moves
    since (a few, from memory: storage/recent.py) instead of the whole round (issue 44)."""

    def __init__(self) -> None:
        # by game: told up to that many moves, and what (_Told's two tuples, not in a third: see there)
        self._told: dict[int, tuple[int, tuple[str | None, ...], tuple[str | int, ...]]] = {}

    async def tell(self, record: GameRecord, history: History) -> Story:
        """From the public log (`history(record, after)`: the moves after that one): who won each noble this
        round (a round is never STORY_MOVES moves), and at the end where each score came from (the whole
        game). An open game's goes on from where it was told last: only the moves since are read."""
        if not record.open or record.state is None:
            self.forget(record.id)
            return story(await history(record, -1))
        moves = record.state.moves
        kept = self._told.get(record.id)
        if kept is None or kept[0] > moves:  # (a game taken back past what was told: told again)
            now = story(await history(record, moves - STORY_MOVES))
        else:
            upto, won, gained = kept  # (a table event after that move, told or not, is no part of a story)
            now = story([m for m in await history(record, upto) if m.move > upto], (won, gained))
        self._told.pop(record.id, None)  # the newest last: past GAMES_KEPT, the games told longest ago go
        self._told[record.id] = (moves, tuple(x for pair in now.won.items() for x in pair),
                                 tuple(x for p, s in now.prestige.items() for source, points in s.items()
                                       for x in (p, source, points)))
        if len(self._told) > GAMES_KEPT:
            del self._told[next(iter(self._told))]
        return now

    def forget(self, game_id: int) -> None:
        self._told.pop(game_id, None)
