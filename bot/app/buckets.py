"""discord.py's rate-limit buckets of channels the bot no longer writes to, let go after half a minute.

discord.py keeps a `Ratelimit` for each route and channel the bot has written to: a slotted object with an
asyncio lock and a deque, some four objects for every full garbage collection to walk. It lets one go only
once it has been idle five minutes, and only while it has 256 of them or more. A bot playing 5,000 tables
writes to some seven channels a second: about 2,200 buckets, 7,800 objects, a tenth of what its full
collections walked. A bucket idle `IDLE` seconds, with nothing in flight and its window over, knows nothing
a fresh one would not learn from its first answer (Discord's windows per channel are seconds long): it is
forgotten. (This reads discord.py's private fields; tests/test_buckets.py holds it to discord.py's real
client and to the fake Discord's limits.)
"""

from __future__ import annotations

import asyncio

from discord.http import HTTPClient

IDLE = 30.0  # s without a request before a bucket may go (discord.py's own: 300)
EVERY = 30.0  # s between looks
FORGETTING_TASK = "forgetting idle rate-limit buckets"


def forget_idle(http: HTTPClient, idle: float = IDLE) -> int:
    """Drop the buckets idle `idle` seconds with no request in flight or waiting and no window running;
    how many went."""
    buckets = http._buckets
    now = asyncio.get_running_loop().time()  # the clock the buckets keep (their loop's)
    gone = [key for key, bucket in buckets.items()
            if now - bucket._last_request >= idle and bucket.outgoing == 0 and not bucket._pending_requests
            and (bucket.expires is None or bucket.expires < now)]
    for key in gone:
        del buckets[key]
    return len(gone)


async def keep_forgetting(http: HTTPClient, every: float = EVERY, idle: float = IDLE) -> None:
    while True:
        await asyncio.sleep(every)
        forget_idle(http, idle)
