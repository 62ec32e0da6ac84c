"""Which of Discord's shards this process serves (SHARD_COUNT, SHARD_IDS), and what follows from that.

Discord sends a guild's events only to the gateway session of shard `(guild_id >> 22) % shard_count`.
By default one process owns every shard (SHARD_COUNT=1: the whole bot, as before sharding). Several
processes share one PostgreSQL database, each owning its SHARD_IDS; SQLite serves one process only, so
there the process must own every shard.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from storage.url import DatabaseURL

from .config import Settings


@dataclass(frozen=True)
class Shards:
    count: int  # SHARD_COUNT: how many shards the whole bot has
    ids: tuple[int, ...]  # those this process owns (SHARD_IDS; default: all)

    @property
    def sharded(self) -> bool:
        """Whether to connect as discord.py's AutoShardedClient (more than one shard in all)."""
        return self.count > 1

    @property
    def everything(self) -> bool:
        return self.ids == tuple(range(self.count))

    @property
    def share(self) -> float:
        """This process's part of what the whole bot may do (the global REST budget is split this way)."""
        return len(self.ids) / self.count

    def client_options(self) -> dict[str, Any]:
        # Any: keyword arguments that discord.py's client passes on to its sharded client, untyped there.
        return {"shard_count": self.count, "shard_ids": list(self.ids)} if self.sharded else {}

    def describe(self) -> str:
        return "every shard" if self.everything else f"shard{'s' * (len(self.ids) > 1)} " \
            f"{', '.join(map(str, self.ids))} of {self.count}"


def shards_of(settings: Settings) -> Shards:
    """The settings' shards (call shards_refused first: this assumes they make sense)."""
    count = settings.shard_count
    ids = _parse(settings.shard_ids) if settings.shard_ids and settings.shard_ids.strip() else range(count)
    return Shards(count, tuple(sorted(ids)))


def shards_refused(settings: Settings) -> str | None:
    """One line for an operator whose shard settings cannot work; None if they can."""
    count = settings.shard_count
    if count < 1:
        return f"SHARD_COUNT must be 1 or more (it is {count})."
    try:
        ids = _parse(settings.shard_ids) if settings.shard_ids and settings.shard_ids.strip() else list(range(count))
    except ValueError:
        return f"SHARD_IDS must be shard numbers separated by commas, e.g. 0,1 (it is {settings.shard_ids!r})."
    wrong = [i for i in ids if not 0 <= i < count]
    if wrong or not ids or len(set(ids)) != len(ids):
        return (f"SHARD_IDS must name different shards from 0 to {count - 1} (SHARD_COUNT={count}); it is"
                f" {settings.shard_ids!r}.")
    if DatabaseURL.parse(settings.database).kind == "sqlite" and sorted(ids) != list(range(count)):
        return (f"SHARD_IDS={settings.shard_ids} leaves shards to other processes, but a SQLite database serves one"
                " bot process: leave SHARD_IDS unset (this process then owns all its shards), or use PostgreSQL"
                " (DATABASE_URL=postgresql://...) for one process per shard.")
    return None


def _parse(text: str) -> list[int]:
    return [int(part) for part in text.replace(" ", "").split(",") if part != ""]
