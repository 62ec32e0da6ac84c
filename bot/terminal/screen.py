"""Reading choices and writing text in a terminal; works with piped input too.

Ctrl-C: `asyncio.run` answers SIGINT by cancelling the game's task, which only
takes effect once the task awaits something; a prompt blocks in `readline`
(the loop is ours alone, so it reads on the loop's thread), so the first
Ctrl-C waited for Enter and only a second one (which raises KeyboardInterrupt)
stopped the game. While a prompt waits, Ctrl-C raises KeyboardInterrupt at once.
"""

from __future__ import annotations

import asyncio
import shutil
import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from typing import Final, TextIO

from engine import View
from engine.actions import (
    ActionModel,
    Buy,
    BuyChoice,
    Discard,
    LegalOption,
    ReturnCard,
    Reveal,
    RevealChoice,
    TakeCard,
)
from engine.edition import Edition

from ..wording import People, Words, explain, moves, names
from ..wording import terminal as words


class Undo(Enum):
    UNDO = "undo"


UNDO: Final = Undo.UNDO  # what `ask` answers when you chose to take back your last decision
UNDO_KEY = "u"
STOPPED = 130  # the exit status of a program stopped with Ctrl-C (128 + SIGINT), as shells report it
# What `ask` answers: an action, UNDO, or None at the end of input.
Answer = ActionModel | Undo | None


