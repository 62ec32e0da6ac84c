"""Who keeps games moving (issue 29): each person's decisions in a finished game, how many were made before
their clock ran out, and how long each took, from the game's own stored log.

A person is due from the move after which the engine first waits for them (the game's start for the first
decision) until their decision; a secret choice's clock starts for everybody at once. Counted: the person's
own decisions (`player`) and the ones they settled ahead (`ahead`), in time; the clock's (`clock`), late. Not
counted: moves the bot made because they were the only option (`only`), a computer standing in for
someone away or gone (`stand_in`: their leaving is counted apart, as a game left), and the computer deciding
for someone on time away (`away`: neither in time nor late). The time to decide is
kept for the person's own decisions only (one settled ahead took no time of theirs)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine import TakeBack, parse_action, to_act
from engine.edition import Edition
from engine.undo import History

COUNTED = {"player": True, "ahead": True, "clock": False}  # actor → in time


@dataclass
class Decisions:
    made: int = 0
    in_time: int = 0
    seconds: list[float] = field(default_factory=list)  # each of their own decisions, in order

    def seconds_json(self) -> str:
        return json.dumps([round(s, 1) for s in self.seconds])


def decisions(players: list[str], seed: int, start_player: str | None, edition: Edition, rules: int,
              started_at: float, moves: list[tuple[str, str, float, dict[str, Any]]]) -> dict[str, Decisions]:
    """`moves`: (player, actor, at, action) in the order played. Replays the game to know who was due when.

    A decision taken back (engine/undo.py) is not counted, nor is the take-back: the decision made again
    is, timed from when the player was first due for it."""
    parsed = [(player, actor, at, parse_action(action)) for player, actor, at, action in moves]
    history = History(players, seed, start_player, edition, rules)
    for player, _, _, action in parsed:
        if not history.play(player, action).ok:  # a stored log replays (storage verifies it)
            break
    taken = {r.move for r in history.rows if r.taken_back}
    history = History(players, seed, start_player, edition, rules)
    due_since = {p: started_at for p in to_act(history.state)}
    found = {p: Decisions() for p in players}
    for move, (player, actor, at, action) in enumerate(parsed, start=1):
        take_back = isinstance(action, TakeBack)
        if actor in COUNTED and not take_back and move not in taken:
            mine = found[player]
            mine.made += 1
            mine.in_time += COUNTED[actor]
            if actor == "player":
                mine.seconds.append(max(0.0, at - due_since.get(player, at)))
        before = set(to_act(history.state))
        if not history.play(player, action).ok:  # stop rather than guess
            break
        for p in to_act(history.state):
            if (p not in before or p == player) and not (take_back and p == player):
                due_since[p] = at
    return found
