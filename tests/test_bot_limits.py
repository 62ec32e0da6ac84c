"""The bot's longest replies against Discord's limits, which the fake Discord enforces on every request.

Whole-game tests meet the long cases only by chance (the deal is random), so the long cases are set up
here directly: a game is started through Discord, then its cached state is replaced by the case.
"""

from __future__ import annotations

import dataclasses

import pytest
from bot_support import ADA, BEN, game, open_and_start, service

from engine.components import CARD_NOBLE, NOBLES
from engine.state import Showdown


async def showdown(h, player: int, count: int) -> None:
    """Put ``player`` in a showdown for the current noble, laying down ``count`` of their ``count`` cards."""
    record = game(h)
    state = record.state.model_copy(deep=True)
    seat = next(i for i, p in enumerate(state.players) if p.id == str(player))
    state.noble = 0
    noble = NOBLES[state.noble]
    state.players[seat].hand = sorted(c for c, n in CARD_NOBLE.items() if n == noble)[:count]
    state.phase, state.auction = "showdown", None
    state.showdown = Showdown(count=count, seats=[seat], high_seat=seat)
    service(h)._games[h.channel_id] = dataclasses.replace(record, state=state)


TOO_LONG = pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="bot/choices.py reveals(): a choice value is every card name joined by ', ' and is not cut to "
    "Discord's 100 characters, so laying down 10+ cards gets 400 50035 data.choices.N.value",
)


@pytest.mark.parametrize("count", [8, pytest.param(11, marks=TOO_LONG)])
async def test_reveal_autocomplete_offers_the_lay_downs(harness, count):
    h = harness
    await open_and_start(h, players=(ADA, BEN))
    await showdown(h, ADA, count)
    offered = await h.autocomplete(ADA, "augsburg reveal", "cards", "")
    refused, h.problems[:] = list(h.problems), []  # judged here, not again when the harness closes
    assert refused == [] and offered
