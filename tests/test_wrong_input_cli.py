"""Wrong input on the command line and in the settings is one line naming what is wrong and what to do,
with a non-zero exit (2 for usage, as argparse's), never a traceback (issue 42); `.env.example` works as
shipped; `augsburg play` keeps its games in the user's data folder when no database is configured.

Most cases run `python -m bot`'s and `augsburg`'s own main() in this process (the same code, without a
process start each); a few run the real commands as processes."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from bot.app import cli
from bot.app import main as bot_main
from bot.app.config import Settings, read_settings
from storage import Store

SETTINGS = [name.upper() for name in Settings.model_fields]
UNWRITABLE = Path("/sys")  # refuses a new file even to root (permission bits say nothing to root)
needs_sys = pytest.mark.skipif(not UNWRITABLE.is_dir(), reason="no /sys here to stand for an unwritable folder")


@pytest.fixture(scope="module")
def a_database(tmp_path_factory) -> Path:
    """An empty database of this bot, made once: each test's `here` gets a copy."""
    path = tmp_path_factory.mktemp("made") / "bot.sqlite3"
    asyncio.run(_a_database(path))
    return path


async def _a_database(path: Path) -> None:
    store = await Store.open(path)
    await store.close()


@pytest.fixture
def here(tmp_path, monkeypatch, a_database):
    """A clean folder to work in: no .env, no setting in the environment, a non-database file, another
    program's SQLite database, a database of this bot and an empty file."""
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("not a database\n")
    with sqlite3.connect(tmp_path / "other.db") as con:
        con.execute("CREATE TABLE t (x)")
    con.close()
    shutil.copy(a_database, tmp_path / "bot.sqlite3")
    (tmp_path / "empty.db").touch()
    return tmp_path


def one_line(text: str, usage: str | None = None) -> str:
    """The one line `text` says (after argparse's usage of the command `usage`, if given); no traceback."""
    assert "Traceback" not in text and "Error:" not in text.replace("error:", ""), text
    lines = text.strip().splitlines()
    if usage is not None:
        assert lines[0].startswith(f"usage: {usage} "), text  # the subcommand's own usage, not the top level's
        lines = [line for line in lines if not line.startswith(("usage: ", " "))]
        assert len(lines) == 1 and lines[0].startswith(f"{usage}: error: "), text
    assert len(lines) == 1, text
    return lines[0]


def augsburg(args: list[str], capsys) -> tuple[int, str]:
    """`augsburg ARGS` in this process: its exit status and all it printed."""
    try:
        code = cli.main(args)
    except SystemExit as stopped:
        code = stopped.code
    out = capsys.readouterr()
    return code, out.out + out.err


def run(args: list[str], cwd: Path, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    """A real process, with none of the settings in its environment but `env`."""
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, input=stdin,
                          env={**clean, "PYTHONPATH": str(ROOT), **env}, timeout=120)


# --- 1. .env.example as shipped


def test_env_example_as_shipped_starts_the_bot_up_to_the_token_and_the_terminal_game(tmp_path):
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    assert "\nDISCORD_GUILD_ID=\n" in (tmp_path / ".env").read_text()  # the empty value the issue tripped on
    bot = run(["-m", "bot"], tmp_path)
    assert bot.returncode == 2
    assert "DISCORD_TOKEN is not set" in one_line(bot.stdout + bot.stderr)
    game = run(["-m", "bot.app.cli", "play", "--opponents", "1", "--seed", "1"], tmp_path)
    assert game.returncode == 0 and "Traceback" not in game.stdout + game.stderr, game.stderr
    assert "your game is saved" in game.stdout
    assert (tmp_path / "augsburg.sqlite3").exists()  # .env.example's DATABASE_PATH: the bot's database


def test_an_empty_value_means_not_set_for_every_setting(here, monkeypatch):
    for name in SETTINGS:
        monkeypatch.setenv(name, "")
    assert read_settings() == Settings(_env_file=None)
    (here / ".env").write_text("".join(f"{name}=\n" for name in SETTINGS))
    for name in SETTINGS:
        monkeypatch.delenv(name)
    assert read_settings() == Settings(_env_file=None)


# --- 2. every setting, wrong: one line naming it, status 2, before the bot is made

