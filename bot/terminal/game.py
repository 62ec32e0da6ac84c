"""`augsburg play`: you against 1-4 computer players, through the same game service as the Discord bot.

The game is kept in the bot's database (its SQLite file, or its PostgreSQL) under channel 0, so it can be
stopped and resumed. You see only your own view.
"""

from __future__ import annotations

import argparse
import asyncio
import locale
import os
import sys
from typing import TextIO

from engine import GameState
from engine.ai.levels import DEFAULT_LEVEL
from engine.components import JOKER
from engine.edition import EditionError
from engine.editions import Library, read_file
from storage import GameNotPlayable, GameQuarantined, GameRecord, Seat, StorageUnavailable, Table

from ..service import GameService, Outcome
from ..wording import ENGLISH, People, Words, log, moves, notices, phases, rules, views
from ..wording import terminal as words
from ..wording import words as language
from ..wording.table import people_at
from .picture import Picture
from .screen import STOPPED, UNDO, Terminal

GUILD = CHANNEL = 0  # the terminal's "server" and "channel" in the database
YOU = "you"


async def play(service: GameService, term: Terminal, *, opponents: int, resume: bool, fresh: bool,
               seed: int | None = None, name: str | None = None, picture: str | None = None,
               levels: list[str] | None = None, edition: str | None = None) -> int:
    """`levels`: each computer's level (one for all, or one each); `edition`: the id of the edition of the
    service's library a new game is played with (None: its default). A resumed game keeps its own."""
    return await _play(service, term, opponents, resume, fresh, seed, name, picture, levels, edition)


