"""Input the bot did not offer: command options its commands do not take, components it does not know.

Discord's client only sends what the synced commands and a message's components allow, but anyone can
send other interaction data, and a client can still show what an earlier version of the bot offered.
discord.py trusts the data (choices and ranges are Discord's to enforce), so the options are checked
here before a command runs; whatever is refused gets a polite private answer and changes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType as Option

from ..wording import People, notices, words
from . import answers
from .payload import payload
from .record_widgets import ALL_ITEMS

log = logging.getLogger(__name__)
NOBODY = People(name=str)
SUBCOMMANDS = (Option.subcommand.value, Option.subcommand_group.value)
TYPES: dict[Option, type | tuple[type, ...]] = {Option.string: str, Option.integer: int, Option.number: (int, float),
                                                Option.boolean: bool}
ANYWHERE = frozenset({"me"})  # the subcommand groups that work in a direct message with the bot too
# Raised before a command's callback when what arrived is not what the command offers.
REFUSED = (app_commands.CheckFailure, app_commands.CommandNotFound, app_commands.CommandSignatureMismatch,
           app_commands.TransformerError)


class BadInput(app_commands.CheckFailure):
    """A command's options are not ones it offers, or it came from outside a server."""

    def __init__(self, code: str, why: str):
        super().__init__(why)
        self.code = code


class CheckedTree(app_commands.CommandTree):
    """discord.py's command tree, with every command and autocomplete checked before it runs: refused
    ones are answered here (a polite line, or no suggestions) and go no further. Nothing runs in a process
    that no longer holds the database (the client's `serving`: another process answers)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        serving = getattr(self.client, "serving", None)
        if serving is not None and not await serving(interaction):
            return False
        try:
            check_command(interaction)
        except BadInput as refused:
            await command_refused(interaction, refused)
            return False
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        """A command that failed: forged or outdated input gets a polite line; an error of ours is logged and
        the person gets a short apology, never a traceback."""
        if await command_refused(interaction, error):
            return
        log.error("command error in channel %s", interaction.channel_id, exc_info=error)
        interaction.extras["failed"] = True  # for whoever counts them (the operator's metrics)
        await answers.send(interaction, notices.sorry(words(interaction.locale)))


def check_command(interaction: discord.Interaction) -> None:
    """Raise BadInput unless the command came with exactly the options it offers (while typing, an
    autocomplete may lack required ones, and only an option that autocompletes may be focused), from a server
    unless it is one of `/augsburg me …` (a person's own: their games in every server, their hours)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        raise BadInput("unknown_input", "no such command")
    if interaction.guild_id is None and (command.parent is None or command.parent.name not in ANYWHERE):
        raise BadInput("server_only", "outside a server")
    typing = interaction.type == discord.InteractionType.autocomplete
    options = _options(payload(interaction))
    given = {o.get("name"): o.get("value") for o in options}  # names and values as sent, checked below
    focused: set[Any] = {o.get("name") for o in options if o.get("focused")}  # (known names: see `unknown`)
    params = {p.display_name: p for p in command.parameters}
    unknown = set(given) - set(params)
    if unknown:
        raise BadInput("unknown_input", f"unknown options {sorted(map(str, unknown))}")
    if typing and (len(focused) != 1 or not params[next(iter(focused))].autocomplete):
        raise BadInput("unknown_input", f"no suggestions for {sorted(map(str, focused))}")
    for name, param in params.items():
        if name not in given:
            if param.required and not typing:
                raise BadInput("unknown_input", f"{name} missing")
        elif name not in focused and not _fits(param, given[name]):  # a focused value is text being typed
            raise BadInput("unknown_input", f"{name}={given[name]!r} not offered")


def _options(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The options of the subcommand invoked (as sent: JSON whose values nothing has checked yet)."""
    options: list[dict[str, Any]] = data.get("options") or []
    while options and options[0].get("type") in SUBCOMMANDS:
        options = options[0].get("options") or []
    return options


def _fits(param: app_commands.Parameter, value: object) -> bool:
    kind = TYPES.get(param.type)
    if kind is None:
        return True  # users, channels...: none of ours; discord.py resolves them
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        return False
    if param.choices and value not in [c.value for c in param.choices]:
        return False
    size = len(value) if isinstance(value, str) else value
    assert isinstance(size, (int, float)), "a value of the kinds above: text (its length), or a number"
    low, high = param.min_value, param.max_value
    return (low is None or size >= low) and (high is None or size <= high)


async def command_refused(interaction: discord.Interaction, error: Exception) -> bool:
    """Answer a command refused before it ran (forged or outdated input); False if the error is ours."""
    if not isinstance(error, REFUSED):
        return False
    log.warning("refused a command in channel %s from %s: %s", interaction.channel_id, interaction.user.id,
                str(error))  # (its text: a log record kept by a handler would keep its frames alive)
    if interaction.type == discord.InteractionType.autocomplete:
        if not interaction.response.is_done():
            await answers.suggest(interaction, [])
        return True
    code = error.code if isinstance(error, BadInput) else "unknown_input"
    await answers.send(interaction, notices.notice(words(interaction.locale), code, {}, NOBODY))
    answers.let_go(interaction)
    return True


def unrouted(interaction: discord.Interaction) -> bool:
    """A component or modal interaction nothing in the bot will answer.

    discord.py routes a component to a DynamicItem only if its custom_id matches the item's template and
    the message carries a component of that type with that custom_id; the bot keeps no other views."""
    if interaction.type == discord.InteractionType.modal_submit:
        return True  # the bot shows no modals
    if interaction.type != discord.InteractionType.component:
        return False
    data = payload(interaction)
    custom_id, kind = str(data.get("custom_id", "")), data.get("component_type")
    if not any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in ALL_ITEMS):
        return True
    message = interaction.message
    return message is None or not any(
        getattr(c, "custom_id", None) == custom_id and c.type.value == kind for c in _components(message))


def _components(message: discord.Message) -> Iterator[discord.Component]:
    for row in message.components:
        yield from getattr(row, "children", [row])


async def answer_unrouted(interaction: discord.Interaction) -> None:
    log.info("unknown component %r in channel %s", payload(interaction).get("custom_id"), interaction.channel_id)
    if not interaction.response.is_done():
        await answers.send(interaction, notices.notice(words(interaction.locale), "not_ours", {}, NOBODY))
    answers.let_go(interaction)
