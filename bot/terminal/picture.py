"""`augsburg play --picture FILE`: the public table drawn to FILE whenever what everyone sees has changed.

The picture is written to a file beside FILE (in the same folder, so that the rename is atomic) and renamed
over it: a viewer never reads half a picture, and nothing is left anywhere else. A picture that cannot be
written is said in one line, and the game goes on without it.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from contextlib import suppress

from engine import View, spectator_view
from storage import GameRecord

from ..service import GameService
from ..wording import People, Words
from ..wording import terminal as words


class Picture:
    def __init__(self, path: str | None, w: Words, people: Callable[[GameRecord], People],
                 say: Callable[[str], None]):
        """`people`: the names at a game's table; `say`: how a failure is told (one line)."""
        self.path, self.w, self.people, self.say = path, w, people, say
        self.shown: View | None = None

    async def update(self, record: GameRecord | None, service: GameService) -> None:
        if self.path is None or record is None or record.state is None:
            return
        view = spectator_view(record.state)
        public = view.model_copy(update={"moves": 0})  # a move nobody sees (a secret choice) draws nothing
        if public == self.shown:
            return
        from ..picture import table_picture
        from ..picture.story import story

        told = story(await service.games.history(record))
        data = table_picture(view, self.people(record), self.w, told)
        try:
            write(self.path, data)
        except OSError as exc:
            self.say(words.picture_failed(self.w, self.path, exc.strerror or str(exc)))
            self.path = None  # said once: the game goes on without its picture
            return
        self.shown = public


def write(path: str, data: bytes) -> None:
    """`data` into the file at `path`, through a file beside it renamed over it; OSError if it cannot be
    (nothing is left behind then)."""
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    folder, name = os.path.split(os.path.abspath(path))
    part = os.path.join(folder, f".{name}.{os.getpid()}.part")
    try:
        with open(part, "wb") as out:
            out.write(data)
        os.replace(part, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(part)
        raise
