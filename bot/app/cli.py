"""`augsburg`: the game without Discord, and putting back a backup of the bot's database.

augsburg play [--opponents N] [--level LEVEL[,LEVEL...]] [--resume | --new] [--database FILE|URL] [--lang de|en|it]
              [--picture FILE] [--edition ID|FILE.toml]
augsburg simulate --players N --games G --level L --opponents O --seed S   (measure a computer level)
augsburg restore [--database PATH] [--from DIR] [--force]
augsburg copy-database --from URL --to URL   (move a bot's data, e.g. from SQLite to PostgreSQL)
augsburg replay FILE [--all] [--reveal] [--lang de|en|it]

What is wrong on the command line, in a setting or with a place (a missing folder, a file that is no
database) is one line on stderr naming it, before anything starts: status 2, as argparse's usage errors.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from engine.ai.levels import DEFAULT_LEVEL, LEVELS

from ..wording.languages import LANGUAGES
from .preflight import database_refused, file_refused, given, reached

if TYPE_CHECKING:
    from .config import Settings

def levels(text: str) -> list[str]:
    """`--level`: one level for every computer seat, or one per seat separated by commas."""
    chosen = [part.strip().lower() for part in text.split(",")]
    wrong = [part for part in chosen if part not in LEVELS]
    if wrong:
        raise argparse.ArgumentTypeError(f"unknown level {wrong[0]!r} (choose from {', '.join(LEVELS)})")
    return chosen


def as_typed(argv0: str, database: str | None = None) -> str:
    """`augsburg play` as the player started it, for the lines that tell them how to go on: `augsburg` if their
    shell finds this very program by that name, else the path they typed (`.venv/bin/augsburg`), or
    `python -m bot.app.cli`; with the database they gave (--database), if they gave one."""
    if os.path.basename(argv0) in ("cli.py", "__main__.py"):
        program = f"{_found_as(sys.executable)} -m bot.app.cli"
    else:
        program = _found_as(argv0)
    return f"{program} play" + ("" if database is None else f" --database {shlex.quote(database)}")


def _found_as(path: str) -> str:
    """A program's name if the shell finds this very program by it, else its path (relative if it is under here)."""
    name = os.path.basename(path)
    if (found := shutil.which(name)) and os.path.realpath(found) == os.path.realpath(path):
        return name
    relative = os.path.relpath(path)
    return shlex.quote(path if relative.startswith("..") else relative)


DATABASE_FORMS = ("a SQLite file's path, sqlite:///RELATIVE/PATH or sqlite:////ABSOLUTE/PATH (four slashes), or "
                  "postgresql://USER:PASSWORD@HOST/DB")


