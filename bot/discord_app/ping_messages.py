"""A channel that stays clean: a ping's message goes once its job is done.

A "your move" ping, a reminder or a heads-up line is about people's decision now. Once none of them must
make it any more (they decided, the bot decided for them, the game ended), the message is deleted. Not
edited into a line that pings nobody: that would still leave a line per ping in the channel for good, and
an edit costs Discord's per-channel budget exactly what a deletion costs (create, edit and delete share
it). A deleted ping leaves the Mentions inbox too, which then lists only decisions still waiting.

Which messages are kept, and when their job is done, is the service's (service/pinged.py: the game's
message bookkeeping, so a restart forgets none); this module posts nothing and deletes them, each within
the channel's pace (pacing.py: deletions count): through the interaction's token while it lives, if the
ping went out as a follow-up (free of Discord's global limit), else as the bot's own channel message,
which the bot may always delete. The table's drawer sweeps them at the end of each round (drawer.py).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Collection

import discord

from storage import GameRecord

from ..service import GameService
from . import threads
from .pacing import Pacing
from .tokens import followup

log = logging.getLogger(__name__)
UNKNOWN_MESSAGE = 10008  # Discord's error code for a message that is gone (someone deleted it)


class PingMessages:
    def __init__(self, client: discord.Client, service: GameService, pacing: Pacing):
        self.client = client
        self.service = service
        self.pacing = pacing
        # Follow-ups by message id, in the order they were posted: the token of the interaction that posted it,
        # and until when it lives. Its text only (tokens.py), not the message parsed with everything it carries.
        self._tokens: OrderedDict[int, tuple[str, float]] = OrderedDict()

    def through_token(self, message: discord.WebhookMessage, token: str, expires: float) -> discord.WebhookMessage:
        """A public follow-up was posted through `token` (returned): until `expires` it can delete it."""
        # The expired are forgotten from the oldest on, up to the first still alive: tokens live 15 minutes
        # from their interaction, so nearly always in the order posted (one out of order is forgotten a little
        # later, and `_delete` checks the time anyway). Looking at them all, as before, was a scan of
        # thousands at every ping at 5,000 live games (issue 44).
        now = discord.utils.utcnow().timestamp()
        while self._tokens and next(iter(self._tokens.values()))[1] <= now:
            self._tokens.popitem(last=False)
        self._tokens[message.id] = (token, expires)
        return message

    async def posted(self, record: GameRecord, message: discord.Message | None, about: Collection[str]) -> None:
        """`message` (None: not posted) is about the decision `about` must make now: kept until it is made."""
        if message is not None and about:
            await self.service.pinged.posted(record, message.id, about)

    async def sweep(self, record: GameRecord) -> GameRecord:
        """Delete the game's messages whose job is done; the record with them forgotten. A failure (Discord
        down) raises, after forgetting those deleted already: the next round tries the others again."""
        done = self.service.pinged.done(record)
        gone: list[int] = []
        try:
            for message_id in done:
                await self._delete(record.channel_id, message_id)
                gone.append(message_id)
        finally:
            if gone:
                record = await self.service.pinged.forget(record, gone)
        return record

    async def _delete(self, channel_id: int, message_id: int) -> None:
        """One deletion, within the channel's pace; a message already gone (or one the bot may no longer
        delete: its channel's settings) needs nothing more."""
        token, expires = self._tokens.pop(message_id, (None, 0.0))
        try:
            if token is not None and discord.utils.utcnow().timestamp() < expires:
                await self.pacing.turn(channel_id, counted=False)  # the token's route: no global limit
                try:
                    await followup(self.client, token).delete_message(message_id)
                    return
                except discord.NotFound as exc:
                    if exc.code == UNKNOWN_MESSAGE:
                        return
                except discord.HTTPException:
                    pass  # the token no longer works: as a channel message
                await self.pacing.global_turn()
            else:
                await self.pacing.turn(channel_id)
            partial = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
            await threads.unarchiving(self.client, channel_id, partial.delete)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                raise  # its channel is gone: the drawer says so
        except discord.Forbidden as refused:
            log.warning("may not delete message %s in channel %s: %s", message_id, channel_id, refused.text)