INTS = ["abc", "²", "١٢", "１２", "1.5", "0x10"]  # non-ASCII digits too: int() would take some of them
FLOATS = ["abc", "²", "٣", "1,5", "nan", "inf"]
SPECIAL = {"log_level": ["chatty", "verbose"], "database_url": ["mysql://x/y", "sqlite:///"],
           "database_path": ["mysql://x/y"], "discord_api_base": ["discord.com/api/v10", "ws://127.0.0.1/api"],
           "discord_gateway_url": ["http://127.0.0.1/gateway", "gateway"], "table_pictures": ["maybe", "ja"],
           "log_format": ["xml"], "metrics_host": ["http://127.0.0.1"], "metrics_port": ["65536"],
           "drain_seconds": ["26"]}


def wrong_values() -> list[tuple[str, str]]:
    """Every setting that has a type or a range, with values of the wrong kind and out of range."""
    cases = []
    for name, field in Settings.model_fields.items():
        kinds = str(field.annotation)
        values = list(SPECIAL.get(name, []))
        if "int" in kinds:
            values += INTS
        elif "float" in kinds:
            values += FLOATS
        for bound in field.metadata:
            if hasattr(bound, "ge"):
                values.append(str(bound.ge - 1))
            if hasattr(bound, "gt"):
                values.append(str(bound.gt))
        cases += [(name.upper(), value) for value in values]
    return cases


# Settings that name a place, or whose values only make sense together: refused by the checks before the start.
PLACES = [("DATABASE_PATH", "{missing}/x.sqlite3", "does not exist"), ("DATABASE_PATH", "{here}", "is a folder"),
          ("DATABASE_PATH", "notes.txt", "is not a SQLite database"),
          ("DATABASE_PATH", "{sys}/x.sqlite3", "cannot write in the folder"),
          ("DATABASE_URL", "sqlite:///{missing}/x.sqlite3", "does not exist"),
          ("DATABASE_URL", "sqlite:///notes.txt", "is not a SQLite database"),
          ("BACKUP_DIR", "notes.txt", "is a file, not a folder"), ("BACKUP_DIR", "{sys}/backups", "cannot write"),
          ("MONITOR_PATH", "{missing}/m.json", "does not exist"), ("MONITOR_PATH", "{here}", "is a folder"),
          ("MONITOR_PATH", "{sys}/m.json", "cannot write"),
          ("EDITIONS_DIR", "{missing}", "does not exist"), ("EDITIONS_DIR", "notes.txt", "is not a folder"),
          ("DEFAULT_EDITION", "no-such-edition", "estimates-1"),
          ("SHARD_COUNT", "0", "1 or more"), ("SHARD_IDS", "a,b", "separated by commas")]
ANY_VALUE = {"DISCORD_TOKEN"}  # any text may be a token: Discord says whether it is one (one line: test_bot_main)


def test_every_setting_has_its_wrong_values_tried():
    tried = {name for name, _ in wrong_values()} | {name for name, _, _ in PLACES} | ANY_VALUE
    assert tried == set(SETTINGS)


@pytest.fixture
def bot_start(here, monkeypatch, capsys):
    """`python -m bot`'s main() here with a token and the given settings: its status and its one line (the bot
    itself is never made: a check that let a wrong setting through fails the test)."""

    def never(*args, **kwargs):
        raise AssertionError("the bot was started")

    monkeypatch.setattr(bot_main, "make_bot", never)

    def start(**settings: str) -> tuple[int, str]:
        monkeypatch.setenv("DISCORD_TOKEN", "a-token")
        for name, value in settings.items():
            monkeypatch.setenv(name, value)
        code = bot_main.main([])
        out = capsys.readouterr()
        return code, one_line(out.out + out.err)

    return start


@pytest.mark.parametrize(("name", "value"), wrong_values())
def test_a_wrong_setting_is_one_line_naming_it(bot_start, name, value):
    code, line = bot_start(**{name: value})
    assert code == 2 and line.startswith(f"{name}={value!r}") and "environment or in .env" in line, line


def test_several_wrong_settings_are_one_line_naming_each(bot_start):
    code, line = bot_start(LOG_LEVEL="chatty", TURN_TIMEOUT_SECONDS="abc", DISCORD_GUILD_ID="")
    assert code == 2 and "LOG_LEVEL='chatty'" in line and "TURN_TIMEOUT_SECONDS='abc'" in line
    assert "DISCORD_GUILD_ID" not in line  # empty: not set


