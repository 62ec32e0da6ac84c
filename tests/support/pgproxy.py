"""A unix-socket relay in front of the test PostgreSQL server, which a test can cut and restore: what a
server restart or a network blip looks like from the bot (connections reset, new ones refused)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from urllib.parse import parse_qs, urlsplit, urlunsplit

TASK = "pg relay"  # the name of the relay's tasks (the bot harness lets them run on)


def relaying(task: asyncio.Task) -> bool:
    """The relay's tasks, and asyncpg's pool keeping its floor of connections while the server is away."""
    return task.get_name() == TASK or getattr(task.get_coro(), "__qualname__", "") == "Pool._maintain_min_size"


class Relay:
    def __init__(self, url: str):
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        port = parts.port or 5432
        self.target = os.path.join(query["host"][0], f".s.PGSQL.{port}")
        self.folder = tempfile.mkdtemp(prefix="pgrelay.")
        self.socket = os.path.join(self.folder, f".s.PGSQL.{port}")
        self.url = urlunsplit(parts._replace(query=f"host={self.folder}"))  # the same database, through here
        self._server: asyncio.AbstractServer | None = None
        self._pipes: set[asyncio.StreamWriter] = set()
        self._upstream: set[asyncio.StreamWriter] = set()  # the server's side of each connection
        self._stranded: set[asyncio.StreamWriter] = set()  # server sides left open by a silent cut

    async def start(self) -> Relay:
        self._server = await asyncio.start_unix_server(self._serve, path=self.socket)
        return self

    async def _serve(self, reader, writer) -> None:
        asyncio.current_task().set_name(TASK)
        try:
            up_reader, up_writer = await asyncio.open_unix_connection(self.target)
        except OSError:
            writer.close()
            return
        self._pipes |= {writer, up_writer}
        self._upstream.add(up_writer)

        async def pump(source, sink):
            with contextlib.suppress(Exception):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            if sink not in self._stranded:
                sink.close()

        await asyncio.gather(asyncio.create_task(pump(reader, up_writer), name=TASK),
                             asyncio.create_task(pump(up_reader, writer), name=TASK))
        self._pipes -= {writer, up_writer}
        self._upstream.discard(up_writer)

    async def cut(self, *, server_notices: bool = True) -> None:
        """The server is gone: every connection through here is reset, and new ones are refused. With
        server_notices=False the network between went instead: the server's side of each connection stays
        open, so the server keeps those sessions (and their locks) until they are ended (close() does)."""
        if self._server is not None:
            self._server.close()
            self._server = None
        if not server_notices:
            self._stranded |= self._pipes & self._upstream
        for pipe in list(self._pipes - self._stranded):
            pipe.transport.abort()
        self._pipes.clear()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.socket)

    async def restore(self) -> None:
        await self.start()

    async def close(self) -> None:
        await self.cut()
        for pipe in self._stranded:
            pipe.transport.abort()
        self._stranded.clear()
        with contextlib.suppress(OSError):
            os.rmdir(self.folder)