async def _play(service: GameService, term: Terminal, opponents: int, resume: bool, fresh: bool, seed: int | None,
                name: str | None, picture: str | None, levels: list[str] | None, edition: str | None) -> int:
    w = term.w
    name = name or words.default_name(w)  # in the player's language unless they gave one
    drawn = Picture(picture, w, lambda record: _people(w, record.table), term.say)
    where = saved_where(service)
    try:
        record = await service.games.current(CHANNEL)
    except GameQuarantined:
        term.say(words.damaged(w, term.command('--new')))
        record = None
        if not fresh:
            return 1
    except GameNotPlayable as exc:  # kept for when its edition is back: nothing may replace it meanwhile
        term.say(notices.not_playable(w, exc.game_id, exc.edition))
        return 1
    if record is not None and record.status == "active" and not (resume or fresh):
        term.say(words.unfinished(w, term.command('--resume'), term.command('--new')))
        return 1
    if record is not None and (fresh or record.status == "lobby"):  # a lobby is a start that never finished
        await service.lobby.cancel(CHANNEL, YOU, can_manage=True)
        record = None
    you = Seat(id=YOU, name=name)
    opening: Outcome | None = None  # a new game's first events, told under its heading
    if record is None:
        last = await _last_game(service) if resume else None
        if last is not None and last.status in ("finished", "abandoned"):  # over: not a new game of other settings
            term.say(words.last_game_over(w))
            opening = await _rematch(service, last, you)
        else:
            if resume:
                term.say(words.nothing_to_resume(w))
            opening = await _start(service, you, opponents, seed, levels or [DEFAULT_LEVEL], edition)
        record = _game(opening)
    else:
        term.say(words.resuming(w, _state(record).round))
    term.say(words.saved_in(w, where))
    term.say(words.help_hint(w))
    while True:
        people, refused, jokers_told = _people(w, record.table), False, False
        decided = True  # you may have a decision to take back (asked only once you have decided something)
        term.on_stop = words.stopped(w, term.command('--resume'), where)
        term.say(words.opponents(w, [(people.name(s.id), s.level) for s in record.table.seats if s.kind == "computer"]))
        term.say(rules.edition_line(w, _state(record).edition))
        if opening is not None:
            _show(term, opening, YOU)
        await drawn.update(record, service)
        while record.status == "active":
            yours = service.games.decision(record, YOU)  # your only option is taken for you, as in Discord
            if yours.due and yours.made is None:
                view = yours.view
                term.say()
                term.say(words.board(w, view, _people(w, record.table, words.NAME_LIMIT), term.width, not jokers_told))
                jokers_told = jokers_told or JOKER in views.you(view).hand
                term.say(words.your_move(w, phases.your_move(w, view, people)))
                undo = decided and await service.undo.can_take_back(CHANNEL, YOU)  # as Discord's Undo (engine/undo.py)
                action = term.ask(view, list(yours.options), people, auto=not refused, undo=undo)
                outcome: Outcome | None
                if action is None:
                    term.say(words.input_ended(w, term.command('--resume'), where))
                    return 0
                if action is UNDO:
                    outcome = await service.undo.take_back(CHANNEL, record.id, YOU, None)
                else:
                    outcome = await service.decisions.act(CHANNEL, record.id, YOU, None, action)
                if outcome.ok:  # a decision of yours that may be taken back, or one taken back (maybe another is)
                    decided = outcome.undo is not None or action is UNDO
            else:
                made = yours.made if yours.made is not None and not yours.made.waiting else None
                label = moves.made_label(w, made.action, yours.view, people) if made is not None else None
                thinker = service.decisions.thinker(CHANNEL)
                if thinker is not None:  # a strong computer may take a few seconds
                    term.status(words.thinking(w, people.name(thinker)))
                outcome = await service.decisions.play_computer(CHANNEL)
                term.clear_status()
                if outcome is not None and outcome.ok and outcome.player == YOU and label is not None:
                    # (`label` is there then: the bot moves you only with the move `made` names)
                    term.say(words.only_choice(w, label))
            if outcome is None or outcome.notice is not None and outcome.notice.code == "raced":
                term.say(words.changed_elsewhere(w))
                return 1
            refused = not outcome.ok
            if refused:  # the next prompt asks even for a single option, so that a refusal cannot repeat forever
                assert outcome.notice is not None  # a refusal says why
                term.say(words.refused(w, notices.notice(w, outcome.notice.code, outcome.notice.params, people)))
                continue
            _show(term, outcome, YOU)
            record = _game(outcome)
            await drawn.update(record, service)
        term.on_stop = None  # the game is over: nothing is left to resume
        _final(term, record, _people(w, record.table, words.NAME_LIMIT))
        answer = term.read(words.again_prompt(w))
        if answer is None or not words.is_yes(w, answer):
            return 0
        opening = await _rematch(service, record, you)
        record = _game(opening)
        term.say(words.rematch_started(w))


async def _last_game(service: GameService) -> GameRecord | None:
    """The terminal's last game, if it can still be read (a damaged one is set aside, not played again)."""
    try:
        return await service.games.last_game(CHANNEL)
    except (GameQuarantined, GameNotPlayable):
        return None


def saved_where(service: GameService) -> str:
    """Where the game is kept, as the player can find it: a SQLite file's full path, or the database's URL
    without its password."""
    return os.path.abspath(service.where) if service.kind == "sqlite" else service.where


async def _start(service: GameService, you: Seat, opponents: int, seed: int | None, levels: list[str],
                 edition: str | None) -> Outcome:
    record = _game(await service.lobby.open_table(GUILD, CHANNEL, you, clock=False))  # you play at your pace
    if edition is not None:
        chosen = await service.lobby.set_edition(CHANNEL, record.id, YOU, edition)
        assert chosen.ok, chosen.notice
    for number in range(opponents):
        added = await service.lobby.add_computer(CHANNEL, record.id, YOU, levels[number % len(levels)])
        assert added.ok, added.notice
    return await service.lobby.start(CHANNEL, record.id, YOU, seed=seed)


async def _rematch(service: GameService, finished: GameRecord, you: Seat) -> Outcome:
    """The same computers at their levels, with the same edition, dealt anew (as Discord's Rematch)."""
    lobby = await service.lobby.rematch(GUILD, CHANNEL, finished.id, you)
    assert lobby.ok, lobby.notice
    started = await service.lobby.start(CHANNEL, _game(lobby).id, YOU)
    assert started.ok, started.notice
    return started


