"""An interaction's token, kept alone: for 15 minutes it posts follow-ups in the channel, deletes them, and
edits the interaction's "@original" (a live panel). Kept as its text, not as the interaction's follow-up
webhook: a thousand channels' latest tokens and two thousand live panels would otherwise be several
thousand objects more for every garbage collection to walk (issue 44). The webhook is made when used."""

from __future__ import annotations

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from .people import NOBODY


def followup(client: discord.Client, token: str) -> discord.Webhook:
    """The follow-up webhook of one of this bot's interactions, from its token (as Interaction.followup
    makes it)."""
    assert client.application_id is not None, "a client that received an interaction knows its application"
    return discord.Webhook.from_state(data={"id": client.application_id, "type": 3, "token": token},
                                      state=client._connection)


async def edit_original(client: discord.Client, token: str, content: str, view: discord.ui.View | None,
                        embed: discord.Embed | None) -> None:
    """Edit an interaction's "@original" message from its token alone (what Interaction.edit_original_response
    does, without keeping the whole interaction for 15 minutes)."""
    hook = followup(client, token)
    with handle_message_parameters(content=content, view=view, embed=embed, allowed_mentions=NOBODY) as params:
        await async_context.get().edit_original_interaction_response(
            hook.id, token, session=hook.session, proxy=hook.proxy, proxy_auth=hook.proxy_auth,
            payload=params.payload, multipart=params.multipart, files=params.files)
