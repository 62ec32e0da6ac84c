"""The action log's hash chain: each row's hash covers the row before it, so damage anywhere in a game's
log shows when the game is loaded (one query), not first when a repair needs the log.

hash(move n) = sha256(hash(move n - 1) + the row's content); move 1 follows GENESIS. The content is
everything a row holds (the move, who made it, the action, its events, when), and the game's id, so a
row copied into another game does not fit there either. Its fields are joined by the ASCII unit
separator, which none can hold (JSON escapes control characters; a float's str() reads back exactly):
three times cheaper than JSON, for a 400-move game checked at each load. The hash is kept as its 32
raw bytes (hex would add 13 KB to a finished 5-player game of some 400 moves).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from .sql import Row, Transaction

GENESIS = b""
CONTENT = "game_id, move, version, player, actor, action, events, at"  # the columns a row's hash covers
SELECT_LOG = f"SELECT {CONTENT}, hash FROM actions WHERE game_id = ? ORDER BY move"
_COLUMNS = CONTENT.split(", ")


def link(previous: bytes, content: tuple[Any, ...]) -> bytes:
    """The hash of a row with `content` (the CONTENT columns, in order) after a row hashed `previous`."""
    return hashlib.sha256(previous + "\x1f".join(map(str, content)).encode()).digest()


def first_break(rows: Iterable[Row]) -> int | None:
    """The first move whose row is missing or does not match its hash (rows: SELECT_LOG's); None if whole."""
    previous = GENESIS
    for expected, row in enumerate(rows, start=1):
        if row["move"] != expected or row["hash"] != link(previous, tuple(row[c] for c in _COLUMNS)):
            return expected
        previous = row["hash"]
    return None


async def append(tx: Transaction, content: tuple[Any, ...], previous: bytes | None = None) -> bytes:
    """Insert an action row (the CONTENT columns, in order) chained to the game's previous move, whose hash
    is read unless given (`previous`: the writer kept it); the row's hash.

    Called after the game's row was updated in the same transaction, which holds that row's lock: two
    writers of one game never read the same previous hash (and (game_id, move) is the key besides)."""
    game_id, move = content[0], content[1]
    if previous is None:
        previous = GENESIS
        if move > 1:
            row = await tx.fetchone("SELECT hash FROM actions WHERE game_id = ? AND move = ?", (game_id, move - 1))
            previous = row[0] if row is not None and row[0] is not None else GENESIS  # a gap: the check will tell
    hashed = link(previous, content)
    await tx.execute(f"INSERT INTO actions ({CONTENT}, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (*content, hashed))
    return hashed
