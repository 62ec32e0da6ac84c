"""Who is told now that it is their move (issue 43): nobody outside their hours, nobody who asked for a daily
word instead. Called by the presenter for each ping (presenter.py `_ping`), after the heads-up.

Outside their hours a person's ping is put off until their hours begin (service/pings.py: sent then if they
must still make that decision), and so is their heads-up. A person with a daily word gets neither: their
direct message of the day lists the game (service/mine.py); the reminder before their clock runs out still
comes (upkeep.py), within their hours.
"""

from __future__ import annotations

from storage import GameRecord

from .heads_up import Announcer, heads_up


async def to_ping_now(presenter: Announcer, record: GameRecord, due: set[str]) -> set[str]:
    """The heads-up, then those of `due` to ping now; the others' pings are put off to their hours, or left to
    their daily word."""
    service = presenter.service
    await heads_up(presenter, record, due)
    quiet = await service.mine.quiet(due)
    later = await service.settings.hours.outside(due - quiet)
    for player, at in sorted(later.items()):
        await service.pings.put_off(record, {player}, at)
    return due - quiet - set(later)
