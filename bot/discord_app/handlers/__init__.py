"""What each slash command, button and menu does: one object per feature, over one shared `Front`.

Every handler answers its interaction exactly once: after the service's commit,
with a polite ephemeral message on any refusal, and never lets an exception
reach Discord (`guarded`). `Front.game_here` (base.py) is the one check of "the
game in this channel" that handlers go through.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...service import GameService
from ..computers import ComputerRunner
from ..presenter import Presenter
from .base import Front
from .info import InfoHandlers
from .lobby import LobbyHandlers
from .me import MyHandlers
from .play import PlayHandlers
from .records import RecordsHandlers
from .seats import SeatHandlers
from .undo import UndoHandlers

Handler = Callable[..., Awaitable[None]]


class Handlers:
    """The features' handlers, each reached by name: `lobby`, `play`, `seats`, `undo`, `info`, `records`, `me`."""

    def __init__(self, service: GameService, presenter: Presenter, computers: ComputerRunner):
        self.front = Front(service, presenter, computers)
        self.lobby = LobbyHandlers(self.front)
        self.play = PlayHandlers(self.front)
        self.seats = SeatHandlers(self.front)
        self.undo = UndoHandlers(self.front)
        self.info = InfoHandlers(self.front)
        self.records = RecordsHandlers(self.front)
        self.me = MyHandlers(self.front)

    def route(self, name: str) -> Handler:
        """The handler a durable item names ("feature.method", widgets.py)."""
        feature, _, method = name.partition(".")
        found: Handler = getattr(getattr(self, feature), method)  # (getattr's Any: a name read at run time)
        return found  # an item names one of the methods above: the routing tests click every kind of item


__all__ = ["Front", "Handlers"]