class Terminal:
    """Reads choices and writes the board; `read` returns None at end of input."""

    def __init__(self, stdin: TextIO, stdout: TextIO, w: Words, command: str = "augsburg play"):
        self.stdin, self.stdout, self.w = stdin, stdout, w
        self._command = command  # how the player started the game: the lines on how to go on name it so
        self.width = shutil.get_terminal_size((words.WIDTH, 24)).columns  # long lines are broken between words
        self._undo = False  # whether the question being asked offers "u"
        self._help: tuple[View, Sequence[LegalOption]] | None = None  # the decision being asked, for its help
        self._status = False  # a passing line is on screen (`status`), to be cleared by the next output
        self.on_stop: str | None = None  # what is said if the player stops the game with Ctrl-C

    def command(self, option: str) -> str:
        """The game's command as the player typed it, with `option` ('--resume'): it works as typed."""
        return f"{self._command} {option}"

    def say(self, text: str = "") -> None:
        self.clear_status()
        text = "\n".join(words.wrapped(line, self.width) for line in text.split("\n"))
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def status(self, text: str) -> None:
        """A passing line (a computer is thinking): on a terminal it stays until the next output replaces
        it; elsewhere (a pipe, a file) it is a line like any other."""
        if not _is_terminal(self.stdout):
            self.say(text)
            return
        self.clear_status()
        self.stdout.write(words.short_name(text, max(self.width - 1, 1)))
        self.stdout.flush()
        self._status = True

    def clear_status(self) -> None:
        if self._status:
            self.stdout.write("\r\x1b[K")  # back to the line's start, and the line cleared
            self._status = False

    def read(self, prompt: str) -> str | None:
        self.clear_status()
        self.stdout.write(prompt)
        self.stdout.flush()
        with _interruptible():
            line = self.stdin.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def ask(self, view: View, options: Sequence[LegalOption], people: People, *, auto: bool = True,
            undo: bool = False) -> Answer:
        """Ask until the answer is a legal action; None at end of input. A single option is taken
        without asking (unless `auto` is off, after a refusal, or `undo`). `undo`: "u" is offered too, to
        take back your last decision (answered with UNDO)."""
        self._undo, self._help = undo, (view, options)
        first, ed = options[0], view.edition
        if isinstance(first, RevealChoice):
            self.say(words.sentence(moves.reveal_prompt(self.w, first.count)))
            return self._ask_cards(names.in_hand_order(first.cards, ed), first.count, first.suggested, ed)
        if isinstance(first, BuyChoice):
            return self._ask_buy(first, ed)
        # Actions, then: a choice descriptor is the only option when there is one (asked above).
        actions: Sequence[ActionModel] = [o for o in options if not isinstance(o, RevealChoice | BuyChoice)]
        cards = [o for o in actions if isinstance(o, Discard | ReturnCard)]
        if len(cards) == len(actions):  # cards of the hand: in its order
            order = names.hand_order(ed)
            cards.sort(key=lambda o: order(o.card))
            actions = cards
        labelled: dict[str, ActionModel] = {}  # two privileges alike on one card do the same: one line
        for option in actions:
            label = words.privilege_card(self.w, option.card, view) if isinstance(option, TakeCard) else \
                moves.action(self.w, option, view, people, slots=False)  # a card by its number, as on the picture
            labelled.setdefault(label, option)
        if len(labelled) == 1 and auto and not undo:
            label, only = next(iter(labelled.items()))  # (the first option, or one equal to it)
            self.say(words.only_choice(self.w, label))
            return only
        numbered = dict(enumerate(labelled.items(), start=1))
        for number, (label, _) in numbered.items():
            self.say(f"  {number}. {label}")
        self._offer_undo()
        while True:
            answer = self.read(words.pick_one(self.w, len(numbered)))
            if answer is None or self._undo and answer.lower() == UNDO_KEY:
                return None if answer is None else UNDO
            if self._helped(answer, explain.ASK_NUMBER):
                continue
            chosen = _number(answer)
            if chosen is not None and chosen in numbered:
                return numbered[chosen][1]
            self.say(words.not_a_number(self.w, len(numbered)))

    def _ask_cards(self, cards: list[str], count: int, suggested: list[str], ed: Edition) -> Reveal | Undo | None:
        self._list(cards, ed)
        self._offer_undo()
        while True:
            answer = self.read(words.pick_cards(self.w, suggested))
            if answer is None or self._undo and answer.lower() == UNDO_KEY:
                return None if answer is None else UNDO
            if self._helped(answer, explain.ASK_CARDS):
                continue
            if not answer and suggested:
                return Reveal(cards=list(suggested))  # in the engine's order; the same cards
            picked = _numbers(answer, len(cards))
            if picked is None or len(picked) != count:
                self.say(words.wrong_cards(self.w, count))
                continue
            return Reveal(cards=[cards[i] for i in picked])

    def _ask_buy(self, choice: BuyChoice, ed: Edition) -> Buy | Undo | None:
        self.say(words.buy_question(self.w, choice.budget))
        offered = names.in_hand_order(choice.offered, ed)
        self._list(offered, ed)
        self._offer_undo()
        while True:
            answer = self.read(words.pick_purchase(self.w))
            if answer is None or self._undo and answer.lower() == UNDO_KEY:
                return None if answer is None else UNDO
            if self._helped(answer, explain.ASK_BUY):
                continue
            picked = _numbers(answer, len(offered)) if answer else []
            if picked is None:
                self.say(words.not_numbers(self.w))
                continue
            cards = [offered[i] for i in picked]
            cost = sum(ed.card_price[c] for c in cards)
            if cost > choice.budget:
                self.say(words.too_dear(self.w, cost, choice.budget))
                continue
            return Buy(cards=cards)

    def _helped(self, answer: str, asked: str) -> bool:
        """Whether `answer` asks for help (then it is shown: the question is asked again)."""
        if self._help is None or answer.casefold() not in explain.words_for_help(self.w):
            return False
        view, options = self._help
        self.say(explain.decision(self.w, view, options, asked, self._undo))
        return True

    def _offer_undo(self) -> None:
        if self._undo:
            self.say(f"  {UNDO_KEY}. {words.undo_option(self.w)}")

    def _list(self, cards: list[str], ed: Edition) -> None:
        for i, card in enumerate(cards, start=1):
            self.say(f"  {i}. {names.card_with_price(self.w, card, ed)}")


def _number(text: str) -> int | None:
    """A typed number (digits of any script, as int() reads them); None for anything else, such as '²' or '½'
    (digits to str.isdigit(), which int() refuses)."""
    return int(text) if text.isdecimal() else None


def _numbers(answer: str, size: int) -> list[int] | None:
    parts = [_number(p) for p in answer.replace(",", " ").split()]
    numbers = [n for n in parts if n is not None and 1 <= n <= size]
    if len(numbers) != len(parts) or len(set(numbers)) != len(numbers):
        return None
    return [n - 1 for n in numbers]


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed stream, or one that is no file
        return False


@contextmanager
def _interruptible() -> Iterator[None]:
    """While a prompt waits for a line, Ctrl-C raises KeyboardInterrupt (see the module's docstring)."""
    handler = signal.getsignal(signal.SIGINT)
    ours = threading.current_thread() is threading.main_thread() and callable(handler) and (
        handler is not signal.default_int_handler)  # asyncio's; an ignored Ctrl-C stays ignored
    if ours:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if _interrupted():  # a Ctrl-C that came before the prompt
            raise KeyboardInterrupt
        yield
    finally:
        if ours:
            signal.signal(signal.SIGINT, handler)


def _interrupted() -> bool:
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no event loop: called outside the game's task
        return False
    return task is not None and task.cancelling() > 0
