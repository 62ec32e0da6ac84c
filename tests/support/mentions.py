"""Whom a message notifies: its content's mentions filtered by its ``allowed_mentions``, by Discord's rules.

https://discord.com/developers/docs/resources/message#allowed-mentions-object:

* without ``allowed_mentions`` (the key absent) every mention in the content is parsed: users, roles,
  ``@everyone`` and ``@here``;
* with it, a user mention ``<@id>``/``<@!id>`` pings when ``"users"`` is in ``parse`` or the id is in
  ``users``; a role mention ``<@&id>`` when ``"roles"`` is in ``parse`` or the id is in ``roles``;
  ``@everyone``/``@here`` only with ``"everyone"`` in ``parse`` (``{"parse": []}`` pings nobody);
* ids listed but not mentioned in the content ping nobody ("always validate against message content");
* a reply pings the replied-to author when ``replied_user`` is true, or when ``allowed_mentions`` is absent;
* only the content counts (mentions in embeds never ping), and the author never pings themself.

``@here`` is taken as ``@everyone``: the fake has no presence, so every member counts as online.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
EVERYONE_MENTION = re.compile(r"@(?:everyone|here)\b")
ALL_TYPES = ("users", "roles", "everyone")


def notified(
    content: str, allowed: dict | None, audience: Iterable[int], *, roles: Mapping[int, Iterable[int]] | None = None,
    author_id: int | None = None, replied_to: int | None = None,
) -> set[int]:  # fmt: skip
    """Users among ``audience`` (who can see the message) that its mentions notify; ``roles`` maps a role
    id to its members, ``replied_to`` is the author of the message this one replies to."""
    audience = {int(u) for u in audience}
    parse = set(ALL_TYPES if allowed is None else allowed.get("parse") or ())
    users = _ids((allowed or {}).get("users"))
    listed_roles = _ids((allowed or {}).get("roles"))
    pinged = {int(u) for u in USER_MENTION.findall(content) if "users" in parse or int(u) in users}
    for role in ROLE_MENTION.findall(content):
        if "roles" in parse or int(role) in listed_roles:
            pinged.update(int(u) for u in (roles or {}).get(int(role), ()))
    if "everyone" in parse and EVERYONE_MENTION.search(content):
        pinged |= audience
    if replied_to is not None and (allowed is None or allowed.get("replied_user")):
        pinged.add(int(replied_to))
    return (pinged & audience) - {author_id}


def _ids(values: Iterable | None) -> set[int]:
    """Snowflakes as Discord reads them: discord.py sends ints, the docs strings."""
    return {int(v) for v in values or ()}
