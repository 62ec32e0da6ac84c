"""Which games this process may write: those of the Discord shards it claimed (lease.py), and the fence
that every game write passes inside its transaction.

A game belongs to the shard of its guild, `(guild_id >> 22) % shard_count` (Discord's rule), computed
from the game row's guild_id, so nothing about shards is stored with a game. Shard s is lease row s + 1:
row 1 is shard 0, which with SHARD_COUNT=1 (the default, and always on SQLite) is the whole database,
the one lease there was before sharding.

The fence: a game write reads its shard's lease row (FOR KEY SHARE on PostgreSQL: a taker, who locks the
row FOR UPDATE, waits for the write to commit; the holder's heartbeat does not) and commits only if the row
still names this process. A process frozen past its takeover time that wakes up inside a write therefore
cannot write over its successor: ShardLost, nothing written, and the process is told (`on_lost`) so it
stops answering. Until a process has claimed anything (tools, tests, the terminal game) nothing is fenced.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .errors import StorageError
from .sql import Dialect, Transaction


def shard_of(guild_id: int, count: int) -> int:
    return (int(guild_id) >> 22) % count


FIRST_ROW = 1  # the lease row of shard 0


def row_of(shard: int) -> int:
    """The lease row that names the holder of `shard`."""
    return shard + FIRST_ROW


class ShardLost(StorageError):
    """This process no longer holds the game's shard (another process took it over): nothing written."""

    def __init__(self, shard: int, holder: str | None):
        self.shard = shard
        self.holder = holder  # who holds it now (None: nobody)
        super().__init__(f"shard {shard} is no longer this process's")


@dataclass
class Ownership:
    holder: str | None = None  # this process's lease holder id, once it claimed its shards
    shards: frozenset[int] = frozenset({0})
    count: int = 1
    on_lost: Callable[[ShardLost], None] = field(default=lambda lost: None)  # the lease keeper's: stop serving

    def claimed(self, holder: str, shards: Iterable[int], count: int) -> None:
        self.holder, self.shards, self.count = holder, frozenset(shards), count

    def owns(self, guild_id: int) -> bool:
        return self.holder is None or self.count == 1 or shard_of(guild_id, self.count) in self.shards

    def only_owned(self, guild_column: str) -> tuple[str, list[Any]]:
        """An SQL condition (`AND ...`) keeping rows of owned guilds only, and its parameters."""
        if self.holder is None or self.count == 1:
            return "", []
        owned = sorted(self.shards)
        return (f" AND (({guild_column} >> 22) % ?) IN ({', '.join('?' * len(owned))})", [self.count, *owned])

    async def fence(self, tx: Transaction, dialect: Dialect, guild_id: int) -> None:
        """Inside a write's transaction: ShardLost (the write is rolled back) unless `guild_id`'s shard is
        still this process's."""
        if self.holder is None:
            return
        row = await tx.fetchone(f"SELECT holder FROM lease WHERE id = ?{dialect.key_share}",
                                (row_of(shard_of(guild_id, self.count)),))
        self.passed(guild_id, row["holder"] if row is not None else None)

    def returning(self, dialect: Dialect, guild_column: str = "guild_id") -> tuple[str, list[Any]]:
        """The fence read by the game row's own UPDATE (one round trip fewer): a column `fence_holder` for
        its RETURNING (the shard's holder, locked as `fence` locks it), to pass to `passed`; nothing until
        this process has claimed its shards."""
        if self.holder is None:
            return "", []
        return f", {_holder_of(dialect, guild_column)} AS fence_holder", [self.count]

    def condition(self, dialect: Dialect, guild_column: str = "guild_id") -> tuple[str, list[Any]]:
        """The fence as a condition (`AND ...`) of the game row's UPDATE, for a write in one statement
        (onestatement.py): the row matches only while its shard's lease row, locked as `fence` locks it,
        names this process; nothing until this process has claimed its shards."""
        if self.holder is None:
            return "", []
        return f" AND {_holder_of(dialect, guild_column)} = ?", [self.count, self.holder]

    def passed(self, guild_id: int, holder: str | None) -> None:
        """ShardLost (the write is rolled back) unless `holder`, read in the write's transaction for
        `guild_id`'s shard, is this process (nothing to check before it has claimed its shards)."""
        if self.holder is not None and holder != self.holder:
            lost = ShardLost(shard_of(guild_id, self.count), holder)
            self.on_lost(lost)
            raise lost


def _holder_of(dialect: Dialect, guild_column: str) -> str:
    """SQL: the holder of the shard of the game row's guild (row_of(shard_of(guild)), in SQL; its parameter
    is the shard count), its lease row locked as `Ownership.fence` locks it."""
    return f"(SELECT holder FROM lease WHERE id = (({guild_column} >> 22) % ?) + {FIRST_ROW}{dialect.key_share})"
