"""JSON shapes Discord sends: users, members, the guild and its channels, the application, READY, interactions.

discord.py parses every one of these itself (GUILD_CREATE, INTERACTION_CREATE, message objects), so they
carry the fields its parsers read; nothing here decides behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord

ALL_PERMISSIONS = str(discord.Permissions.all().value)
# GATEWAY_PRESENCE_LIMITED | GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED
APPLICATION_FLAGS = (1 << 13) | (1 << 15) | (1 << 19)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class FakeUser:
    """A guild member who can click things. ``permissions`` overrides the default member permissions."""

    id: int
    name: str = ""
    admin: bool = False
    permissions: int | None = None
    bot: bool = False
    locale: str | None = None  # their Discord client's language (None: the fake's default)

    def __post_init__(self) -> None:
        self.name = self.name or f"user{self.id}"

    def resolved_permissions(self) -> int:
        if self.permissions is not None:
            return self.permissions
        if self.admin:
            return discord.Permissions.all().value
        return (
            discord.Permissions.text() | discord.Permissions(view_channel=True, use_application_commands=True)
        ).value

    def user_payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_payload(self, *, with_permissions: bool = False) -> dict:
        payload = {
            "user": self.user_payload(),
            "nick": None,
            "avatar": None,
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_permissions:
            payload["permissions"] = str(self.resolved_permissions())
        return payload


def channel(fake: Any, channel_id: int | None = None) -> dict:
    """A guild text channel (default: the first); the others are named augsburg-2, augsburg-3, ..."""
    channel_id = fake.channel_id if channel_id is None else channel_id
    position = fake.channel_position(channel_id)
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(fake.guild_of(channel_id)),
        "name": "augsburg" if position == 0 else f"augsburg-{position + 1}",
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }


def dm_channel(channel_id: int, recipient: FakeUser) -> dict:
    """A DM channel (type 1) as Discord returns it to a bot: no guild, the other user in ``recipients``."""
    return {
        "id": str(channel_id),
        "type": 1,
        "last_message_id": None,
        "flags": 0,
        "recipients": [recipient.user_payload()],
    }


def everyone_role(fake: Any, guild_id: int | None = None) -> dict:
    perms = discord.Permissions.text() | discord.Permissions(view_channel=True, use_application_commands=True)
    return {
        "id": str(guild_id or fake.guild_id),
        "name": "@everyone",
        "permissions": str(perms.value),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def guild(fake: Any, *, full: bool = True, guild_id: int | None = None) -> dict:
    """GUILD_CREATE's guild (``full``) or the REST guild object (no members, channels, ...), of ``guild_id``
    (default: the first guild). Every user is a member of every guild."""
    guild_id = guild_id or fake.guild_id
    channels = fake.channels_of(guild_id)
    members = [u.member_payload() for u in [fake.bot_user, *fake.users.values()]]
    payload = {
        "id": str(guild_id),
        "name": "Fake Guild",
        "icon": None,
        "owner_id": str(next(iter(fake.users), fake.bot_user.id)),
        "roles": [everyone_role(fake, guild_id)],
        "emojis": [],
        "stickers": [],
        "features": [],
        "preferred_locale": fake.locale,
        "premium_tier": 0,
        "system_channel_id": str(channels[0]),
        "system_channel_flags": 0,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
    }
    if full:  # member_count == len(members): discord.py sees the guild as chunked
        payload.update(
            channels=[channel(fake, channel_id) for channel_id in channels],
            threads=fake.active_threads(guild_id),
            members=members,
            member_count=len(members),
            voice_states=[],
            presences=[],
            joined_at=now_iso(),
            large=False,
            unavailable=False,
        )
    return payload


def application(fake: Any) -> dict:
    return {
        "id": str(fake.application_id),
        "name": fake.bot_user.name,
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": next(iter(fake.users.values()), fake.bot_user).user_payload(),
        "flags": APPLICATION_FLAGS,
        "bot": fake.bot_user.user_payload(),
    }


def ready(fake: Any, session_id: str, shard: list[int], guilds: list[int]) -> dict:
    return {
        "v": 10,
        "user": {**fake.bot_user.user_payload(), "verified": True, "mfa_enabled": False, "flags": 0},
        "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in guilds],
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": fake.gateway_url,
        "shard": shard,
        "application": {"id": str(fake.application_id), "flags": APPLICATION_FLAGS},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "user_settings": {},
    }


def interaction(fake: Any, iid: int, user: FakeUser, itype: int, data: dict, message: dict | None, place: dict) -> dict:
    """INTERACTION_CREATE's ``d`` in ``place``, a guild text channel or a DM channel with ``user``: then
    there is no guild, ``user`` replaces ``member``, the context is 1 (BOT_DM) and the guild install's
    authorizing owner is "0", as Discord documents for a DM with the app's bot user. ``message`` is
    copied one level deep: the model replaces a message's keys, never changes them in place."""
    guild_id = place.get("guild_id") or str(fake.guild_id)
    payload: dict[str, Any] = {
        "id": str(iid),
        "application_id": str(fake.application_id),
        "type": itype,
        "token": f"fake-token-{fake.key}-{iid}",
        "version": 1,
        "guild_id": guild_id,
        "guild": {"id": guild_id, "locale": fake.locale, "features": []},
        "channel_id": place["id"],
        "channel": place,
        "member": user.member_payload(with_permissions=True),
        "app_permissions": str(fake.bot_permissions(int(place["id"])).value),
        "locale": user.locale or fake.locale,
        "guild_locale": fake.locale,
        "entitlements": [],
        "authorizing_integration_owners": {"0": guild_id},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
        "data": data,
    }
    if message is not None:
        payload["message"] = dict(message)
    if place["type"] == 1:
        for key in ("guild_id", "guild", "member", "guild_locale"):
            del payload[key]
        payload.update(user=user.user_payload(), context=1, authorizing_integration_owners={"0": "0"})
    return payload