def arguments() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The `augsburg` command's parser, and each subcommand's (for usage errors in the subcommand's own words)."""
    from engine.ai.simulate import arguments as simulate_arguments
    from engine.ai.simulate import whole

    parser = argparse.ArgumentParser(prog="augsburg", description="Augsburg 1520 without Discord: the game in the"
                                     " terminal, and tools for the bot's database. `augsburg COMMAND --help` tells"
                                     " each command's options.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    play = sub.add_parser("play", help="play a game in the terminal against computer players",
                          description="Play a game in the terminal against computer players. The game is saved"
                                      " after every move: stop at any time and go on with --resume.")
    play.add_argument("--opponents", type=whole, default=3, choices=range(1, 5), metavar="N",
                      help="computer players, 1 to 4 (default: 3)")
    play.add_argument("--level", type=levels, default=[DEFAULT_LEVEL], metavar="LEVEL[,LEVEL...]",
                      help=f"the computers' level ({', '.join(LEVELS)}; default {DEFAULT_LEVEL}), or one per "
                           "computer separated by commas")
    again_or_new = play.add_mutually_exclusive_group()
    again_or_new.add_argument("--resume", action="store_true", help="continue the saved game")
    again_or_new.add_argument("--new", action="store_true", help="abandon a saved game and start a new one")
    play.add_argument("--database", default=None, metavar="FILE|URL",
                      help=f"where the game is saved: {DATABASE_FORMS} (default: DATABASE_URL, else DATABASE_PATH,"
                           " else augsburg.sqlite3 in your data folder, the same from any folder)")
    play.add_argument("--seed", type=whole, default=None, help="a whole number, for a reproducible deal"
                           " (default: a new deal each game)")
    play.add_argument("--name", default=None, help="your name at the table (default: 'Player' in your language)")
    play.add_argument("--picture", metavar="FILE", default=None,
                      help="write the table as a PNG picture to FILE whenever it changes (default: none)")
    play.add_argument("--lang", choices=LANGUAGES, default=None, help="the game's language (default: the system's)")
    play.add_argument("--edition", metavar="ID|FILE.toml", default=None,
                      help="the components a new game is played with: an edition's id (shipped, or in "
                           "EDITIONS_DIR), or an edition file (default: DEFAULT_EDITION, else the shipped one)")
    measure = sub.add_parser("simulate", help="measure a computer level against others")
    simulate_arguments(measure)
    back = sub.add_parser("restore", help="put the newest good backup in place of a damaged database (bot stopped)")
    back.add_argument("--database", default=None, metavar="FILE",
                      help="the damaged SQLite file (default: DATABASE_URL, else DATABASE_PATH, else "
                           "./augsburg.sqlite3)")
    back.add_argument("--from", dest="folder", default=None, metavar="DIR",
                      help="the backups' folder (default: BACKUP_DIR)")
    back.add_argument("--force", action="store_true", help="restore even a database that passes its check")
    move = sub.add_parser("copy-database", help="copy every game, record and setting into an empty database "
                                                "(say, from SQLite to PostgreSQL), with the bot stopped")
    move.add_argument("--from", dest="source", required=True, metavar="URL",
                      help=f"the bot's database to copy: {DATABASE_FORMS}")
    move.add_argument("--to", dest="target", required=True, metavar="URL",
                      help="an empty database to copy into, in the same forms (a SQLite file is created)")
    again = sub.add_parser("replay", help="play back a game exported with /augsburg records export, step by step")
    again.add_argument("file", help="the JSON file")
    again.add_argument("--all", action="store_true", help="print every move at once instead of stepping")
    again.add_argument("--reveal", action="store_true", help="show every hand too (a finished game only)")
    again.add_argument("--lang", choices=LANGUAGES, default=None, help="the language (default: the system's)")
    return parser, {"play": play, "simulate": measure, "restore": back, "copy-database": move, "replay": again}


def settings_or_say() -> Settings | None:
    """The settings, or None once the line saying which are wrong is on stderr."""
    from .config import WrongSettings, read_settings

    try:
        return read_settings()
    except WrongSettings as wrong:
        print(wrong, file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    parser, commands = arguments()
    args, rest = parser.parse_known_args(argv)
    command = commands[args.command]
    if rest:  # (argparse would say so with the top-level usage; the subcommand's says what it takes)
        command.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "simulate":
        from engine.ai.simulate import simulate

        return simulate(args)
    if args.command == "replay":
        from ..terminal.replay import main as replay_main

        return replay_main(args)
    settings = settings_or_say()
    if settings is None:
        return 2
    if args.command == "copy-database":
        from .moving import copy_command

        for where, named, existing in ((args.source, "--from", True), (args.target, "--to", False)):
            if refused := database_refused(where, named, must_exist=existing):
                command.error(refused)
        return copy_command(args.source, args.target, settings)
    if args.command == "restore":
        from .backups import restore_command

        database, named = (args.database, "--database") if args.database else (settings.database,
                                                                              settings.database_setting)
        if refused := database_refused(database, named, damaged=True):
            command.error(refused)
        folder, named = (args.folder, "--from") if args.folder else (settings.backup_dir, "BACKUP_DIR")
        if folder and not Path(folder).is_dir():
            command.error(f"{given(named, folder)} is not a folder of backups: "
                          f"{'it does not exist' if not Path(folder).exists() else 'it is a file'}.")
        return restore_command(database, folder, args.force)
    return play(args, command, settings, sys.argv[0] if argv is None else "augsburg")


def play(args: argparse.Namespace, command: argparse.ArgumentParser, settings: Settings, argv0: str) -> int:
    """`augsburg play`: its options checked, its database found (args.database: the path or URL the game is
    saved in, for the terminal to say), then the game (bot/terminal/game.py)."""
    if len(args.level) == 1:
        args.level = args.level * args.opponents
    elif len(args.level) != args.opponents:
        command.error(f"--level names {len(args.level)} levels for {args.opponents} computer players: "
                      "give one for all, or one for each")
    if args.picture is not None and (refused := file_refused(args.picture, "--picture")):
        command.error(refused)
    # The resume line names --database only as the player gave it (a URL's password is theirs to type again).
    args.program = as_typed(argv0, args.database)
    from .config import editions_of, play_database

    if args.database is not None:
        named = "--database"
    else:
        try:
            args.database, named = play_database(settings)
        except OSError as exc:  # the data folder cannot be made
            print(f"Could not make the folder for your games ({exc}): name a file with --database FILE.",
                  file=sys.stderr)
            return 2
    if refused := database_refused(args.database, named):
        if named == "--database":
            command.error(refused)
        print(refused, file=sys.stderr)
        return 2
    if refused := asyncio.run(reached(args.database, named, "The game")):
        print(refused, file=sys.stderr)
        return 1
    from ..terminal.game import main as play_main

    return play_main(args, editions_of(settings))


if __name__ == "__main__":
    sys.exit(main())