@pytest.mark.parametrize(("name", "value", "says"), PLACES)
def test_a_place_that_cannot_work_is_one_line_before_anything_is_created(bot_start, here, name, value, says):
    if "{sys}" in value and not UNWRITABLE.is_dir():
        pytest.skip("no /sys here to stand for an unwritable folder")
    value = value.format(missing=here / "missing", here=here, sys=UNWRITABLE)
    before = sorted(here.rglob("*"))
    code, line = bot_start(**{name: value})
    assert code == 2 and name in line and says in line, line
    assert sorted(here.rglob("*")) == before  # nothing created, not even the database


@needs_sys
def test_the_bot_on_an_unwritable_database_path_says_so_in_one_line_as_a_process(tmp_path):
    out = run(["-m", "bot"], tmp_path, DISCORD_TOKEN="a-token", DATABASE_PATH="/sys/augsburg.sqlite3",
              DISCORD_API_BASE="http://127.0.0.1:9/api/v10", DISCORD_GATEWAY_URL="ws://127.0.0.1:9/gateway")
    assert out.returncode == 2
    assert "DATABASE_PATH=/sys/augsburg.sqlite3" in one_line(out.stdout + out.stderr)


def test_the_bot_takes_help_and_no_other_argument(tmp_path, bot_start, capsys):
    shown = run(["-m", "bot", "--help"], tmp_path, DISCORD_TOKEN="a-token")  # (and does not log in)
    assert shown.returncode == 0 and shown.stdout.startswith("usage: python -m bot") and not shown.stderr
    assert ".env.example" in shown.stdout and "DISCORD_TOKEN" in shown.stdout
    with pytest.raises(SystemExit) as stopped:
        bot_main.main(["--token", "x"])
    assert stopped.value.code == 2
    assert "unrecognized arguments: --token x" in one_line(capsys.readouterr().err, "python -m bot")


# --- 2. every subcommand, wrong: the subcommand's usage and one line, status 2

MISSING = "{here}/missing/x.sqlite3"
PLAY = [
    (["--database", MISSING], "the folder {here}/missing does not exist"),
    (["--database", "{here}"], "is a folder"), (["--database", "notes.txt"], "is not a SQLite database"),
    (["--database", "mysql://x/y"], "unknown database URL mysql://"), (["--database", "sqlite:///"], "names no file"),
    (["--database", ""], "names no file"),
    (["--database", "{sys}/x.sqlite3"], "cannot write in the folder /sys"),
    (["--picture", "{here}/missing/t.png"], "does not exist"), (["--picture", "{here}"], "is a folder"),
    (["--picture", "{sys}/t.png"], "cannot write in the folder /sys"),
    (["--opponents", "²"], "--opponents: '²' is not a whole number"), (["--opponents", "0"], "invalid choice: 0"),
    (["--opponents", "abc"], "--opponents"), (["--seed", "١٢"], "--seed: '١٢' is not a whole number"),
    (["--level", "chatty"], "unknown level 'chatty'"),
    (["--opponents", "2", "--level", "easy,strong,normal"], "3 levels for 2 computer players"),
    (["--resume", "--new"], "--new: not allowed with argument --resume"), (["--lang", "fr"], "--lang"),
    (["--bogus"], "unrecognized arguments: --bogus"),
]
SIMULATE = [
    (["--games", "0"], "--games: '0' is not 1 or more"), (["--games", "-5"], "'-5' is not 1 or more"),
    (["--games", "²"], "'²' is not a whole number"), (["--workers", "-1"], "--workers: '-1' is not 1 or more"),
    (["--workers", "abc"], "--workers"), (["--players", "7"], "--players: invalid choice: 7"),
    (["--players", "٣"], "--players"), (["--think", "0"], "--think"), (["--think", "nan"], "--think"),
    (["--seed", "²"], "--seed"), (["--opponents", "ai"], "invalid choice: 'ai'"), (["--level", "chatty"], "--level"),
    (["--bogus"], "unrecognized arguments: --bogus"),
]
COPY = [
    (["--from", "sqlite:///tmp/x.db", "--to", "y.db"], "sqlite:////tmp/x.db"),  # three slashes: relative
    (["--from", "missing.sqlite3", "--to", "y.db"], "--from missing.sqlite3: there is no such file"),
    (["--from", "{here}", "--to", "y.db"], "--from {here} is a folder"),
    (["--from", "notes.txt", "--to", "y.db"], "--from notes.txt is not a SQLite database"),
    (["--from", "mysql://x/y", "--to", "y.db"], "--from mysql://x/y: unknown database URL"),
    (["--from", "bot.sqlite3", "--to", MISSING], "--to {here}/missing/x.sqlite3: the folder"),
    (["--from", "bot.sqlite3", "--to", "{here}"], "--to {here} is a folder"),
    (["--from", "bot.sqlite3", "--to", "notes.txt"], "--to notes.txt is not a SQLite database"),
    (["--from", "bot.sqlite3", "--to", "mysql://a/b"], "--to mysql://a/b: unknown database URL"),
    (["--from", "bot.sqlite3", "--to", "{sys}/x.db"], "--to /sys/x.db: cannot write"),
    (["--from", "bot.sqlite3"], "the following arguments are required: --to"),
]
RESTORE = [
    (["--database", "mysql://x/y", "--from", "."], "--database mysql://x/y: unknown database URL"),
    (["--database", "{here}", "--from", "."], "--database {here} is a folder"),
    (["--database", MISSING, "--from", "."], "the folder {here}/missing does not exist"),
    (["--from", "{here}/missing"], "--from {here}/missing is not a folder of backups: it does not exist"),
    (["--from", "notes.txt"], "--from notes.txt is not a folder of backups: it is a file"),
]
CASES = ([("play", *case) for case in PLAY] + [("simulate", *case) for case in SIMULATE]
         + [("copy-database", *case) for case in COPY] + [("restore", *case) for case in RESTORE])