def _game(outcome: Outcome) -> GameRecord:
    """The game a request went through with (its outcome carries it)."""
    assert outcome.record is not None, outcome.notice
    return outcome.record


def _state(record: GameRecord) -> GameState:
    """A started game's state (only a lobby has none)."""
    assert record.state is not None, record.status
    return record.state


def _people(w: Words, table: Table, limit: int | None = None) -> People:
    """Names at the table, yours marked as you; for a column, each cut to `limit` (before the mark)."""
    seated = people_at(w, table)

    def name(p: str) -> str:
        text = words.short_name(seated.name(p), limit) if limit else seated.name(p)
        return words.your_name(w, text) if p == YOU else text

    return People(name=name)


def _show(term: Terminal, outcome: Outcome, player: str) -> None:
    record = _game(outcome)
    told = [e for e in outcome.events if e.type != "offered_cards"]  # the question to buy them lists them
    for line in log.lines(term.w, told, _people(term.w, record.table), player, ed=_state(record).edition):
        term.say(f"  · {line}")


def _final(term: Terminal, record: GameRecord, people: People) -> None:
    state = _state(record)
    assert state.winners is not None  # the game is over
    term.say(words.final(term.w, {p.id: p.score for p in state.players}, state.winners, people))
    term.say(words.verdict(term.w, YOU in state.winners))


async def run(database: str, opponents: int, resume: bool, fresh: bool, seed: int | None, stdin: TextIO = sys.stdin,
              stdout: TextIO = sys.stdout, name: str | None = None, w: Words = ENGLISH, picture: str | None = None,
              levels: list[str] | None = None, edition: str | None = None, library: Library | None = None,
              command: str = "augsburg play") -> int:
    """`edition`: an edition's id in `library` (the shipped ones and EDITIONS_DIR's), or an edition file;
    `command`: how the player started the game, for the lines that tell them how to go on."""
    term = Terminal(stdin, stdout, w, command)
    library = library or Library()
    if edition is not None and edition.endswith(".toml"):
        try:
            chosen = read_file(edition)
        except (OSError, EditionError) as exc:
            term.say(words.bad_edition(w, str(exc)))
            return 2
        library = Library([*library.editions(), chosen], library.default_id)
        edition = chosen.id
    if edition is not None and library.get(edition) is None:
        term.say(words.unknown_edition(w, edition, [e.id for e in library.editions()]))
        return 2
    # A strong computer thinks on a thread, while the terminal waits.
    service = await GameService.open(database, editions=library)
    try:
        return await play(service, term, opponents=opponents, resume=resume, fresh=fresh, seed=seed, name=name,
                          picture=picture, levels=levels, edition=edition)
    except (KeyboardInterrupt, asyncio.CancelledError):  # Ctrl-C: at a prompt, or while the computers move
        term.say()
        if term.on_stop is not None:
            term.say(term.on_stop)
        raise
    finally:
        await service.close()


def main(args: argparse.Namespace, library: Library) -> int:
    """`augsburg play` with its parsed arguments (bot/app/cli.py); `library`: the editions the settings offer."""
    w = language(args.lang or locale.getlocale(locale.LC_MESSAGES)[0] or os.environ.get("LANG"))
    command = getattr(args, "program", "augsburg play")
    try:
        return asyncio.run(run(args.database, args.opponents, args.resume, args.new, args.seed, name=args.name,
                               w=w, picture=getattr(args, "picture", None), levels=getattr(args, "level", None),
                               edition=getattr(args, "edition", None), library=library, command=command))
    except KeyboardInterrupt:  # what was stopped is said by `run`
        return STOPPED
    except StorageUnavailable:  # PostgreSQL out of reach for longer than its retries: nothing was applied
        print(notices.notice(w, "not_stored", {}, People(name=str)))
        return 1
    except BrokenPipeError:  # the reader went away (e.g. piped into `head`); the game is saved
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # as the Python docs advise
        return 0
