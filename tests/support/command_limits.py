"""Discord's documented limits on application commands (a bulk overwrite: what ``tree.sync()`` sends) and on
autocomplete answers. Discord refuses a registration that breaks any of them with one 400 / 50035 "Invalid
Form Body", and then registers none of the commands sent: so does the fake.

From Discord's reference (Application Commands) and its OpenAPI description (discord/discord-api-spec):

* names 1-32 characters (chat input: lowercase letters, digits, '-' or '_'), descriptions 1-100, in every
  locale; at most 25 options per command or subcommand, with distinct names;
* subcommand groups hold subcommands only, subcommands hold no subcommands, and a command's options are
  either all subcommands (and groups) or none; required options come before optional ones;
* INTEGER values (``min_value``, ``max_value``, choices) are integers within -(2^53-1)..2^53-1 (the spec's
  Int53Type); NUMBER values are numbers, held here to the same range (Discord documents NUMBER as "any
  double between -2^53 and 2^53": the fake keeps to the narrower); only those two types have bounds;
* STRING options alone have lengths: ``min_length`` 0-6000, ``max_length`` 1-6000; a minimum never exceeds
  its maximum;
* at most 25 choices (on STRING, INTEGER and NUMBER only, never with ``autocomplete``), each named 1-100
  characters; a string value holds at most 100;
* a command's names, descriptions and choice names and values come to at most 8000 characters, counting
  for each field its longest localisation (the default included).
"""

from __future__ import annotations

import re
from typing import Any

from .errors import invalid_form
from .validation import Problems, _count, _length, _raise

SUB_COMMAND, GROUP, STRING, INTEGER, NUMBER = 1, 2, 3, 4, 10
OPTION_TYPES = range(1, 12)  # SUB_COMMAND ... ATTACHMENT
NESTED = {SUB_COMMAND, GROUP}
BOUNDED = {INTEGER, NUMBER}  # the types with min_value / max_value
CHOOSABLE = {STRING, INTEGER, NUMBER}  # the types with choices or autocomplete
INT53 = 2**53 - 1  # the largest (and, negated, the smallest) INTEGER value Discord takes
MAX_LENGTH = 6000  # the largest min_length / max_length of a STRING option
COMMAND_SIZE = 8000
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
LOCALES = {  # Discord's locales (https://discord.com/developers/docs/reference#locales)
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"}


def check_autocomplete(data: dict, prefix: str = "data") -> None:
    """An APPLICATION_COMMAND_AUTOCOMPLETE_RESULT (callback type 8)."""
    out: Problems = []
    choices = data.get("choices")
    if choices is None:
        out.append((f"{prefix}.choices", "This field is required"))
    _choices(out, f"{prefix}.choices", choices or [], None)
    _raise(out)


def check_commands(commands: Any) -> None:
    """A bulk overwrite of application commands (what ``tree.sync()`` sends)."""
    if not isinstance(commands, list):
        raise invalid_form([("", "Expected a list of application commands.")])
    out: Problems = []
    _count(out, "", commands, 100)
    for i, command in enumerate(commands):
        chat_input = command.get("type", 1) == 1
        _named(out, str(i), command, chat_input=chat_input)
        _options(out, str(i), command.get("options") or [], None)
        size = _size(command)
        if size > COMMAND_SIZE:
            out.append((str(i), f"Command size exceeds {COMMAND_SIZE} characters (got {size})."))
    _raise(out)


def _named(out: Problems, path: str, node: dict, *, chat_input: bool) -> None:
    """A command's or option's name and description, in every locale."""
    names = {None: node.get("name") or "", **(node.get("name_localizations") or {})}
    descriptions = {None: node.get("description"), **(node.get("description_localizations") or {})}
    _locales(out, path, names, descriptions)
    for locale, name in names.items():
        where = f"{path}.name" if locale is None else f"{path}.name_localizations.{locale}"
        if chat_input and (not COMMAND_NAME.fullmatch(name or "") or name != name.lower()):
            out.append((where, f"Command name {name!r} must be 1-32 lowercase letters, digits, '-' or '_'."))
        elif not chat_input:
            _length(out, where, name, 32, lo=1)
    if chat_input:
        for locale, text in descriptions.items():
            where = f"{path}.description" if locale is None else f"{path}.description_localizations.{locale}"
            _length(out, where, text, 100, lo=1)


def _options(out: Problems, path: str, options: list[dict], parent: int | None) -> None:
    """The options of a command (``parent`` None), a subcommand group or a subcommand."""
    at = f"{path}.options"
    _count(out, at, options, 25)
    _unique_names(out, at, options)
    kinds = [option.get("type") for option in options]
    if parent is None and any(k in NESTED for k in kinds) and not all(k in NESTED for k in kinds):
        out.append((at, "Subcommands and subcommand groups cannot be mixed with other options."))
    optional = False
    for j, option in enumerate(options):
        kind, where = option.get("type"), f"{at}.{j}"
        _named(out, where, option, chat_input=True)
        if kind not in OPTION_TYPES:
            out.append((f"{where}.type", f"Value must be one of {list(OPTION_TYPES)} (got {kind!r})."))
        elif parent == GROUP and kind != SUB_COMMAND:
            out.append((f"{where}.type", "A subcommand group holds subcommands only."))
        elif parent == SUB_COMMAND and kind in NESTED:
            out.append((f"{where}.type", "A subcommand cannot hold subcommands or groups."))
        if kind in NESTED:
            _options(out, where, option.get("options") or [], kind)
            continue
        if option.get("required") and optional:
            out.append((f"{where}.required", "Required options must be placed before optional ones."))
        optional = optional or not option.get("required")
        _bounds(out, where, option, kind)
        _choosing(out, where, option, kind)


def _bounds(out: Problems, path: str, option: dict, kind: Any) -> None:
    """``min_value``/``max_value`` (INTEGER, NUMBER) and ``min_length``/``max_length`` (STRING)."""
    values = {key: option.get(key) for key in ("min_value", "max_value") if option.get(key) is not None}
    for key, value in values.items():
        if kind not in BOUNDED:
            out.append((f"{path}.{key}", "Only INTEGER and NUMBER options have a min_value or max_value."))
        else:
            _number(out, f"{path}.{key}", value, kind)
    lengths = {key: option.get(key) for key in ("min_length", "max_length") if option.get(key) is not None}
    for key, value in lengths.items():
        lo = 0 if key == "min_length" else 1
        if kind != STRING:
            out.append((f"{path}.{key}", "Only STRING options have a min_length or max_length."))
        elif not _integer(value) or not lo <= value <= MAX_LENGTH:
            out.append((f"{path}.{key}", f"Must be between {lo} and {MAX_LENGTH} (got {value!r})."))
    _ordered(out, path, values, "min_value", "max_value")
    _ordered(out, path, lengths, "min_length", "max_length")


def _ordered(out: Problems, path: str, given: dict, low: str, high: str) -> None:
    a, b = given.get(low), given.get(high)
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (a, b))
    if numbers and a > b:  # type: ignore[operator]
        out.append((f"{path}.{low}", f"{low} {a} is more than {high} {b}."))


