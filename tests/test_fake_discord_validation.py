"""Discord's documented limits in the fake (tests/support/validation.py, command_limits.py): each accepted at
the limit and refused one step past it with 400 / 50035 naming the field."""

from __future__ import annotations

import aiohttp
import discord
import pytest
from discord import app_commands
from support.attachments import Upload
from support.command_limits import check_autocomplete, check_commands
from support.errors import DiscordError
from support.server import FakeDiscord
from support.validation import check_message


def x(n: int) -> str:
    return "x" * n


def button(custom_id: str | None = "b", **more) -> dict:
    return {"type": 2, "style": 1, "label": "ok", **({} if custom_id is None else {"custom_id": custom_id}), **more}


def select(n: int = 3, **more) -> dict:
    return {"type": 3, "custom_id": "s", "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)], **more}


def rows(*rows: list[dict]) -> dict:
    return {"components": [{"type": 1, "components": items} for items in rows]}


def embed(**fields) -> dict:
    return {"embeds": [fields]}


def fields(n: int = 1, name: str = "n", value: str = "v") -> dict:
    return embed(fields=[{"name": name, "value": value}] * n)


def option(**changes) -> dict:
    """A select whose first option has ``changes``."""
    body = select(2)
    body["options"][0].update(changes)
    return rows([body])


def defaults(n: int) -> dict:
    """A one-value select with ``n`` options selected by default."""
    body = select(2)
    for chosen in body["options"][:n]:
        chosen["default"] = True
    return rows([body])


def mentions(**allowed) -> dict:
    return {"content": "hi", "allowed_mentions": allowed}


def text_option(name: str, **more) -> dict:
    return {"name": name, "description": "d", "type": 3, **more}


def int_option(name: str = "o", kind: int = 4, **more) -> dict:
    """An INTEGER option (``kind`` 10: a NUMBER one)."""
    return {"name": name, "description": "d", "type": kind, **more}


def sub(name: str, kind: int = 1, options: list | None = None) -> dict:
    """A subcommand (``kind`` 2: a subcommand group)."""
    return {"name": name, "description": "d", "type": kind, "options": options or []}


def command(name: str = "cmd", description: str = "d", options: list | None = None) -> list[dict]:
    return [{"name": name, "description": description, "type": 1, "options": options or []}]


def choices(n: int = 1, name: str = "c", value: str = "v") -> list[dict]:
    return [{"name": f"{name}{i}" if n > 1 else name, "value": value} for i in range(n)]


def with_choices(name_localizations: dict | None = None, **kw) -> list[dict]:
    listed = choices(**kw)
    if name_localizations:
        listed[0]["name_localizations"] = name_localizations
    return command(options=[text_option("o", choices=listed)])


def twins(second: str) -> list[dict]:
    """Two options named 'x' and `second` in German."""
    return command(options=[text_option("a", name_localizations={"de": "x"}),
                            text_option("b", name_localizations={"de": second})])


def localised(name: str = "neu", description: str = "d", locale: str = "de") -> list[dict]:
    """A command with a name and a description for one locale besides the default ones."""
    body = command()
    body[0].update(name_localizations={locale: name}, description_localizations={locale: description})
    return body


def one(option: dict) -> list[dict]:
    return command(options=[option])


def sized(total: int) -> list[dict]:
    """A command whose names, descriptions, choice names and values come to ``total`` characters."""
    left, options = total - len("cmd") - len("d"), []
    while left:
        description = min(100, left - 3)  # after the option's name, "oNN"
        left -= 3 + description
        listed = []
        while left and len(listed) < 25:
            name = min(100, left)
            value = min(100, left - name)
            listed.append({"name": f"{len(listed):02}" + x(name - 2), "value": x(value)})
            left -= name + value
        options.append(text_option(f"o{len(options):02}", description=x(description), choices=listed))
    return command(options=options)


INT53 = 2**53 - 1

# (what, body for n, n accepted, n refused, the field the refusal names)
MESSAGES = [
    ("content", lambda n: {"content": x(n)}, 2000, 2001, "content"),
    ("embeds", lambda n: {"embeds": [{"title": "t"}] * n}, 10, 11, "embeds"),
    ("title", lambda n: embed(title=x(n)), 256, 257, "embeds.0.title"),
    ("description", lambda n: embed(description=x(n)), 4096, 4097, "embeds.0.description"),
    ("fields", lambda n: fields(n), 25, 26, "embeds.0.fields"),
    ("field name", lambda n: fields(name=x(n)), 256, 257, "embeds.0.fields.0.name"),
    ("empty field name", lambda n: fields(name=x(n)), 1, 0, "embeds.0.fields.0.name"),
    ("field value", lambda n: fields(value=x(n)), 1024, 1025, "embeds.0.fields.0.value"),
    ("missing field value", lambda n: embed(fields=[{"name": "n", **({"value": "v"} if n else {})}]), 1, 0, "value"),
    ("footer", lambda n: embed(footer={"text": x(n)}), 2048, 2049, "embeds.0.footer.text"),
    ("author", lambda n: embed(author={"name": x(n)}), 256, 257, "embeds.0.author.name"),
    ("embed total", lambda n: {"embeds": [{"description": x(3000)}, {"description": x(n)}]}, 3000, 3001, "6000"),
    ("rows", lambda n: rows(*[[button(f"b{i}")] for i in range(n)]), 5, 6, "components"),
    ("empty row", lambda n: rows([button()] * n), 1, 0, "components.0.components"),
    ("buttons", lambda n: rows([button(f"b{i}") for i in range(n)]), 5, 6, "components.0.components"),
    ("select alone", lambda n: rows([select()] + [button()] * n), 0, 1, "components.0.components"),
    ("label", lambda n: rows([button(label=x(n))]), 80, 81, "components.0.components.0.label"),
    ("no custom_id", lambda n: rows([button(None, style=5 if n else 1, url="https://a.b")]), 1, 0, "0.custom_id"),
    ("custom_id", lambda n: rows([button(x(n))]), 100, 101, "components.0.components.0.custom_id"),
    ("empty custom_id", lambda n: rows([button(x(n))]), 1, 0, "components.0.components.0.custom_id"),
    ("same custom_id", lambda n: rows([button("a"), button("a" if n else "b")]), 0, 1, "components.1.custom_id"),
    ("options", lambda n: rows([select(n, max_values=min(n, 25))]), 25, 26, "components.0.components.0.options"),
    ("no options", lambda n: rows([select(n)]), 1, 0, "components.0.components.0.options"),
    ("option label", lambda n: option(label=x(n)), 100, 101, "options.0.label"),
    ("empty option label", lambda n: option(label=x(n)), 1, 0, "options.0.label"),
    ("option value", lambda n: option(value=x(n)), 100, 101, "options.0.value"),
    ("option description", lambda n: option(description=x(n)), 100, 101, "options.0.description"),
    ("same value", lambda n: option(value="v1" if n else "v0"), 0, 1, "options.1.value"),
    ("placeholder", lambda n: rows([select(placeholder=x(n))]), 150, 151, "placeholder"),
    ("min over max", lambda n: rows([select(min_values=n, max_values=2)]), 2, 3, "min_values"),
    ("max_values", lambda n: rows([select(25, max_values=n)]), 25, 26, "max_values"),
    ("max over options", lambda n: rows([select(3, max_values=n)]), 3, 4, "max_values"),
    ("defaults", defaults, 1, 2, "options"),
    ("parse and ids", lambda n: mentions(parse=["users"], users=["1"] * n), 0, 1, "allowed_mentions.parse"),
    ("mention ids", lambda n: mentions(users=[str(i) for i in range(n)]), 100, 101, "allowed_mentions.users"),
]

COMMANDS = [
    ("name case", lambda n: command("Name" if n else "name"), 0, 1, "0.name"),
    ("name length", lambda n: command(x(n)), 32, 33, "0.name"),
    ("name characters", lambda n: command("a b" if n else "a-b_c"), 0, 1, "0.name"),
    ("description", lambda n: command(description=x(n)), 100, 101, "0.description"),
    ("no description", lambda n: command(description=x(n)), 1, 0, "0.description"),
    ("options", lambda n: command(options=[text_option(f"o{i}") for i in range(n)]), 25, 26, "0.options"),
    ("option name", lambda n: command(options=[text_option("Bad" if n else "ok")]), 0, 1, "0.options.0.name"),
    ("choices", lambda n: with_choices(n=n), 25, 26, "0.options.0.choices"),
    ("choice name", lambda n: with_choices(name=x(n)), 100, 101, "choices.0.name"),
    ("choice value", lambda n: with_choices(value=x(n)), 100, 101, "choices.0.value"),
    ("localised name case", lambda n: localised(name="Neu" if n else "neu"), 0, 1, "0.name_localizations.de"),
    ("localised name length", lambda n: localised(name=x(n)), 32, 33, "0.name_localizations.de"),
    ("localised description", lambda n: localised(description=x(n)), 100, 101, "0.description_localizations.de"),
    ("locale", lambda n: localised(locale="de-DE" if n else "de"), 0, 1, "0.name_localizations"),
    ("localised names unique", lambda n: twins("y" if n else "x"), 1, 0, "0.options"),
    ("localised choice name", lambda n: with_choices(name_localizations={"it": x(n)}), 100, 101,
     "choices.0.name_localizations.it"),
    # INTEGER and NUMBER options: values within -(2^53-1)..2^53-1, bounds only on them, a minimum below a maximum
    ("max_value", lambda n: one(int_option(min_value=1, max_value=n)), INT53, INT53 + 1, "0.options.0.max_value"),
    ("min_value", lambda n: one(int_option(min_value=-n)), INT53, INT53 + 1, "0.options.0.min_value"),
    ("number max_value", lambda n: one(int_option(kind=10, max_value=float(n))), INT53, INT53 + 1, "max_value"),
    ("integer bound", lambda n: one(int_option(max_value=7.5 if n else 7)), 0, 1, "0.options.0.max_value"),
    ("min over max value", lambda n: one(int_option(min_value=n, max_value=5)), 5, 6, "0.options.0.min_value"),
    ("value bound on a string", lambda n: one(text_option("o", **({"min_value": 1} if n else {}))), 0, 1,
     "0.options.0.min_value"),
    ("integer choice", lambda n: one(int_option(choices=[{"name": "c", "value": n}])), INT53, INT53 + 1,
     "0.options.0.choices.0.value"),
    ("string choice on an integer", lambda n: one(int_option(choices=[{"name": "c", "value": "1" if n else 1}])),
     0, 1, "0.options.0.choices.0.value"),
    # STRING options: lengths 0-6000 (min) and 1-6000 (max), only on them
    ("min_length", lambda n: one(text_option("o", min_length=n)), 6000, 6001, "0.options.0.min_length"),
    ("negative min_length", lambda n: one(text_option("o", min_length=n - 1)), 1, 0, "0.options.0.min_length"),
    ("max_length", lambda n: one(text_option("o", max_length=n)), 6000, 6001, "0.options.0.max_length"),
    ("zero max_length", lambda n: one(text_option("o", max_length=n)), 1, 0, "0.options.0.max_length"),
    ("min over max length", lambda n: one(text_option("o", min_length=n, max_length=5)), 5, 6, "min_length"),
    ("length bound on an integer", lambda n: one(int_option(**({"max_length": 5} if n else {}))), 0, 1,
     "0.options.0.max_length"),
    # choices and autocomplete, the order of options, subcommands, a command's size
    ("choices with autocomplete", lambda n: one(text_option("o", autocomplete=bool(n), choices=choices())), 0, 1,
     "0.options.0.autocomplete"),
    ("choices on a boolean", lambda n: one(int_option(kind=5, **({"choices": choices()} if n else {}))), 0, 1,
     "0.options.0"),
    ("required after optional", lambda n: command(options=[text_option("a", required=not n),
                                                           text_option("b", required=True)]), 0, 1,
     "0.options.1.required"),
    ("subcommands and options", lambda n: command(options=[sub("a"), *([text_option("b")] if n else [])]), 0, 1,
     "0.options"),
    ("group of subcommands", lambda n: command(options=[sub("g", 2, [text_option("o") if n else sub("s")])]), 0, 1,
     "0.options.0.options.0.type"),
    ("subcommand in a subcommand", lambda n: command(options=[sub("s", 1, [sub("t") if n else text_option("o")])]),
     0, 1, "0.options.0.options.0.type"),
    ("command size", sized, 8000, 8001, "Command size exceeds 8000"),
]

AUTOCOMPLETE = [
    ("choices", lambda n: {"choices": choices(n)}, 25, 26, "data.choices"),
    ("name", lambda n: {"choices": choices(name=x(n))}, 100, 101, "data.choices.0.name"),
    ("empty name", lambda n: {"choices": choices(name=x(n))}, 1, 0, "data.choices.0.name"),
    ("value", lambda n: {"choices": choices(value=x(n))}, 100, 101, "data.choices.0.value"),
    ("number", lambda n: {"choices": [{"name": "c", "value": n}]}, INT53, INT53 + 1, "data.choices.0.value"),
]

CASES = [
    *[(lambda body: check_message(body, creating=True), *case) for case in MESSAGES],
    *[(check_commands, *case) for case in COMMANDS],
    *[(check_autocomplete, *case) for case in AUTOCOMPLETE],
]


@pytest.mark.parametrize(("check", "what", "body", "ok", "bad", "path"), CASES, ids=[c[1] for c in CASES])
def test_each_limit_is_accepted_and_refused_one_step_past_it(check, what, body, ok, bad, path) -> None:
    check(body(ok))
    with pytest.raises(DiscordError) as refused:
        check(body(bad))
    assert (refused.value.status, refused.value.code, refused.value.message) == (400, 50035, "Invalid Form Body")
    assert path in refused.value.describe(), refused.value.describe()


def test_an_empty_message_is_refused_on_create_only() -> None:
    with pytest.raises(DiscordError) as refused:
        check_message({"content": ""}, creating=True)
    assert refused.value.code == 50006
    check_message({"content": ""}, creating=False)
    check_message({}, creating=True, files=[Upload(0, "a.png", b"png")])


def test_a_callbacks_fields_are_named_under_data_in_discords_nested_form() -> None:
    with pytest.raises(DiscordError) as refused:
        check_message({"content": x(2001), "embeds": [{"title": x(257)}]}, creating=True, prefix="data")
    errors = refused.value.body()["errors"]["data"]
    assert errors["content"]["_errors"][0]["message"] == "Must be 2000 or fewer in length (got 2001)."
    assert errors["embeds"]["0"]["title"]["_errors"][0]["message"] == "Must be 256 or fewer in length (got 257)."


async def test_a_registration_past_a_limit_is_refused_whole_over_http_and_registers_nothing() -> None:
    """What discord.py sends for ``Range[int, 1, 2**53]``: Discord answers 400 / 50035 naming the field, and
    none of the commands sent (the good one neither) replaces those registered before."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))

    @app_commands.command(name="export", description="d")
    async def export(interaction: discord.Interaction, game: app_commands.Range[int, 1, 2**53]) -> None: ...

    good = {"name": "ok", "description": "d", "type": 1}
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        url = f"{fake.api_base}/applications/{fake.application_id}/commands"
        async with http.put(url, json=[good]) as accepted:
            assert accepted.status == 200
        async with http.put(url, json=[{**good, "name": "new"}, export.to_dict(tree)]) as refused:
            assert refused.status == 400
            body = await refused.json()
        assert (body["code"], body["message"]) == (50035, "Invalid Form Body")
        (error,) = body["errors"]["1"]["options"]["0"]["max_value"]["_errors"]
        assert error["code"] == "INVALID_FORM_BODY" and "9007199254740991" in error["message"]
        assert [command["name"] for command in fake.commands[None]] == ["ok"]
        assert fake.problems == [f"PUT /applications/{{application_id}}/commands -> 400 50035 Invalid Form Body: "
                                 f"1.options.0.max_value: {error['message']}"]
