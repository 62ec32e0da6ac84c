"""Reading choices and writing text in a terminal; works with piped input too."""

from __future__ import annotations

from typing import TextIO

from engine import View
from engine.actions import Buy, BuyChoice, Reveal, RevealChoice
from engine.components import CARD_PRICE

from ..wording import People, Words, moves, names
from ..wording import terminal as words


class Terminal:
    """Reads choices and writes the board; `read` returns None at end of input."""

    def __init__(self, stdin: TextIO, stdout: TextIO, w: Words):
        self.stdin, self.stdout, self.w = stdin, stdout, w

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def read(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def ask(self, view: View, options: list, people: People):
        """Ask until the answer is a legal action; None at end of input."""
        first = options[0]
        if isinstance(first, RevealChoice):
            self.say(moves.reveal_prompt(self.w, first.count))
            return self._ask_cards(first.cards, first.count, first.suggested)
        if isinstance(first, BuyChoice):
            return self._ask_buy(first)
        for i, option in enumerate(options, start=1):
            self.say(f"  {i}. {moves.action(self.w, option, view, people)}")
        while True:
            answer = self.read(words.pick_one(self.w, len(options)))
            if answer is None:
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            self.say(words.not_a_number(self.w, len(options)))

    def _ask_cards(self, cards: list[str], count: int, suggested: list[str]):
        self._list(cards)
        while True:
            answer = self.read(words.pick_cards(self.w, suggested))
            if answer is None:
                return None
            if not answer and suggested:
                return Reveal(cards=list(suggested))
            picked = _numbers(answer, len(cards))
            if picked is None or len(picked) != count:
                self.say(words.wrong_cards(self.w, count))
                continue
            return Reveal(cards=[cards[i] for i in picked])

    def _ask_buy(self, choice: BuyChoice):
        self.say(words.buy_question(self.w, choice.budget))
        self._list(choice.offered)
        while True:
            answer = self.read(words.pick_purchase(self.w))
            if answer is None:
                return None
            picked = _numbers(answer, len(choice.offered)) if answer else []
            if picked is None:
                self.say(words.not_numbers(self.w))
                continue
            cards = [choice.offered[i] for i in picked]
            cost = sum(CARD_PRICE[c] for c in cards)
            if cost > choice.budget:
                self.say(words.too_dear(self.w, cost, choice.budget))
                continue
            return Buy(cards=cards)

    def _list(self, cards: list[str]) -> None:
        for i, card in enumerate(cards, start=1):
            self.say(f"  {i}. {names.card_with_price(self.w, card)}")


def _numbers(answer: str, size: int) -> list[int] | None:
    parts = answer.replace(",", " ").split()
    if not all(p.isdigit() and 1 <= int(p) <= size for p in parts) or len(set(parts)) != len(parts):
        return None
    return [int(p) - 1 for p in parts]