def _choosing(out: Problems, path: str, option: dict, kind: Any) -> None:
    choices = option.get("choices") or []
    if (choices or option.get("autocomplete")) and kind not in CHOOSABLE:
        out.append((path, "Only STRING, INTEGER and NUMBER options have choices or autocomplete."))
    if choices and option.get("autocomplete"):
        out.append((f"{path}.autocomplete", "Autocomplete cannot be used with choices."))
    _choices(out, f"{path}.choices", choices, kind if kind in CHOOSABLE else None)


def _choices(out: Problems, path: str, choices: list[dict], kind: int | None) -> None:
    """Choices of an option of type ``kind`` (None: of any type, as an autocomplete answer does not say)."""
    _count(out, path, choices, 25)
    for i, choice in enumerate(choices):
        _length(out, f"{path}.{i}.name", choice.get("name"), 100, lo=1)
        for locale, name in (choice.get("name_localizations") or {}).items():
            _locales(out, f"{path}.{i}", {locale: name})
            _length(out, f"{path}.{i}.name_localizations.{locale}", name, 100, lo=1)
        value, at = choice.get("value"), f"{path}.{i}.value"
        if value is None:
            out.append((at, "This field is required"))
        elif isinstance(value, str) and kind in (STRING, None):
            _length(out, at, value, 100)
        elif kind == STRING:
            out.append((at, "Must be a string."))
        else:
            _number(out, at, value, kind)


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(out: Problems, path: str, value: Any, kind: int | None) -> None:
    """An INTEGER (or NUMBER, or either when ``kind`` is None) value within Discord's range."""
    if kind == INTEGER and not _integer(value):
        out.append((path, f"Must be an integer (got {value!r})."))
    elif isinstance(value, bool) or not isinstance(value, int | float):
        out.append((path, f"Must be a number (got {value!r})."))
    elif not -INT53 <= value <= INT53:
        out.append((path, f"Must be between {-INT53} and {INT53} (got {value})."))


def _longest(node: dict, key: str) -> int:
    texts = [node.get(key) or "", *(node.get(f"{key}_localizations") or {}).values()]
    return max(len(str(text)) for text in texts)


def _size(node: dict) -> int:
    """What Discord counts towards a command's 8000 characters: names, descriptions, choice names and
    values, each field at its longest localisation."""
    size = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(_size(option) for option in node.get("options") or [])


def _locales(out: Problems, path: str, *localized: dict) -> None:
    for texts in localized:
        for locale in texts:
            if locale is not None and locale not in LOCALES:
                out.append((f"{path}.name_localizations", f"{locale!r} is not a valid locale."))


def _unique_names(out: Problems, path: str, siblings: list[dict]) -> None:
    """Options (and subcommands) of one command need distinct names, in every locale (a locale without its
    own name shows the default one)."""
    for locale in {None, *(k for s in siblings for k in (s.get("name_localizations") or {}))}:
        seen = [(s.get("name_localizations") or {}).get(locale, s.get("name")) for s in siblings]
        if len(seen) != len(set(seen)):
            out.append((path, f"Application command option names must be unique (locale {locale or 'default'})."))
