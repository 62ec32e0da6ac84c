"""The gateway websocket, for a bot in another process: HELLO, IDENTIFY -> READY + GUILD_CREATE,
heartbeats, RESUME with replay, and dispatches of INTERACTION_CREATE and message events.

discord.py asks for ``compress=zlib-stream`` (or ``zstd-stream`` when zstandard is importable):
zlib-stream is done for real (one deflate context per connection, each frame ended with Z_SYNC_FLUSH);
for anything else plain text frames are sent, which discord.py accepts whatever it asked for.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import zlib
from typing import Any

from aiohttp import WSMsgType, web

from . import payloads
from .model import delivered


class Connection:
    def __init__(self, ws: web.WebSocketResponse, query: dict[str, str]) -> None:
        self.ws, self.query = ws, query
        self.deflate = zlib.compressobj() if query.get("compress") == "zlib-stream" else None
        self.lock = asyncio.Lock()  # a zlib stream must be written in order
        self.session: Session | None = None

    async def send(self, payload: dict) -> None:
        raw = json.dumps(payload, separators=(",", ":"))
        async with self.lock:
            if self.ws.closed:
                return
            try:
                if self.deflate is None:
                    await self.ws.send_str(raw)
                else:
                    await self.ws.send_bytes(
                        self.deflate.compress(raw.encode()) + self.deflate.flush(zlib.Z_SYNC_FLUSH)
                    )
            except (ConnectionError, RuntimeError):
                pass  # the client went away mid-send; it will resume or identify again


class Session:
    def __init__(self, identify: dict) -> None:
        self.id = secrets.token_hex(16)
        self.identify = identify
        self.intents = int(identify.get("intents") or 0)
        self.seq = 0
        self.backlog: list[dict] = []  # every dispatch, replayed after the client's seq on RESUME
        self.conn: Connection | None = None


class Gateway:
    """The websocket side of a :class:`~support.server.FakeDiscord`; events come from its model."""

    def __init__(self, fake: Any, heartbeat_interval_ms: int = 41250) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, Session] = {}
        self.connections: list[dict[str, str]] = []  # the query of every websocket connect
        self.received: list[dict] = []  # every payload a client sent
        self.ready_count = self.resume_count = 0
        self._open: set[Connection] = set()
        self._tasks: set[asyncio.Task] = set()
        fake.listeners.append(self._on_model_event)

    def _on_model_event(self, event: str, data: dict) -> None:
        """Message events reach a session only with the GUILD_MESSAGES (DIRECT_MESSAGES in a DM) intent."""
        for session in list(self.sessions.values()):
            if delivered(session.intents, data):
                task = asyncio.get_running_loop().create_task(self.send(session, event, data))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    def live(self) -> bool:
        return any(s.conn is not None for s in self.sessions.values())

    async def dispatch(self, event: str, data: dict) -> None:
        """Send a DISPATCH to every session; one that is reconnecting gets it on RESUME."""
        for session in list(self.sessions.values()):
            await self.send(session, event, data)

    async def send(self, session: Session, event: str, data: dict) -> None:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.backlog.append(payload)
        if session.conn is not None:
            await session.conn.send(payload)

    async def reconnect(self) -> None:
        """Ask every client to reconnect (op 7); discord.py then RESUMEs."""
        for conn in list(self._open):
            await conn.send({"op": 7, "d": None, "s": None, "t": None})

    async def close(self) -> None:
        for conn in list(self._open):
            await conn.ws.close(code=1001, message=b"fake discord shutting down")
        for task in list(self._tasks):
            task.cancel()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, compress=False)
        await ws.prepare(request)
        conn = Connection(ws, dict(request.query))
        self._open.add(conn)
        self.connections.append(conn.query)
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    payload = json.loads(msg.data)
                    self.received.append(payload)
                    await self._on_op(conn, payload.get("op"), payload.get("d") or {})
                    self.fake.notify()
        finally:
            self._open.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self.fake.notify()
        return ws

    def _authorized(self, token: str | None) -> bool:
        return self.fake.token is None or token == self.fake.token

    async def _on_op(self, conn: Connection, op: int | None, d: dict) -> None:
        if op == 1:  # HEARTBEAT
            await conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:  # IDENTIFY
            if not self._authorized(d.get("token")):
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            session = Session(d)
            self.sessions[session.id] = conn.session = session
            session.conn = conn
            await self.send(session, "READY", payloads.ready(self.fake, session.id, [0, 1], owns_guild=True))
            await self.send(session, "GUILD_CREATE", payloads.guild(self.fake))
            self.ready_count += 1
        elif op == 6:  # RESUME
            session = self.sessions.get(d.get("session_id"))
            if session is None or not self._authorized(d.get("token")):
                await conn.send({"op": 9, "d": False, "s": None, "t": None})
                return
            if session.conn is not None and session.conn is not conn:
                await session.conn.ws.close(code=4000)
            session.conn, conn.session = conn, session
            for missed in [p for p in session.backlog if p["s"] > int(d.get("seq") or 0)]:
                await conn.send(missed)
            await self.send(session, "RESUMED", {})
            self.resume_count += 1
        # op 3 (presence), 4 (voice), 8 (member requests): recorded in ``received``, not answered
