"""A bare bot for loading the fake: raw aiohttp, no discord.py, so one core can keep the fake busy.

Run as ``python -m support.load_bot`` with the fake's ``env()`` and LOAD_EDITS_PER_SECOND. It identifies
over the gateway (zlib-stream, as discord.py asks), answers every INTERACTION_CREATE at once with an
update of the clicked message (callback type 7, a new button each time, so the fake validates and
stores it), and meanwhile edits the messages of the channels it learned from GUILD_CREATE's first
message events, round robin, at the given rate, sleeping out a 429 as discord.py would.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import zlib

import aiohttp

ZLIB_SUFFIX = b"\x00\x00\xff\xff"


def _update(custom_id: str, n: int) -> dict:
    """A message about the size of a game table: an embed with fields, two rows of buttons, a select."""
    fields = [{"name": f"Seat {i}", "value": f"Player {i}: {'x' * 80}", "inline": True} for i in range(6)]
    embed = {"title": f"Round {n}", "description": "y" * 400, "fields": fields, "footer": {"text": "z" * 60}}
    buttons = [{"type": 2, "style": 1, "label": f"Do {i}", "custom_id": f"load:do:{i}"} for i in range(4)]
    buttons.append({"type": 2, "style": 2, "label": f"Bump {n}", "custom_id": custom_id})
    options = [{"label": f"Card {i}", "value": f"c{i}", "description": "w" * 40} for i in range(10)]
    select = {"type": 3, "custom_id": "load:pick", "options": options, "placeholder": "Pick a card"}
    rows = [{"type": 1, "components": buttons[:3]}, {"type": 1, "components": buttons[3:]}]
    rows.append({"type": 1, "components": [select]})
    return {"type": 7, "data": {"content": f"count={n}", "embeds": [embed], "components": rows}}


class LoadBot:
    def __init__(self, api: str, gateway: str, token: str, edits_per_second: float) -> None:
        self.api, self.gateway, self.edits_per_second = api, gateway, edits_per_second
        self.headers = {"Authorization": f"Bot {token}"}
        self.token = token
        self.messages: dict[str, str] = {}  # message id -> channel id, from MESSAGE_CREATE
        self.counter = itertools.count(1)

    async def run(self) -> None:
        async with aiohttp.ClientSession(headers=self.headers) as http:
            self.http = http
            editor = asyncio.create_task(self.edit_forever())
            try:
                await self.listen()
            finally:
                editor.cancel()

    async def listen(self) -> None:
        inflate, buffer = zlib.decompressobj(), bytearray()
        async with self.http.ws_connect(f"{self.gateway}?v=10&encoding=json&compress=zlib-stream") as ws:
            async for frame in ws:
                buffer.extend(frame.data)
                if not buffer.endswith(ZLIB_SUFFIX):
                    continue
                msg = json.loads(inflate.decompress(bytes(buffer)))
                buffer.clear()
                if msg["op"] == 10:
                    identify = {"token": self.token, "intents": 1 << 9, "properties": {}}
                    await ws.send_json({"op": 2, "d": identify})
                elif msg["t"] == "INTERACTION_CREATE":
                    asyncio.create_task(self.answer(msg["d"]))
                elif msg["t"] == "MESSAGE_CREATE":
                    self.messages[msg["d"]["id"]] = msg["d"]["channel_id"]

    async def answer(self, interaction: dict) -> None:
        custom_id = interaction["data"].get("custom_id", "load:btn")
        url = f"{self.api}/interactions/{interaction['id']}/{interaction['token']}/callback"
        async with self.http.post(url, json=_update(custom_id, next(self.counter))) as response:
            await response.read()

    async def edit_forever(self) -> None:
        """Edit the known messages round robin; a per-channel bucket is never met when there are more
        channels than edits in 5 s, but the global limit is, and is slept out."""
        loop = asyncio.get_running_loop()
        start, sent = loop.time(), 0
        while True:
            if not self.messages or not self.edits_per_second:
                await asyncio.sleep(0.05)
                start, sent = loop.time(), 0
                continue
            for message_id, channel_id in list(self.messages.items()):
                delay = start + sent / self.edits_per_second - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                sent += 1
                asyncio.create_task(self.edit(channel_id, message_id))

    async def edit(self, channel_id: str, message_id: str) -> None:
        url = f"{self.api}/channels/{channel_id}/messages/{message_id}"
        body = {"content": f"edit {next(self.counter)}"}
        for _ in range(5):
            async with self.http.patch(url, json=body) as response:
                data = await response.json()
                if response.status != 429:
                    return
            await asyncio.sleep(data["retry_after"])


def main() -> None:
    env = os.environ
    bot = LoadBot(
        env["DISCORD_API_BASE"], env["DISCORD_GATEWAY_URL"], env["DISCORD_TOKEN"],
        float(env.get("LOAD_EDITS_PER_SECOND", "0")),
    )  # fmt: skip
    asyncio.run(bot.run())


if __name__ == "__main__":
    main()
