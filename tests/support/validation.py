"""Discord's documented limits on messages, applied to every message body the fake receives (command
registrations and autocomplete answers: ``command_limits``).

Each check collects ``(field path, problem)`` pairs and raises one 400 / 50035 "Invalid Form Body" with all
of them, the way Discord does, so the bot's log and the fake's ``problems`` name the exact field
("data.components.1.components.0.options: Must be between 1 and 25 in length (got 0)."). Only classic
(non components-v2) layouts get the action-row rules; v2 messages still get the per-component ones.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any

from .attachments import MAX_DESCRIPTION, MAX_FILE_SIZE, MAX_FILES, Upload, entry_id
from .errors import DiscordError, invalid_form

EPHEMERAL, LOADING, COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 15
ROW, BUTTON, STRING_SELECT = 1, 2, 3
SELECTS = {3, 5, 6, 7, 8}
LINK, PREMIUM = 5, 6  # button styles without a custom_id
Problems = list[tuple[str, str]]


def _length(out: Problems, path: str, value: Any, hi: int, lo: int = 0) -> int:
    """Check a text field's length (``lo >= 1`` makes it required); return the length for embed totals."""
    if value is None:
        if lo:
            out.append((path, "This field is required"))
        return 0
    n = len(str(value))
    if not lo <= n <= hi:
        bounds = f"{hi} or fewer" if lo == 0 else f"between {lo} and {hi}"
        out.append((path, f"Must be {bounds} in length (got {n})."))
    return n


def _count(out: Problems, path: str, items: list, hi: int, lo: int = 0) -> None:
    if not lo <= len(items) <= hi:
        bounds = f"{hi} or fewer" if lo == 0 else f"between {lo} and {hi}"
        out.append((path, f"Must be {bounds} in length (got {len(items)})."))


def _raise(out: Problems) -> None:
    if out:
        raise invalid_form(out)


# ------------------------------------------------------------------ messages


def check_message(
    body: dict, *, creating: bool, prefix: str = "", files: Sequence[Upload] = (), existing: Collection[int] = ()
) -> None:
    """A message create or edit body (channel message, callback 4/7 ``data``, followup, webhook edit), with
    the ``files`` uploaded with it; ``existing``: the ids of the attachments the edited message has."""
    at = f"{prefix}." if prefix else ""
    for file in files:  # the upload layer refuses first, before the form is read
        if file.size > MAX_FILE_SIZE:
            raise DiscordError(413, 40005, "Request entity too large")
    out: Problems = []
    _attachments(out, f"{at}attachments", body, files, existing, creating)
    _length(out, f"{at}content", body.get("content"), 2000)
    embeds = body.get("embeds") or []
    _count(out, f"{at}embeds", embeds, 10)
    _embeds(out, f"{at}embeds", embeds)
    v2 = bool(int(body.get("flags") or 0) & COMPONENTS_V2)
    _components(out, f"{at}components", body.get("components") or [], v2)
    _allowed_mentions(out, f"{at}allowed_mentions", body.get("allowed_mentions"))
    _raise(out)
    shown = ("content", "embeds", "components", "poll", "sticker_ids", "attachments")
    if creating and not files and not any(body.get(key) for key in shown):
        raise DiscordError(400, 50006, "Cannot send an empty message")


def _attachments(
    out: Problems, path: str, body: dict, files: Sequence[Upload], existing: Collection[int], creating: bool
) -> None:
    """Each ``attachments`` entry names an uploaded ``files[N]`` or an attachment the message has; at most
    10 attachments result (see ``attachments`` for what an edit keeps)."""
    listed = body.get("attachments")
    uploaded = {file.index for file in files}
    for i, entry in enumerate(listed or []):
        key = entry_id(entry)
        if key is None or (key not in uploaded and key not in existing):
            named = entry.get("id") if isinstance(entry, dict) else entry
            out.append((f"{path}.{i}.id", f"Unknown attachment {named!r}: no files[{named}] and no such attachment."))
        else:
            _length(out, f"{path}.{i}.description", entry.get("description"), MAX_DESCRIPTION)
    if listed is None:
        total = len(existing) + len(files)
    else:
        total = len(listed) + (0 if not creating else len(uploaded - {entry_id(e) for e in listed}))
    if len(files) > MAX_FILES or total > MAX_FILES:
        out.append((path, f"Must be {MAX_FILES} or fewer in length (got {max(total, len(files))})."))


