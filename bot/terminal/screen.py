"""Reading choices and writing text in a terminal; works with piped input too.

Ctrl-C: `asyncio.run` answers SIGINT by cancelling the game's task, which only
takes effect once the task awaits something; a prompt blocks in `readline`
(the loop is ours alone, so it reads on the loop's thread), so the first
Ctrl-C waited for Enter and only a second one (which raises KeyboardInterrupt)
stopped the game. While a prompt waits, Ctrl-C raises KeyboardInterrupt at once.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from contextlib import contextmanager
from typing import TextIO

from engine import View
from engine.actions import Buy, BuyChoice, Discard, ReturnCard, Reveal, RevealChoice

from ..wording import People, Words, moves, names
from ..wording import terminal as words


class Terminal:
    """Reads choices and writes the board; `read` returns None at end of input."""

    def __init__(self, stdin: TextIO, stdout: TextIO, w: Words):
        self.stdin, self.stdout, self.w = stdin, stdout, w
        self._numbers = Numbering()

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def read(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        with _interruptible():
            line = self.stdin.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def ask(self, view: View, options: list, people: People, *, auto: bool = True):
        """Ask until the answer is a legal action; None at end of input. A single option is taken
        without asking (unless `auto` is off, after a refusal)."""
        first, ed = options[0], view.edition
        if isinstance(first, RevealChoice):
            self.say(moves.reveal_prompt(self.w, first.count))
            return self._ask_cards(names.in_hand_order(first.cards, ed), first.count, first.suggested, ed)
        if isinstance(first, BuyChoice):
            return self._ask_buy(first, ed)
        if all(isinstance(o, Discard | ReturnCard) for o in options):
            order = names.hand_order(ed)
            options = sorted(options, key=lambda o: order(o.card))
        if len(options) == 1 and auto:
            self.say(words.only_choice(self.w, moves.action(self.w, first, view, people)))
            return first
        numbered = self._numbers.number(view, options)
        for number, option in numbered.items():
            self.say(f"  {number}. {moves.action(self.w, option, view, people)}")
        listed = list(numbered)
        while True:
            answer = self.read(words.pick_numbered(self.w, listed))
            if answer is None:
                return None
            if answer.isdigit() and int(answer) in numbered:
                return numbered[int(answer)]
            self.say(words.not_listed(self.w, listed))

    def _ask_cards(self, cards: list[str], count: int, suggested: list[str], ed):
        self._list(cards, ed)
        while True:
            answer = self.read(words.pick_cards(self.w, suggested))
            if answer is None:
                return None
            if not answer and suggested:
                return Reveal(cards=list(suggested))  # in the engine's order; the same cards
            picked = _numbers(answer, len(cards))
            if picked is None or len(picked) != count:
                self.say(words.wrong_cards(self.w, count))
                continue
            return Reveal(cards=[cards[i] for i in picked])

    def _ask_buy(self, choice: BuyChoice, ed):
        self.say(words.buy_question(self.w, choice.budget))
        offered = names.in_hand_order(choice.offered, ed)
        self._list(offered, ed)
        while True:
            answer = self.read(words.pick_purchase(self.w))
            if answer is None:
                return None
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

    def _list(self, cards: list[str], ed) -> None:
        for i, card in enumerate(cards, start=1):
            self.say(f"  {i}. {names.card_with_price(self.w, card, ed)}")


def _numbers(answer: str, size: int) -> list[int] | None:
    parts = answer.replace(",", " ").split()
    if not all(p.isdigit() and 1 <= int(p) <= size for p in parts) or len(set(parts)) != len(parts):
        return None
    return [int(p) - 1 for p in parts]


class Numbering:
    """Stable option numbers while you use one privilege card.

    Using a privilege removes its options (and may add some: a step now taken from a
    player, the Master Builder's buildings); renumbering 1..n would make "3" mean
    something else than a moment ago. So within one card's turn an option keeps the
    number it was first shown with, and a new option gets the next number never used
    in that turn. Every other decision is numbered 1..n afresh.
    """

    def __init__(self):
        self._turn: tuple | None = None
        self._given: dict = {}

    def number(self, view: View, options: list) -> dict[int, object]:
        """{number: option}, in the order of the numbers."""
        turn = _privilege_turn(view)
        if turn is None:
            return dict(enumerate(options, start=1))
        if turn != self._turn:
            self._turn, self._given = turn, {}
        for option in options:
            if option not in self._given:
                self._given[option] = max(self._given.values(), default=0) + 1
        return dict(sorted((self._given[o], o) for o in options))


def _privilege_turn(view: View) -> tuple | None:
    """Which card's turn of privileges the options belong to; None for any other decision."""
    t = view.privilege
    if t is None or t.awaiting != "privileges" or t.player != view.you.id:
        return None
    return (view.round, view.noble, t.card)


@contextmanager
def _interruptible():
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
