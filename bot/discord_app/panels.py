"""A player's private panel: their hand and, when due, their decision as buttons and menus.

Sent only as an ephemeral reply to its owner. Built from that player's own view
and legal actions; reveal and purchase menus name positions in the player's own
hand or offer, so a custom_id carries nothing another player could use.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from engine import LegalOption, View
from engine.actions import (
    ActionModel,
    Bid,
    BuyChoice,
    Call,
    Compensate,
    Discard,
    Pass,
    ReturnCard,
    RevealChoice,
    TakeCard,
)
from storage import GameRecord

from ..service import Decision, codes
from ..service.automatic import ahead_code
from ..service.choices import positions
from ..wording import People, Words, moves, names, notices, phases
from ..wording import table as words
from ..wording import undo as undo_words
from .ahead_widgets import AheadClear, AheadMenu
from .people import people
from .undo_widgets import UndoButton
from .widgets import MAX_OPTIONS, ActButton, ActSelect, PictureButton, view_of

GREEN, BLUE, RED = discord.ButtonStyle.success, discord.ButtonStyle.primary, discord.ButtonStyle.danger
Labelled = Sequence[tuple[ActionModel, str]]  # actions with their labels


def panel(w: Words, record: GameRecord, decision: Decision, note: str = "",
          undo: int | None = None) -> tuple[str, discord.ui.View]:
    """(content, view) of a player's private panel, from their `decision` as the service shows it; `undo`:
    the move of a decision just made, offered to be taken back (an Undo button, shown only on the panel that
    answers the decision)."""
    view = decision.view
    who = people(w, record.table)
    lines = [note] if note else []
    lines += [phases.status(w, view, who), "", words.hand(w, view)]
    buttons = view_of()
    if decision.made is not None:  # the bot makes it: no click
        made = decision.made
        lines += ["", moves.made_for_you(w, moves.made_label(w, made.action, view, who), made.actor, made.waiting)]
    elif decision.options:
        controls = Controls(w, buttons, record.id, decision.key, view, who)
        lines += ["", notices.your_move_heading(w, controls.add(list(decision.options)))]
    elif decision.ahead:
        lines += ["", decide_ahead(w, buttons, record.id, decision)]
    if undo is not None:
        try:
            buttons.add_item(UndoButton(record.id, undo, undo_words.button(w)))
        except ValueError:
            pass  # no room beside the decision: `/augsburg undo` takes it back
    try:
        buttons.add_item(PictureButton(record.id, words.hand_picture_label(w)))
    except ValueError:
        pass  # the last row is taken by the decision: `/augsburg board hand:` shows the picture
    return "\n".join(lines)[:2000], buttons


def decide_ahead(w: Words, buttons: discord.ui.View, game_id: int, decision: Decision) -> str:
    """The menu of what to do when the player's turn in the running auction comes, and a button to clear
    what they settled; the section's text."""
    choices, settled = decision.ahead, decision.settled
    options = [discord.SelectOption(label=moves.ahead_label(w, a.how, a.cards)[:100], value=ahead_code(a),
                                    default=a == settled) for a in choices[:MAX_OPTIONS]]
    auction = choices[0].auction
    buttons.add_item(AheadMenu(game_id, auction, options, moves.ahead_placeholder(w), row=0))
    if settled is not None:
        buttons.add_item(AheadClear(game_id, auction, moves.ahead_clear(w), row=1))
    return moves.ahead_prompt(w, None if settled is None else moves.ahead_label(w, settled.how, settled.cards))


