"""The REST routes a bot uses outside interactions: login, command sync, the guild, messages in its text
channels and in DM channels (``dms`` opens those).

Every handler takes the fake and the :class:`RecordedRequest` and returns the JSON Discord would
(``None`` for 204), or raises :class:`DiscordError`. Routes are discord.py's templates, so a test names
them as ``requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}")``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from . import payloads
from .command_limits import check_commands
from .errors import DiscordError
from .records import RecordedRequest, StoredMessage
from .validation import check_message

Handler = Callable[[Any, RecordedRequest], Any]
ROUTES: list[tuple[str, str, Handler]] = []  # literal templates (@me, @original) before {param} ones


def route(method: str, template: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        ROUTES.append((method, template, handler))
        return handler

    return register


def compile_routes() -> list[tuple[str, str, re.Pattern[str], Handler]]:
    """(method, template, regex, handler), literal segments first so ``@original`` beats ``{message_id}``."""
    table = []
    for method, template, handler in sorted(ROUTES, key=lambda r: r[1].count("{")):
        pattern = re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/]+)", re.escape(template))
        table.append((method, template, re.compile(pattern), handler))
    return table


def truthy(value: str | None) -> bool:
    return str(value).lower() in ("1", "true")


def checked(req: RecordedRequest, *, creating: bool, msg: StoredMessage | None = None) -> dict:
    """The message body of a create or edit request (of ``msg``), once Discord's limits accept it."""
    body = req.json or {}
    check_message(body, creating=creating, files=req.files, existing=attachment_ids(msg))
    return body


def attachment_ids(msg: StoredMessage | None) -> set[int]:
    return set() if msg is None else {int(a["id"]) for a in msg.attachments}


# ------------------------------------------------------------------ login and gateway discovery


@route("GET", "/users/@me")
def me(fake: Any, req: RecordedRequest) -> dict:
    return {**fake.bot_user.user_payload(), "verified": True, "mfa_enabled": False, "flags": 0}


@route("GET", "/oauth2/applications/@me")
def application(fake: Any, req: RecordedRequest) -> dict:
    return payloads.application(fake)


@route("GET", "/gateway")
def gateway(fake: Any, req: RecordedRequest) -> dict:
    return {"url": fake.gateway_url}


@route("GET", "/gateway/bot")
def gateway_bot(fake: Any, req: RecordedRequest) -> dict:
    limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
    return {"url": fake.gateway_url, "shards": 1, "session_start_limit": limit}


# ------------------------------------------------------------------ application commands


def _scope(fake: Any, req: RecordedRequest) -> int | None:
    if int(req.params["application_id"]) != fake.application_id:
        raise DiscordError(403, 50001, "Missing Access")
    if "guild_id" not in req.params:
        return None
    _guild(fake, req)
    return int(req.params["guild_id"])


@route("PUT", "/applications/{application_id}/commands")
@route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
def sync_commands(fake: Any, req: RecordedRequest) -> list[dict]:
    scope = _scope(fake, req)
    check_commands(req.json)
    known = {(c["name"], c["type"]): c["id"] for c in fake.commands.get(scope, [])}
    synced = []
    for command in req.json:
        kind = int(command.get("type", 1))
        entry = {"description": "", "options": [], "default_member_permissions": None, "nsfw": False}
        entry.update(copy.deepcopy(command), type=kind, application_id=str(fake.application_id))
        entry.update(id=known.get((command["name"], kind)) or str(fake.next_id()), version=str(fake.next_id()))
        if scope is not None:
            entry["guild_id"] = str(scope)
        synced.append(entry)
    fake.commands[scope] = synced
    return synced


@route("GET", "/applications/{application_id}/commands")
@route("GET", "/applications/{application_id}/guilds/{guild_id}/commands")
def list_commands(fake: Any, req: RecordedRequest) -> list[dict]:
    return fake.commands.get(_scope(fake, req), [])


# ------------------------------------------------------------------ the guild


def _guild(fake: Any, req: RecordedRequest) -> None:
    if int(req.params["guild_id"]) not in fake.guild_ids:
        raise DiscordError(404, 10004, "Unknown Guild")


@route("GET", "/guilds/{guild_id}")
def get_guild(fake: Any, req: RecordedRequest) -> dict:
    _guild(fake, req)
    return payloads.guild(fake, full=False, guild_id=int(req.params["guild_id"]))


def _user(fake: Any, req: RecordedRequest, code: int, message: str) -> Any:
    user = {fake.bot_user.id: fake.bot_user, **fake.users}.get(int(req.params["user_id"]))
    if user is None:
        raise DiscordError(404, code, message)
    return user


@route("GET", "/guilds/{guild_id}/members/{user_id}")
def get_member(fake: Any, req: RecordedRequest) -> dict:
    _guild(fake, req)
    return _user(fake, req, 10007, "Unknown Member").member_payload()


@route("GET", "/users/{user_id}")
def get_user(fake: Any, req: RecordedRequest) -> dict:
    return _user(fake, req, 10013, "Unknown User").user_payload()


# ------------------------------------------------------------------ channels (the guild's, DMs) and their messages


def _channel(fake: Any, req: RecordedRequest) -> int:
    """The id of one of the guild's text channels, of a thread, or of an opened DM channel."""
    channel_id = int(req.params["channel_id"])
    known = fake.is_text_channel(channel_id) or fake.is_thread(channel_id) or fake.dm_recipient(channel_id)
    if not known:
        raise DiscordError(404, 10003, "Unknown Channel")
    return channel_id


def _channel_message(fake: Any, req: RecordedRequest) -> StoredMessage:
    """A live public message of that channel; ephemeral ones exist only for their interaction's webhook,
    as on Discord."""
    channel_id = _channel(fake, req)
    msg = fake.messages.get(int(req.params["message_id"]))
    if msg is None or msg.deleted or msg.ephemeral or msg.channel_id != channel_id:
        raise DiscordError(404, 10008, "Unknown Message")
    return msg


@route("GET", "/channels/{channel_id}")
def get_channel(fake: Any, req: RecordedRequest) -> dict:
    return fake.channel_payload(_channel(fake, req))


@route("POST", "/channels/{channel_id}/messages")
def send_message(fake: Any, req: RecordedRequest) -> dict:
    channel_id = _channel(fake, req)
    body = checked(req, creating=True)
    fake.check_dm_send(channel_id)
    fake.check_send(channel_id)
    nonce = body.get("nonce") if body.get("enforce_nonce") else None
    earlier = fake.nonced_message(channel_id, nonce)
    if earlier is not None:  # Discord: the same nonce within a few minutes returns that message, no new one
        return earlier.data
    msg = fake.new_message(body, channel_id=channel_id, files=req.files)
    fake.remember_nonce(channel_id, nonce, msg)
    fake.record("dm_message" if msg.in_dm else "channel_message", msg, body)
    return msg.data


@route("GET", "/channels/{channel_id}/messages/{message_id}")
def get_message(fake: Any, req: RecordedRequest) -> dict:
    return _channel_message(fake, req).data


@route("PATCH", "/channels/{channel_id}/messages/{message_id}")
def edit_message(fake: Any, req: RecordedRequest) -> dict:
    msg = _channel_message(fake, req)
    body = checked(req, creating=False, msg=msg)
    fake.check_send(msg.channel_id)
    fake.record("message_edit", fake.edit_message(msg, body, req.files), body)
    return msg.data


@route("DELETE", "/channels/{channel_id}/messages/{message_id}")
def delete_message(fake: Any, req: RecordedRequest) -> None:
    msg = _channel_message(fake, req)
    fake.delete_message(msg)
    fake.record("message_delete", msg, None)
