"""The bot's hold on its database (on its Discord shards there, all of them by default): taken before
anything is said to Discord, all of them or none, renewed every third of the takeover time, given up on a
clean stop. A restart after a crash on the same machine is immediate too: the kernel frees the dead
process's lock on the file (storage/sqlite/host_lock.py), PostgreSQL its session's locks.

Only the holder may serve: the bot keeps open games in memory, and a second process would answer from
its own copy ("someone acted at the same moment" for moves that were in fact applied). If the lease is
found in another process's hands (this one was frozen past the takeover time), or a game write is refused
because its shard is (storage/ownership.py), the bot stops serving: all its shards, so it never answers for
one it lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any, Protocol

from storage import LeaseHeld
from storage.contract import LeaseStore
from storage.ownership import ShardLost

log = logging.getLogger(__name__)
HEARTBEAT_TASK = "lease heartbeat"


class ShardClaim(Protocol):
    """Which of Discord's shards a process claims (bot/app/shards.py's Shards)."""

    @property
    def ids(self) -> tuple[int, ...]: ...

    @property
    def count(self) -> int: ...

    @property
    def sharded(self) -> bool: ...

    def describe(self) -> str: ...


Stop = Callable[[], Coroutine[Any, Any, None]]  # what stops the bot (its close)


class LeaseKeeper:
    def __init__(self, leases: LeaseStore, where: str, seconds: float, on_lost: Stop,
                 shards: ShardClaim | None = None):
        self.leases = leases
        self.shards = shards  # which to claim (None: the whole database, shard 0 of 1)
        self.where = where  # the database, as logs name it
        self.seconds = seconds
        self.on_lost = on_lost  # stops the bot
        self.holder = secrets.token_hex(8)  # pids repeat and hosts are shared: this names one process's life
        self.pid = os.getpid()
        self.host = socket.gethostname()
        self.held = False
        self.lost = False
        self._renewed = 0.0  # time.monotonic() of the last renewal
        self._task: asyncio.Task[None] | None = None
        self._stopping: asyncio.Task[None] | None = None
        self._asking: asyncio.Task[bool] | None = None  # the renewal under way, which all who need one wait for
        self._fenced_out: asyncio.Task[None] | None = None  # stopping after a write was refused (ownership.py)
        self._loop: asyncio.AbstractEventLoop | None = None  # the keeper's (its heartbeat's), once it took the lease

    async def take(self) -> None:
        """Hold the lease and keep it renewed; LeaseHeld if another live process has it."""
        ids, count = (self.shards.ids, self.shards.count) if self.shards is not None else ((0,), 1)
        await self.leases.take_lease(self.holder, self.pid, self.host, self.seconds, shards=ids, count=count)
        self.held, self._renewed = True, time.monotonic()
        self._loop = asyncio.get_running_loop()
        self.leases.ownership.on_lost = self._fenced
        what = f" ({self.shards.describe()})" if self.shards is not None and self.shards.sharded else ""
        log.info("serving %s%s (lease held by pid %s on %s)", self.where, what, self.pid, self.host)
        self._task = asyncio.create_task(self._heartbeat(), name=HEARTBEAT_TASK)

    async def _heartbeat(self) -> None:
        while not self.lost:
            await asyncio.sleep(self.seconds / 3)
            await asyncio.shield(self._renewal())

    async def still_held(self) -> bool:
        """Before serving an interaction. While the heartbeat is on time nobody can have taken the lease;
        after a stall (the process was frozen, or the loop blocked) the database is asked first, since the
        heartbeat task may run only after the interactions that queued up meanwhile."""
        if self.lost:
            return False
        if time.monotonic() - self._renewed < self.seconds / 2:
            return True
        return await asyncio.shield(self._renewal())

    def _renewal(self) -> asyncio.Task[bool]:
        """The renewal under way, or a new one: the heartbeat and every interaction queued up after a stall
        share one question to the database, rather than waiting for one another's."""
        if self._asking is None:
            self._asking = asyncio.create_task(self._renew(), name="lease: renewing")
            self._asking.add_done_callback(lambda _: setattr(self, "_asking", None))
        return self._asking

    async def _renew(self) -> bool:
        try:
            if await self.leases.renew_lease(self.holder):
                self._renewed = time.monotonic()
                return True
            why = "another process took it over (this one was stalled longer than the takeover time)"
        except Exception:
            log.warning("could not renew the database lease", exc_info=True)
            # No one may take it over before `seconds` without a heartbeat: until then, keep serving.
            if time.monotonic() - self._renewed < self.seconds:
                return True
            why = f"it could not be renewed for {self.seconds:g} s"
        await self._lose(why)
        return False

    def _fenced(self, lost: ShardLost) -> None:
        """A game write was refused: its shard is another process's now. Called where the write runs (on
        PostgreSQL, the writes' own thread: storage/postgres/thread.py), so handed to the keeper's loop."""
        assert self._loop is not None, "fenced only once taken"
        self._loop.call_soon_threadsafe(self._fenced_out_by, lost)

    def _fenced_out_by(self, lost: ShardLost) -> None:
        if not self.lost and self._fenced_out is None:
            self._fenced_out = asyncio.get_running_loop().create_task(self._lose(
                f"a write to a game of shard {lost.shard} was refused: another process holds that shard now"
                " (this one was stalled longer than the takeover time)"), name="lease: fenced out")

    async def _lose(self, why: str) -> None:
        if self.lost:
            return
        self.held, self.lost = False, True
        with contextlib.suppress(Exception):
            if (now := await self.leases.lease()) is not None:
                why += f"; it is now held by pid {now.pid} on {now.host}"
        log.error("lost the lease on %s: %s. Stopping, so as not to answer from a stale copy.", self.where, why)
        # In a task of its own: stopping cancels the heartbeat, which may be the caller.
        self._stopping = asyncio.create_task(self.on_lost(), name="stopping: lease lost")

    async def release(self) -> None:
        """Stop renewing and give the lease up (unless it was lost: then it is someone else's)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._asking is not None:  # a renewal under way ends before the lease is given up, not after
            with contextlib.suppress(Exception):
                await asyncio.shield(self._asking)
        if self.held:
            self.held = False
            try:
                await self.leases.release_lease(self.holder)
            except Exception:  # the database is out of reach: the lease frees itself (stale, or its lock's
                log.warning("could not give the database lease up", exc_info=True)  # connection closes)


def refusal(held: LeaseHeld, path: str) -> str:
    """One line for an operator who started a second bot on the same database."""
    lease = held.lease
    since = datetime.fromtimestamp(lease.taken_at).astimezone().isoformat(sep=" ", timespec="seconds")
    shard = f"shard {lease.shard} of {lease.shard_count} of " if lease.shard_count > 1 else ""
    serves = (f"Another bot process serves {shard}{path}: pid {lease.pid} on {lease.host}, since {since}, last"
              f" heartbeat {held.age:.0f} s ago.")
    if held.alive:  # its lock says it is running (the kernel's on this machine, PostgreSQL's): waiting would not help
        where = " on this machine" if lease.host == socket.gethostname() else ""
        return f"{serves} It is running{where}: stop it first."
    wait = math.ceil(held.wait)
    return f"{serves} Stop it, or wait {wait} s if it has died (its LEASE_SECONDS is {lease.seconds:g})."
