"""The gateway websocket, for a bot in another process: HELLO, IDENTIFY -> READY + GUILD_CREATE,
heartbeats, RESUME with replay, and dispatches of INTERACTION_CREATE and message events.

Sharding as on Discord: a session that identifies with ``shard: [id, count]`` gets the guilds with
``(guild_id >> 22) % count == id`` and only their events (DMs go to shard 0); one without is shard [0, 1],
every guild. Two connected sessions that identified as the same shard both get its events, and that is
counted loudly: ``shard_conflicts`` (at IDENTIFY) and ``delivered_twice`` (per event).

discord.py asks for ``compress=zlib-stream`` (or ``zstd-stream`` when zstandard is importable):
zlib-stream is done for real (one deflate context per connection, each frame ended with Z_SYNC_FLUSH);
for anything else plain text frames are sent, which discord.py accepts whatever it asked for.

A frame is serialized once, when it is queued (the model may change the message right after), and
each connection has one writer that sends its queue in order: sequence numbers reach the bot in order
however many interactions are in flight, and no task is made per event. A session keeps the last
``backlog`` dispatches for RESUME; a bot further behind gets op 9 (not resumable) and identifies anew,
as on Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import zlib
from collections import deque
from typing import Any

import orjson
from aiohttp import WSMsgType, web

from . import payloads
from .model import delivered


def _frame(payload: dict) -> str:
    # orjson, as discord.py itself uses: the fake's JSON was a tenth of the benchmark's own CPU (issue 44)
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()


class Connection:
    def __init__(self, ws: web.WebSocketResponse, query: dict[str, str]) -> None:
        self.ws, self.query = ws, query
        self.deflate = zlib.compressobj() if query.get("compress") == "zlib-stream" else None
        self.session: Session | None = None
        self.queue: deque[str] = deque()
        self.wake = asyncio.Event()
        self.writer = asyncio.get_running_loop().create_task(self._write(), name="fake gateway writer")

    def send(self, payload: dict) -> None:
        self.send_raw(_frame(payload))

    def send_raw(self, raw: str) -> None:
        self.queue.append(raw)
        self.wake.set()

    async def _write(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.queue and not self.ws.closed:
                raw = self.queue.popleft()
                try:
                    if self.deflate is None:
                        await self.ws.send_str(raw)
                    else:
                        await self.ws.send_bytes(
                            self.deflate.compress(raw.encode()) + self.deflate.flush(zlib.Z_SYNC_FLUSH)
                        )
                except (ConnectionError, RuntimeError):
                    return  # the client went away mid-send; it will resume or identify again

    async def close(self, code: int, message: bytes = b"") -> None:
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.writer
        await self.ws.close(code=code, message=message)


class Session:
    def __init__(self, identify: dict, backlog: int) -> None:
        self.id = secrets.token_hex(16)
        self.identify = identify
        self.shard: tuple[int, int] = tuple(identify.get("shard") or (0, 1))  # type: ignore[assignment]
        self.intents = int(identify.get("intents") or 0)
        self.seq = 0
        self.backlog: deque[tuple[int, str]] = deque(maxlen=backlog)  # (seq, frame) replayed on RESUME
        self.conn: Connection | None = None

    def queue(self, event: str, data_json: str) -> None:
        """Number and send (or keep, while disconnected) one dispatch whose ``d`` is already JSON."""
        self.seq += 1
        raw = f'{{"op":0,"t":"{event}","s":{self.seq},"d":{data_json}}}'
        self.backlog.append((self.seq, raw))
        if self.conn is not None:
            self.conn.send_raw(raw)

    def serves(self, guild_id: int | None) -> bool:
        """Whether Discord sends this session the events of ``guild_id`` (None: a DM, shard 0's)."""
        shard, count = self.shard
        return shard == 0 if guild_id is None else (guild_id >> 22) % count == shard

    def resumable(self, seq: int) -> bool:
        """Whether every dispatch after ``seq`` is still kept."""
        return not self.backlog or self.backlog[0][0] <= seq + 1


class Gateway:
    """The websocket side of a :class:`~support.server.FakeDiscord`; events come from its model."""

    def __init__(self, fake: Any, heartbeat_interval_ms: int = 41250, backlog: int = 5000) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.backlog = backlog
        self.sessions: dict[str, Session] = {}
        self.connections: list[dict[str, str]] = []  # the query of every websocket connect
        self.received: list[dict] = []  # every payload a client sent
        self.ready_count = self.resume_count = 0
        self.shard_conflicts: list[tuple[int, int]] = []  # a shard identified while another session had it
        self.delivered_twice: list[tuple[str, int | None]] = []  # (event, guild) sent to two connected sessions
        self.delivered: dict[str, int] = {}  # session id -> INTERACTION_CREATEs it was sent
        self._open: set[Connection] = set()
        fake.listeners.append(self._on_model_event)

    def _on_model_event(self, event: str, data: dict) -> None:
        """Message events reach a session only with the GUILD_MESSAGES (DIRECT_MESSAGES in a DM) intent."""
        self._send(event, data, lambda s: delivered(s.intents, data, event))

    def _send(self, event: str, data: dict, wanted=lambda session: True) -> None:
        """To every session of the event's guild's shard (a disconnected one gets it on RESUME)."""
        guild = data.get("guild_id")
        guild_id = int(guild) if guild is not None else None
        sessions = [s for s in self.sessions.values() if s.serves(guild_id) and wanted(s)]
        if not sessions:
            return
        if sum(s.conn is not None for s in sessions) > 1:
            self.delivered_twice.append((event, guild_id))
        data_json = _frame(data)
        for session in sessions:
            session.queue(event, data_json)
            if event == "INTERACTION_CREATE":
                self.delivered[session.id] = self.delivered.get(session.id, 0) + 1

    def serving(self, guild_id: int | None) -> bool:
        """Whether a connected session has the guild's shard (else its interactions fail)."""
        return any(s.conn is not None and s.serves(guild_id) for s in self.sessions.values())

    def live(self) -> bool:
        return any(s.conn is not None for s in self.sessions.values())

    async def dispatch(self, event: str, data: dict) -> None:
        """Send a DISPATCH to every session of its guild's shard; one that is reconnecting gets it on RESUME."""
        self._send(event, data)

    async def reconnect(self) -> None:
        """Ask every client to reconnect (op 7); discord.py then RESUMEs."""
        for conn in list(self._open):
            conn.send({"op": 7, "d": None, "s": None, "t": None})

    async def close(self) -> None:
        for conn in list(self._open):
            await conn.close(code=1001, message=b"fake discord shutting down")

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, compress=False)
        await ws.prepare(request)
        conn = Connection(ws, dict(request.query))
        self._open.add(conn)
        self.connections.append(conn.query)
        try:
            conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    payload = orjson.loads(msg.data)
                    self.received.append(payload)
                    await self._on_op(conn, payload.get("op"), payload.get("d") or {})
                    self.fake.notify()
        finally:
            self._open.discard(conn)
            conn.writer.cancel()
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self.fake.notify()
        return ws

    def _authorized(self, token: str | None) -> bool:
        return self.fake.token is None or token == self.fake.token

    async def _on_op(self, conn: Connection, op: int | None, d: dict) -> None:
        if op == 1:  # HEARTBEAT
            conn.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:  # IDENTIFY
            if not self._authorized(d.get("token")):
                await conn.close(code=4004, message=b"Authentication failed.")
                return
            session = Session(d, self.backlog)
            if any(s.conn is not None and s.shard == session.shard for s in self.sessions.values()):
                self.shard_conflicts.append(session.shard)
            self.sessions[session.id] = conn.session = session
            session.conn = conn
            guilds = [g for g in self.fake.guild_ids if session.serves(g)]
            session.queue("READY", _frame(payloads.ready(self.fake, session.id, list(session.shard), guilds)))
            for guild_id in guilds:
                session.queue("GUILD_CREATE", _frame(payloads.guild(self.fake, guild_id=guild_id)))
            self.ready_count += 1
        elif op == 6:  # RESUME
            session = self.sessions.get(d.get("session_id"))
            seq = int(d.get("seq") or 0)
            if session is None or not self._authorized(d.get("token")) or not session.resumable(seq):
                conn.send({"op": 9, "d": False, "s": None, "t": None})
                return
            if session.conn is not None and session.conn is not conn:
                await session.conn.close(code=4000)
            session.conn, conn.session = conn, session
            for missed_seq, raw in session.backlog:
                if missed_seq > seq:
                    conn.send_raw(raw)
            session.queue("RESUMED", "{}")
            self.resume_count += 1
        # op 3 (presence), 4 (voice), 8 (member requests): recorded in ``received``, not answered
