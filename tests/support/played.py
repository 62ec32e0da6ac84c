"""Whole games played through the game service, for the records tests: people move at random, computers
as computers do."""

from __future__ import annotations

import random

from bot.service import GameService
from engine import legal_actions, to_act
from engine.randomplay import concrete
from storage import GameRecord, Seat


async def play_game(service: GameService, guild: int, channel: int, humans: list[str], computers: int = 0,
                    seed: int = 1, moves: int | None = None, parent: int | None = None) -> GameRecord:
    """Open a table, seat `humans` (named P<id>) and `computers`, start with `seed` and play to the end (or only
    `moves` decisions: the game is left running). `parent`: the channel whose thread `channel` is."""
    rnd = random.Random(seed)
    host, *others = humans
    record = (await service.lobby.open_table(guild, channel, Seat(id=host, name=f"P{host}"), parent_id=parent)).record
    for p in others:
        assert (await service.lobby.join(channel, record.id, Seat(id=p, name=f"P{p}"))).ok
    for _ in range(computers):
        assert (await service.lobby.add_computer(channel, record.id, host)).ok
    record = (await service.lobby.start(channel, record.id, host, seed=seed)).record
    done = 0
    while record.status == "active" and (moves is None or done < moves):
        due = to_act(record.state)
        player = rnd.choice(due)
        if record.table.computer_plays(player):
            out = await service.decisions.play_computer(channel)
        else:
            out = await service.decisions.act(channel, record.id, player, None,
                                    concrete(rnd.choice(legal_actions(record.state, player)), rnd))
        assert out is not None and out.ok, out and out.notice
        record, done = out.record, done + 1
    return record
