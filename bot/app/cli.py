"""`augsburg`: the game without Discord, and putting back a backup of the bot's database.

augsburg play [--opponents N] [--level LEVEL[,LEVEL...]] [--resume | --new] [--database PATH] [--lang de|en|it]
              [--picture FILE] [--edition ID|FILE.toml]
augsburg simulate --players N --games G --level L --opponents O --seed S   (measure a computer level)
augsburg restore [--database PATH] [--from DIR] [--force]
augsburg copy-database --from URL --to URL   (move a bot's data, e.g. from SQLite to PostgreSQL)
augsburg replay FILE [--all] [--reveal] [--lang de|en|it]
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys

from engine.ai.levels import DEFAULT_LEVEL, LEVELS

from ..wording.languages import LANGUAGES

DATABASE = "./augsburg.sqlite3"


def levels(text: str) -> list[str]:
    """`--level`: one level for every computer seat, or one per seat separated by commas."""
    chosen = [part.strip().lower() for part in text.split(",")]
    wrong = [part for part in chosen if part not in LEVELS]
    if wrong:
        raise argparse.ArgumentTypeError(f"unknown level {wrong[0]!r} (choose from {', '.join(LEVELS)})")
    return chosen


def as_typed(argv0: str, database: str = DATABASE) -> str:
    """`augsburg play` as the player started it, for the lines that tell them how to go on: `augsburg` if their
    shell finds this very program by that name, else the path they typed (`.venv/bin/augsburg`), or
    `python -m bot.app.cli`; with the database they chose, if not the default."""
    if os.path.basename(argv0) in ("cli.py", "__main__.py"):
        program = f"{_found_as(sys.executable)} -m bot.app.cli"
    else:
        program = _found_as(argv0)
    return f"{program} play" + ("" if database == DATABASE else f" --database {shlex.quote(database)}")


def _found_as(path: str) -> str:
    """A program's name if the shell finds this very program by it, else its path (relative if it is under here)."""
    name = os.path.basename(path)
    if (found := shutil.which(name)) and os.path.realpath(found) == os.path.realpath(path):
        return name
    relative = os.path.relpath(path)
    return shlex.quote(path if relative.startswith("..") else relative)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="augsburg", description="Augsburg 1520 without Discord")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a game in the terminal against computer players")
    play.add_argument("--opponents", type=int, default=3, choices=range(1, 5), help="computer players (1-4)")
    play.add_argument("--level", type=levels, default=[DEFAULT_LEVEL], metavar="LEVEL[,LEVEL...]",
                      help=f"the computers' level ({', '.join(LEVELS)}; default {DEFAULT_LEVEL}), or one per "
                           "computer separated by commas")
    play.add_argument("--resume", action="store_true", help="continue the saved game")
    play.add_argument("--new", action="store_true", help="abandon a saved game and start a new one")
    play.add_argument("--database", default=None,
                      help="a SQLite file or a DATABASE_URL (default: the bot's: DATABASE_URL, else DATABASE_PATH)")
    play.add_argument("--seed", type=int, default=None, help="for a reproducible deal")
    play.add_argument("--name", default=None, help="your name at the table (default: 'Player' in your language)")
    play.add_argument("--picture", metavar="FILE", default=None,
                      help="write the table as a PNG picture to FILE whenever it changes")
    play.add_argument("--lang", choices=LANGUAGES, default=None, help="the game's language (default: the system's)")
    play.add_argument("--edition", metavar="ID|FILE.toml", default=None,
                      help="the components a new game is played with: an edition's id (shipped, or in "
                           "EDITIONS_DIR), or an edition file (default: DEFAULT_EDITION, else the shipped one)")
    sub.add_parser("simulate", help="measure a computer level against others", add_help=False)
    back = sub.add_parser("restore", help="put the newest good backup in place of a damaged database (bot stopped)")
    back.add_argument("--database", default=None, help="the damaged SQLite file (default: DATABASE_PATH)")
    back.add_argument("--from", dest="folder", default=None, help="the backups' folder (default: BACKUP_DIR)")
    back.add_argument("--force", action="store_true", help="restore even a database that passes its check")
    move = sub.add_parser("copy-database", help="copy every game, record and setting into an empty database "
                                                "(say, from SQLite to PostgreSQL), with the bot stopped")
    move.add_argument("--from", dest="source", required=True, metavar="URL",
                      help="the database to copy: sqlite:///FILE (or a file's path) or postgresql://...")
    move.add_argument("--to", dest="target", required=True, metavar="URL", help="an empty database to copy into")
    again = sub.add_parser("replay", help="play back a game exported with /augsburg records export, step by step")
    again.add_argument("file", help="the JSON file")
    again.add_argument("--all", action="store_true", help="print every move at once instead of stepping")
    again.add_argument("--reveal", action="store_true", help="show every hand too (a finished game only)")
    again.add_argument("--lang", choices=LANGUAGES, default=None, help="the language (default: the system's)")
    args, rest = parser.parse_known_args(argv)
    if args.command == "simulate":
        from engine.ai.simulate import main as simulate

        return simulate(rest) or 0
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "replay":
        from ..terminal.replay import main as replay_main

        return replay_main(args)
    if args.command == "copy-database":
        from .moving import copy_command

        return copy_command(args.source, args.target)
    if args.command == "restore":
        from .backups import restore_command
        from .config import Settings

        settings = Settings()
        return restore_command(args.database or settings.database, args.folder or settings.backup_dir, args.force)
    if args.resume and args.new:
        parser.error("choose --resume or --new, not both")
    if len(args.level) == 1:
        args.level = args.level * args.opponents
    elif len(args.level) != args.opponents:
        parser.error(f"--level names {len(args.level)} levels for {args.opponents} computer players: "
                     "give one for all, or one for each")
    # The resume line names --database only as the player gave it (a URL's password is theirs to type again).
    args.program = as_typed(sys.argv[0] if argv is None else "augsburg", args.database or DATABASE)
    from ..terminal.game import main as play_main
    from .config import Settings, editions_of

    settings = Settings()
    if args.database is None:
        args.database = settings.database
    return play_main(args, editions_of(settings))


if __name__ == "__main__":
    sys.exit(main())