@pytest.mark.parametrize(("command", "args", "says"), CASES)
def test_a_wrong_option_is_the_commands_usage_and_one_line(here, capsys, command, args, says):
    if any("{sys}" in a for a in args) and not UNWRITABLE.is_dir():
        pytest.skip("no /sys here to stand for an unwritable folder")
    args = [a.format(here=here, sys=UNWRITABLE) for a in args]
    before = sorted(here.rglob("*"))
    code, said = augsburg([command, *args], capsys)
    assert code == 2
    line = one_line(said, f"augsburg {command}")
    assert says.format(here=here) in line, line
    assert sorted(here.rglob("*")) == before  # nothing was created, not even a database


def test_replay_of_a_file_that_is_not_a_game_is_one_line(here, capsys):
    (here / "d").mkdir()
    for file in ("missing.json", "d", "notes.txt"):  # (short names: replay breaks its lines at 80 columns)
        code, said = augsburg(["replay", file], capsys)
        line = one_line(said)  # the terminal's replay says which: no such file, unreadable, not a game file
        assert code != 0 and (f"No such file: {file}" in line or f"Cannot read {file}" in line
                               or "not a game file" in line), line


def test_a_wrong_setting_stops_every_command_that_reads_them_in_one_line(here, capsys, monkeypatch):
    monkeypatch.setenv("TURN_TIMEOUT_SECONDS", "²")
    for command in (["play"], ["restore", "--from", "."], ["copy-database", "--from", "bot.sqlite3", "--to", "y.db"]):
        code, said = augsburg(command, capsys)
        assert code == 2 and one_line(said).startswith("TURN_TIMEOUT_SECONDS='²' is not a whole number")


def test_play_on_a_wrong_database_setting_names_the_setting(here, capsys, monkeypatch):
    monkeypatch.setenv("DATABASE_PATH", str(here / "missing" / "x.sqlite3"))
    code, said = augsburg(["play"], capsys)
    assert code == 2 and one_line(said).startswith(f"DATABASE_PATH={here}/missing/x.sqlite3: the folder")


def test_play_on_a_database_server_out_of_reach_says_the_game_did_not_start(here, capsys):
    code, said = augsburg(["play", "--database", "postgresql://augsburg@127.0.0.1:9/augsburg"], capsys)
    line = one_line(said)
    assert code == 1 and "Could not open the database postgresql://augsburg@127.0.0.1:9/augsburg" in line
    assert "The game did not start: check --database" in line and "nothing was applied" not in line


