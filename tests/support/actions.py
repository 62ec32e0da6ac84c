"""What a user can do in Discord's client, built into INTERACTION_CREATE payloads the way the client would.

Slash commands are built from the command JSON the bot synced (as Discord's client does), with the
client's own checks (required options, types, ranges, choices), in any of the guild's text channels;
clicks and selects only on components a user can see and use, and they come from the message's channel
(a DM's too).
Both doors share this; each supplies ``send_interaction`` (how the payload reaches the bot and how long to
wait).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .errors import HarnessError
from .records import Output, StoredMessage
from .results import Result
from .validation import BUTTON, SELECTS, STRING_SELECT

COMMAND, COMPONENT, AUTOCOMPLETE = 2, 3, 4
SUBCOMMANDS = (1, 2)


class Actions:
    """Mixin for a fake Discord (a :class:`~support.model.DiscordModel` with ``send_interaction``)."""

    last_result: Result | None = None

    async def send_interaction(self, payload: dict, *, action: str = "raw", settle: bool = True) -> Result:
        raise NotImplementedError

    async def slash(
        self, user_id: int, command: str, /, *, settle: bool = True, channel_id: int | None = None, **options: Any
    ) -> Result:
        """Run ``/command`` (e.g. ``"augsburg new"``) as ``user_id`` with typed ``options``, in the guild
        text channel ``channel_id`` (default: the first)."""
        data = self._command_data(command, options)
        payload = self.interaction_payload(user_id, COMMAND, data, channel_id=channel_id)
        self._offered_here(command, payload)
        return await self.send_interaction(payload, action=f"/{command}", settle=settle)

    def _offered_here(self, command: str, payload: dict) -> None:
        """Discord's client offers a command only where its `contexts` allow it (0: a server, 1: a DM with the
        bot; none given: a server and DMs alike)."""
        root, _, _ = self._command(command)
        contexts = root.get("contexts")
        if contexts is not None and payload["context"] not in contexts:
            raise HarnessError(f"/{command} is not offered in context {payload['context']}: only {contexts}")

    async def autocomplete(
        self, user_id: int, command: str, focused: str, value: Any = "", /, *, channel_id: int | None = None,
        **options: Any,
    ) -> list[dict] | None:  # fmt: skip
        """Type ``value`` into option ``focused``; the choices the bot offered (None if it did not answer)."""
        data = self._command_data(command, options, focused=focused, focused_value=value)
        payload = self.interaction_payload(user_id, AUTOCOMPLETE, data, channel_id=channel_id)
        self._offered_here(command, payload)
        self.last_result = await self.send_interaction(payload, action=f"autocomplete /{command} {focused}")
        return self.last_result.choices

    async def click(
        self, user_id: int, message: Any, custom_id: str | None = None, *, label: str | None = None,
        settle: bool = True,
    ) -> Result:  # fmt: skip
        """Click the button ``custom_id`` (or the one labelled ``label``) on a message the user sees."""
        msg = self._target(user_id, message, custom_id, label)
        comp = self._usable(msg, custom_id, label, {BUTTON})
        if "custom_id" not in comp:
            raise HarnessError("link and premium buttons create no interaction")
        data = {"custom_id": comp["custom_id"], "component_type": BUTTON}
        payload = self.interaction_payload(user_id, COMPONENT, data, msg)
        return await self.send_interaction(payload, action=f"click {comp['custom_id']}", settle=settle)

    async def select(
        self, user_id: int, message: Any, custom_id: str, values: Iterable[Any], *, settle: bool = True
    ) -> Result:
        """Choose ``values`` in the string select ``custom_id`` on a message the user sees."""
        msg = self._target(user_id, message, custom_id, None)
        comp = self._usable(msg, custom_id, None, SELECTS)
        values = [str(v) for v in values]
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not low <= len(values) <= high:
            raise HarnessError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
        if comp["type"] != STRING_SELECT:
            raise HarnessError("the fake supports string selects only")
        offered = [o["value"] for o in comp.get("options", [])]
        if any(v not in offered for v in values):
            raise HarnessError(f"select {custom_id!r}: {values} not among options {offered}")
        data = {"custom_id": custom_id, "component_type": comp["type"], "values": values}
        payload = self.interaction_payload(user_id, COMPONENT, data, msg)
        return await self.send_interaction(payload, action=f"select {custom_id}={values}", settle=settle)

    # ------------------------------------------------------------------ components

    def _target(self, user_id: int, message: Any, custom_id: str | None, label: str | None) -> StoredMessage:
        if isinstance(message, Result):
            message = message.message_with(custom_id, label=label)
        mid = message.message_id if isinstance(message, Output) else getattr(message, "id", message)
        msg = self.message(int(mid))
        if msg.deleted:
            raise HarnessError(f"message {msg.id} was deleted")
        if msg.owner_id is not None and msg.owner_id != user_id:
            where = "ephemeral for" if msg.ephemeral else "in the DMs of"
            raise HarnessError(f"message {msg.id} is {where} user {msg.owner_id}; user {user_id} cannot see it")
        if msg.loading:
            raise HarnessError(f"message {msg.id} is still a 'thinking' placeholder")
        return msg

    @staticmethod
    def _usable(msg: StoredMessage, custom_id: str | None, label: str | None, types: set[int]) -> dict:
        comp = msg.component(custom_id, label=label)
        if comp is None or comp.get("type") not in types:
            raise HarnessError(f"message {msg.id} has no component {custom_id=} {label=}; it has {msg.custom_ids()}")
        if comp.get("disabled"):
            raise HarnessError(f"component {comp.get('custom_id')!r} on message {msg.id} is disabled")
        return comp

    # ------------------------------------------------------------------ slash commands

    def _command(self, path: str) -> tuple[dict, list[dict], int | None]:
        """Resolve "group sub" in the synced commands: (root JSON, chain of subcommand JSON, scope)."""
        name, *subs = path.split()
        for scope in (self.guild_id, None):
            root = next((c for c in self.commands.get(scope, []) if c["name"] == name and c["type"] == 1), None)
            if root is not None:
                break
        else:
            synced = sorted(c["name"] for cmds in self.commands.values() for c in cmds)
            raise HarnessError(f"no slash command {name!r}; synced: {synced}")
        node, chain = root, []
        for sub in subs:
            node = next((o for o in node.get("options", []) if o["name"] == sub and o["type"] in SUBCOMMANDS), None)
            if node is None:
                raise HarnessError(f"{path!r}: no subcommand {sub!r}")
            chain.append(node)
        if any(o["type"] in SUBCOMMANDS for o in node.get("options", [])):
            raise HarnessError(f"{path!r} is a group; name a subcommand")
        return root, chain, scope

    def _command_data(self, path: str, given: dict, focused: str | None = None, focused_value: Any = "") -> dict:
        root, chain, scope = self._command(path)
        specs = (chain[-1] if chain else root).get("options", [])
        names = [s["name"] for s in specs]
        for name in [*given, *([focused] if focused else [])]:
            if name not in names:
                raise HarnessError(f"unknown option {name!r}; options are {names}")
        leaf: list[dict] = []
        for spec in specs:  # in the command's declared order, as the client sends them
            name, kind = spec["name"], spec["type"]
            if name == focused:
                leaf.append({"name": name, "type": kind, "value": str(focused_value), "focused": True})
            elif name in given:
                leaf.append({"name": name, "type": kind, "value": _typed(spec, given[name])})
            elif spec.get("required") and focused is None:
                raise HarnessError(f"{path!r}: required option {name!r} missing")
        for sub in reversed(chain):
            leaf = [{"name": sub["name"], "type": sub["type"], "options": leaf}]
        data = {"id": root["id"], "name": root["name"], "type": 1, "options": leaf}
        return data if scope is None else {**data, "guild_id": str(scope)}


def _typed(spec: dict, value: Any) -> Any:
    """An option value as the client would send it, refused where the client would refuse it."""
    kind, name = spec["type"], spec["name"]
    if kind == 3:
        value = str(value)
        if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
            raise HarnessError(f"option {name!r}: length {len(value)} outside the client's limits")
    elif kind == 4:
        if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
            raise HarnessError(f"option {name!r} needs an integer, got {value!r}")
        value = int(value)
    elif kind == 5:
        if not isinstance(value, bool):
            raise HarnessError(f"option {name!r} needs a bool, got {value!r}")
    elif kind == 10:
        value = float(value)
    else:
        raise HarnessError(f"option {name!r}: option type {kind} is not supported by the fake")
    low, high = spec.get("min_value"), spec.get("max_value")
    if kind in (4, 10) and ((low is not None and value < low) or (high is not None and value > high)):
        raise HarnessError(f"option {name!r}: {value} outside [{low}, {high}]")
    choices = [c["value"] for c in spec.get("choices") or []]
    if choices and value not in choices:
        raise HarnessError(f"option {name!r}: {value!r} is not one of {choices}")
    return value
