"""What each slash command, button and menu does, one module per concern.

Every handler answers its interaction exactly once: after the service's commit,
with a polite ephemeral message on any refusal, and never lets an exception
reach Discord (`guarded`). `game_here` (base.py) is the one check of "the game
in this channel" that handlers go through.
"""

from .base import HandlerBase
from .info import InfoHandlers
from .lobby import LobbyHandlers
from .play import PlayHandlers
from .records import RecordsHandlers
from .seats import SeatHandlers
from .undo import UndoHandlers


class Handlers(LobbyHandlers, PlayHandlers, SeatHandlers, UndoHandlers, InfoHandlers, RecordsHandlers, HandlerBase):
    pass


__all__ = ["Handlers"]