class Controls:
    """Adds the controls of one decision to a view and returns its prompt."""

    def __init__(self, w: Words, view: discord.ui.View, game_id: int, key: str, pview: View, who: People):
        self.w, self.view, self.game_id, self.key, self.pview, self.who = w, view, game_id, key, pview, who

    def button(self, code: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
               row: int | None = None, disabled: bool = False) -> None:
        self.view.add_item(ActButton(self.game_id, self.key, code, label, style, row, disabled))

    def menu(self, kind: str, pairs: list[tuple[str, str]], placeholder: str, row: int | None = None) -> None:
        opts = [discord.SelectOption(label=label[:100], value=value) for label, value in pairs[:MAX_OPTIONS]]
        self.view.add_item(ActSelect(self.game_id, self.key, kind, opts, placeholder, row=row))

    def add(self, options: list[LegalOption]) -> str:
        w, first = self.w, options[0]
        if isinstance(first, RevealChoice):
            return self.reveal(first)
        if isinstance(first, BuyChoice):
            return self.buy(first)
        actions = [o for o in options if isinstance(o, ActionModel)]  # all of them: a choice comes alone
        labels = [(o, moves.action(w, o, self.pview, self.who)) for o in actions]
        if isinstance(first, (Pass, Call, Bid)):
            self.auction(labels)
        elif isinstance(first, TakeCard):  # cards that give the same share a name: one button for them
            distinct = [(o, label) for i, (o, label) in enumerate(labels) if label not in [k for _, k in labels[:i]]]
            for i, (o, label) in enumerate(distinct):
                self.button(codes.encode(o), label, BLUE, row=i // 2)
        elif isinstance(first, Compensate):
            for o, label in labels:
                self.button(codes.encode(o), label, BLUE)
        elif isinstance(first, (Discard, ReturnCard)):
            ed = self.pview.edition
            cards = sorted({o.card for o in actions if isinstance(o, (Discard, ReturnCard))}, key=ed.card_rank)
            pairs = [(names.card_with_price(w, c, ed), codes.encode(type(first)(card=c))) for c in cards]
            kind = "discard" if isinstance(first, Discard) else "return"
            self.menu("pick", pairs, moves.placeholder(w, kind))
        else:
            self.privileges(labels)
        return moves.prompt(w, options, self.pview, self.who)

    def auction(self, labels: Labelled) -> None:
        bids = [(o, label) for o, label in labels if isinstance(o, Bid)]
        for o, label in labels:
            if isinstance(o, (Pass, Call)):
                self.button(codes.encode(o), label, RED if isinstance(o, Pass) else BLUE, row=0)
        if len(bids) <= 4:
            for o, label in bids:
                self.button(codes.encode(o), label, GREEN, row=1)
        else:
            self.menu("pick", [(label, codes.encode(o)) for o, label in bids], moves.placeholder(self.w, "raise"), 1)

    def privileges(self, labels: Labelled) -> None:
        """Uses and builds as buttons (a menu when there are many), and 'finish card' last."""
        done = [(o, label) for o, label in labels if o.do == "done"]
        rest = [(o, label) for o, label in labels if o.do != "done"]
        if len(rest) <= 15:
            for i, (o, label) in enumerate(rest):
                self.button(codes.encode(o), label, BLUE, row=i // 4)
        else:
            self.menu("pick", [(label, codes.encode(o)) for o, label in rest], moves.placeholder(self.w, "use"))
        for o, label in done:
            self.button(codes.encode(o), label, GREEN, row=4)

    def reveal(self, choice: RevealChoice) -> str:
        """One step: the button lays down the suggestion; choosing other cards in the menu lays them down."""
        assert self.pview.you is not None, "a panel is built from its player's own view"
        w, hand = self.w, self.pview.you.hand
        valid = [i for i, c in enumerate(hand) if c in choice.cards]
        suggested = positions(hand, choice.suggested)
        label = moves.lay_down_label(w, [hand[i] for i in suggested])
        if choice.count > MAX_OPTIONS:  # no menu can choose that many: the suggestion, or the typed command
            self.button(codes.encode_positions("rev", suggested), label, GREEN)
            return f"{moves.reveal_prompt(w, choice.count)}\n{moves.reveal_too_many(w)}"
        # The strongest cards: at most 25 fit in a menu.
        ed = self.pview.edition
        shown = sorted(valid, key=lambda i: ed.card_rank(hand[i]), reverse=True)[:MAX_OPTIONS]
        opts = [discord.SelectOption(label=names.card_with_price(w, hand[i], ed), value=str(i)) for i in shown]
        self.button(codes.encode_positions("rev", suggested), label, GREEN, row=0)
        self.view.add_item(ActSelect(self.game_id, self.key, "rev", opts, moves.placeholder(w, "reveal", choice.count),
                                     min_values=choice.count, max_values=choice.count, row=1))
        return moves.reveal_prompt(w, choice.count)

    def buy(self, choice: BuyChoice) -> str:
        """One step: the cards chosen in the menu are bought when it closes; a button buys nothing."""
        w = self.w
        opts = [discord.SelectOption(label=names.card_with_price(w, c, self.pview.edition), value=str(i))
                for i, c in enumerate(choice.offered)]
        if opts:
            self.view.add_item(ActSelect(self.game_id, self.key, "buy", opts, moves.placeholder(w, "buy"),
                                         min_values=1, max_values=len(opts), row=0))
        self.button(codes.encode_positions("buy", []), moves.buy_label(w, 0, 0), RED, row=1)
        return moves.buy_prompt(w, choice.budget)
