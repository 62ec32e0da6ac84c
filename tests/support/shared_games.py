"""A game cache that catches a shared record changed in place.

The service hands out the records it keeps parsed (bot/service/cache.py) without copying them: nothing may
change one in place. This cache, put in place of the service's for the tests, remembers each record's text
when it is kept and checks it whenever the record is handed out again."""

from __future__ import annotations

from bot.service.cache import GameCache
from storage import GameRecord


def _text(record: GameRecord) -> str:
    state = record.state.model_dump_json() if record.state is not None else ""
    return state + record.table.model_dump_json()


class CheckedGameCache(GameCache):
    def __init__(self, hot: int = 8) -> None:  # few hot games: leaving and coming back is tested too
        super().__init__(hot)
        self._seen: dict[int, tuple[GameRecord, str]] = {}

    def get(self, channel_id: int) -> GameRecord | None:
        record = super().get(channel_id)
        seen = self._seen.get(channel_id)
        if record is not None and seen is not None and seen[0] is record:
            assert _text(record) == seen[1], f"the game of channel {channel_id} was changed in place"
        elif record is not None:
            self._seen[channel_id] = (record, _text(record))
        return record

    def put(self, record: GameRecord) -> None:
        super().put(record)
        self._seen[record.channel_id] = (record, _text(record))

    def drop(self, channel_id: int) -> None:
        super().drop(channel_id)
        self._seen.pop(channel_id, None)