def _embeds(out: Problems, path: str, embeds: list[dict]) -> None:
    total = 0
    for i, embed in enumerate(embeds):
        at = f"{path}.{i}"
        total += _length(out, f"{at}.title", embed.get("title"), 256)
        total += _length(out, f"{at}.description", embed.get("description"), 4096)
        fields = embed.get("fields") or []
        _count(out, f"{at}.fields", fields, 25)
        for j, field in enumerate(fields):
            total += _length(out, f"{at}.fields.{j}.name", field.get("name"), 256, lo=1)
            total += _length(out, f"{at}.fields.{j}.value", field.get("value"), 1024, lo=1)
        total += _length(out, f"{at}.footer.text", (embed.get("footer") or {}).get("text"), 2048)
        total += _length(out, f"{at}.author.name", (embed.get("author") or {}).get("name"), 256)
    if total > 6000:
        out.append((path, f"Embed size exceeds maximum size of 6000 (got {total})."))


def _allowed_mentions(out: Problems, path: str, mentions: dict | None) -> None:
    if mentions is None:
        return
    parse = mentions.get("parse") or []
    for kind in ("users", "roles"):
        ids = mentions.get(kind) or []
        if kind in parse and ids:
            out.append((f"{path}.parse", f"parse:[{kind}] and {kind}:[ids] are mutually exclusive."))
        _count(out, f"{path}.{kind}", ids, 100)


# ------------------------------------------------------------------ components


def walk(components: list[dict] | None, path: str = "components") -> Iterator[tuple[str, dict]]:
    """Every component with its field path, depth first (rows, containers, sections and accessories too)."""
    for i, comp in enumerate(components or ()):
        yield f"{path}.{i}", comp
        yield from walk(comp.get("components"), f"{path}.{i}.components")
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield f"{path}.{i}.{key}", comp[key]


def _components(out: Problems, path: str, rows: list[dict], v2: bool) -> None:
    if not v2:
        _count(out, path, rows, 5)
        for i, row in enumerate(rows):
            _row(out, f"{path}.{i}", row)
    seen: set[str] = set()
    for at, comp in walk(rows, path):
        kind = comp.get("type")
        if kind == BUTTON:
            _button(out, at, comp)
        elif kind in SELECTS:
            _select(out, at, comp)
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            _length(out, f"{at}.custom_id", custom_id, 100, lo=1)
            if custom_id in seen:
                out.append((f"{at}.custom_id", f"Component custom id {custom_id!r} is used twice in this message."))
            seen.add(custom_id)


def _row(out: Problems, path: str, row: dict) -> None:
    if row.get("type") != ROW:
        out.append((f"{path}.type", "Top-level components must be action rows (type 1)."))
        return
    items = row.get("components") or []
    if any(item.get("type") in SELECTS for item in items):
        if len(items) != 1:
            out.append((f"{path}.components", "An action row with a select menu holds that one select only."))
    else:
        _count(out, f"{path}.components", items, 5, lo=1)
    for j, item in enumerate(items):
        if item.get("type") not in {BUTTON, *SELECTS}:
            out.append((f"{path}.components.{j}.type", "An action row holds buttons or one select menu."))


def _button(out: Problems, path: str, button: dict) -> None:
    _length(out, f"{path}.label", button.get("label"), 80)
    style = button.get("style")
    if style == LINK and not button.get("url"):
        out.append((f"{path}.url", "Link buttons need a url."))
    if style in (LINK, PREMIUM) and button.get("custom_id") is not None:
        out.append((f"{path}.custom_id", "Link and premium buttons cannot have a custom id."))
    if style not in (LINK, PREMIUM) and button.get("custom_id") is None:
        out.append((f"{path}.custom_id", "This field is required"))


def _select(out: Problems, path: str, select: dict) -> None:
    _length(out, f"{path}.placeholder", select.get("placeholder"), 150)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= low <= 25:
        out.append((f"{path}.min_values", f"Must be between 0 and 25 (got {low})."))
    if not 1 <= high <= 25:
        out.append((f"{path}.max_values", f"Must be between 1 and 25 (got {high})."))
    if low > high:
        out.append((f"{path}.min_values", f"min_values {low} is more than max_values {high}."))
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    _count(out, f"{path}.options", options, 25, lo=1)
    if options and high > len(options):
        out.append((f"{path}.max_values", f"Must be at most the number of options, {len(options)} (got {high})."))
    values: set[str] = set()
    for k, option in enumerate(options):
        at = f"{path}.options.{k}"
        _length(out, f"{at}.label", option.get("label"), 100, lo=1)
        _length(out, f"{at}.value", option.get("value"), 100, lo=1)
        _length(out, f"{at}.description", option.get("description"), 100)
        if option.get("value") in values:
            out.append((f"{at}.value", f"Option value {option.get('value')!r} is used twice in this select."))
        values.add(option.get("value"))
    defaults = sum(1 for option in options if option.get("default"))
    if defaults > high:
        out.append((f"{path}.options", f"{defaults} options are selected by default, more than max_values {high}."))