def test_copy_database_refuses_a_database_that_is_not_this_bots_and_creates_no_source(here, capsys):
    for source in ("other.db", "empty.db"):
        code, said = augsburg(["copy-database", "--from", source, "--to", "y.db"], capsys)
        assert code == 1 and "is not a database of this bot" in one_line(said), said
    assert not (here / "y.db").exists()


def test_copy_database_takes_the_sqlite_forms_its_help_shows(here, capsys):
    code, said = augsburg(["copy-database", "--from", "sqlite:///bot.sqlite3", "--to", "sqlite:///a.sqlite3"], capsys)
    assert code == 0 and "Copied bot.sqlite3 to a.sqlite3" in said, said
    code, said = augsburg(["copy-database", "--from", "a.sqlite3", "--to", f"sqlite:///{here / 'b.sqlite3'}"], capsys)
    assert code == 0 and f"to {here / 'b.sqlite3'}" in said, said
    help_text = subprocess.run([sys.executable, "-m", "bot.app.cli", "copy-database", "--help"], capture_output=True,
                               text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    flat = " ".join(help_text.split())
    assert "sqlite:///RELATIVE/PATH" in flat and "sqlite:////ABSOLUTE/PATH" in flat


@pytest.mark.parametrize("command", ["play", "simulate", "restore", "copy-database"])
def test_every_option_says_its_default(command, capsys):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    options = [word.strip("[]") for word in shown.split("options:")[1].split() if word.startswith("--")]
    flags = {"--help", "--resume", "--new", "--no-progress", "--force", "--from", "--to"}  # no default to say
    for option in set(options) - flags:
        after = shown.split("options:")[1].split(option, 1)[1].split(" --", 1)[0]
        assert "default" in after, (command, option, after)
    if command == "simulate":
        assert "ai" not in shown.split() and not shown.rstrip().endswith(":")


# --- the terminal game's own place, and simulate's progress


def test_play_keeps_its_games_in_the_users_data_folder_from_any_folder(here, capsys, monkeypatch):
    given = []
    monkeypatch.setattr("bot.terminal.game.main", lambda args, library: given.append(args) or 0)
    for folder in (here, here / "elsewhere"):
        folder.mkdir(exist_ok=True)
        monkeypatch.chdir(folder)
        assert augsburg(["play"], capsys)[0] == 0
    data = Path(os.environ["XDG_DATA_HOME"]) / "augsburg-bot" / "augsburg.sqlite3"
    assert [args.database for args in given] == [str(data), str(data)] and data.exists()
    assert given[0].program.endswith("augsburg play")  # the resume line: no --database the player did not give
    monkeypatch.setenv("DATABASE_PATH", "mine.sqlite3")  # configured: the bot's database
    assert augsburg(["play"], capsys)[0] == 0 and given[-1].database == "mine.sqlite3"
    assert augsburg(["play", "--database", "x.sqlite3"], capsys)[0] == 0 and given[-1].database == "x.sqlite3"
    assert given[-1].program.endswith("augsburg play --database x.sqlite3")


def test_simulate_draws_no_progress_into_a_pipe(tmp_path):
    out = run(["-m", "bot.app.cli", "simulate", "--players", "2", "--games", "2", "--level", "easy"], tmp_path)
    assert out.returncode == 0 and out.stderr == "" and out.stdout.startswith("games=2 ")


async def test_copy_database_refuses_a_postgresql_source_that_is_not_this_bots_and_creates_nothing(
        postgres_url, here, capsys, monkeypatch):
    from storage.postgres.database import table_names

    monkeypatch.setenv("DATABASE_RETRY_SECONDS", "0")  # a server out of reach: tried once

    code = await asyncio.to_thread(cli.main, ["copy-database", "--from", postgres_url, "--to", "y.db"])
    said = capsys.readouterr()
    assert code == 1 and "is not a database of this bot" in one_line(said.out + said.err)
    assert await table_names(postgres_url) == set() and not (here / "y.db").exists()
    code = await asyncio.to_thread(cli.main, ["copy-database", "--from", "bot.sqlite3", "--to",
                                              "postgresql://augsburg@127.0.0.1:9/augsburg"])
    said = capsys.readouterr()
    assert code == 1 and "Nothing was copied: PostgreSQL could not be reached" in one_line(said.out + said.err)
