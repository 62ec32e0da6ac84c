"""The bot's longest replies against Discord's limits, which the fake Discord enforces on every request.

Whole-game tests meet the long cases only by chance (the deal is random), so the long cases are set up
here directly: a game is started through Discord, then its cached state is replaced by the case.
"""

from __future__ import annotations

import dataclasses

import pytest
from support.bot_support import ADA, BEN, game, open_and_start, service

from engine.editions import default
from engine.state import Showdown

CARD_NOBLE, NOBLES = default().card_noble, default().nobles  # the shipped edition's


async def showdown(h, player: int, count: int) -> None:
    """Put ``player`` in a showdown for the current noble, laying down ``count`` of their ``count`` cards."""
    record = game(h)
    state = record.state.model_copy(deep=True)
    seat = next(i for i, p in enumerate(state.players) if p.id == str(player))
    state.noble = 0
    noble = NOBLES[state.noble]
    state.players[seat].hand = tuple(sorted(c for c, n in CARD_NOBLE.items() if n == noble)[:count])
    state.phase, state.auction = "showdown", None
    state.showdown = Showdown(count=count, seats=[seat], high_seat=seat)
    service(h).core._games.put(dataclasses.replace(record, state=state))


@pytest.mark.parametrize("count", [8, 11, 17])
async def test_reveal_autocomplete_offers_the_lay_downs(harness, count):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    await showdown(h, ADA, count)
    offered = await h.autocomplete(ADA, "augsburg reveal", "cards", "")
    assert h.problems == [] and offered
    laid = await h.slash(ADA, "augsburg reveal", cards=offered[0]["value"])
    assert "✅" in laid.answer.content and game(h).state.phase != "showdown"
