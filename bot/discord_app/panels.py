"""A player's private panel: their hand and, when due, their decision as buttons and menus.

Sent only as an ephemeral reply to its owner. Built from that player's own view
and legal actions; reveal and purchase menus name positions in the player's own
hand or offer, so a custom_id carries nothing another player could use.
"""

from __future__ import annotations

import discord

from engine import View, legal_actions, player_view
from engine.actions import Bid, BuyChoice, Call, Compensate, Discard, Pass, ReturnCard, RevealChoice, TakeCard
from engine.components import CARD_PRICE, card_rank
from storage import GameRecord

from .. import codes
from ..choices import positions
from ..service import Notice, decision_key
from ..wording import People, Words, moves, names, notices, phases
from ..wording import table as words
from .people import people
from .widgets import MAX_OPTIONS, ActButton, ActSelect, view_of

Selection = tuple[str, list[int]]  # ("rev" | "buy", positions chosen so far in the menu)
GREEN, BLUE, RED = discord.ButtonStyle.success, discord.ButtonStyle.primary, discord.ButtonStyle.danger


def panel(w: Words, record: GameRecord, user_id: int, note: str = "", selection: Selection | None = None):
    """(content, view) of a player's private panel."""
    player = str(user_id)
    view = player_view(record.state, player)
    who = people(w, record.table)
    lines = [note] if note else []
    lines += [phases.status(w, view, who), "", words.hand(w, view)]
    buttons = view_of()
    options = legal_actions(record.state, player)
    if options:
        decision = Decision(w, buttons, record.id, decision_key(record.state), view, who)
        lines += ["", notices.your_move_heading(w, decision.add(options, selection))]
    return "\n".join(lines)[:2000], buttons


def chosen(record: GameRecord, player: str, key: str, kind: str, values: list[str]) -> Selection | Notice:
    """What a reveal or purchase menu chose, if it still may: the menu was built for the current decision
    (`key`), its player is due to make it, and the positions are ones the menu could offer now. Else why
    not, for its player alone: a menu left open since an earlier decision must never choose in this one."""
    if key != decision_key(record.state):
        return Notice("stale_decision")
    options = legal_actions(record.state, player)
    choice = next((o for o in options if isinstance(o, RevealChoice if kind == "rev" else BuyChoice)), None)
    if choice is None:
        return Notice("stale_decision") if options else Notice("not_your_turn", {"phase": record.state.phase})
    if kind == "rev":  # exactly the count, of the cards that count for this noble
        hand = player_view(record.state, player).you.hand
        allowed, sizes = {i for i, c in enumerate(hand) if c in choice.cards}, {choice.count}
    else:  # any number of the offered cards
        allowed, sizes = set(range(len(choice.offered))), set(range(len(choice.offered) + 1))
    try:
        picked = [int(v) for v in values]
    except ValueError:
        return Notice("stale_choice")
    if len(set(picked)) != len(picked) or not set(picked) <= allowed or len(picked) not in sizes:
        return Notice("stale_choice")
    return kind, picked


class Decision:
    """Adds the controls of one decision to a view and returns its prompt."""

    def __init__(self, w: Words, view: discord.ui.View, game_id: int, key: str, pview: View, who: People):
        self.w, self.view, self.game_id, self.key, self.pview, self.who = w, view, game_id, key, pview, who

    def button(self, code: str, label: str, style=discord.ButtonStyle.secondary, row=None, disabled=False):
        self.view.add_item(ActButton(self.game_id, self.key, code, label, style, row, disabled))

    def menu(self, kind: str, pairs: list[tuple[str, str]], placeholder: str, row=None) -> None:
        opts = [discord.SelectOption(label=label[:100], value=value) for label, value in pairs[:MAX_OPTIONS]]
        self.view.add_item(ActSelect(self.game_id, self.key, kind, opts, placeholder, row=row))

    def add(self, options: list, selection: Selection | None) -> str:
        w, first = self.w, options[0]
        if isinstance(first, RevealChoice):
            return self.reveal(first, selection)
        if isinstance(first, BuyChoice):
            return self.buy(first, selection)
        labels = [(o, moves.action(w, o, self.pview, self.who)) for o in options]
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
            cards = sorted({o.card for o in options}, key=card_rank)
            pairs = [(names.card_with_price(w, c), codes.encode(type(first)(card=c))) for c in cards]
            kind = "discard" if isinstance(first, Discard) else "return"
            self.menu("pick", pairs, moves.placeholder(w, kind))
        else:
            self.privileges(labels)
        return moves.prompt(w, options, self.pview)

    def auction(self, labels) -> None:
        bids = [(o, label) for o, label in labels if isinstance(o, Bid)]
        for o, label in labels:
            if isinstance(o, (Pass, Call)):
                self.button(codes.encode(o), label, RED if isinstance(o, Pass) else BLUE, row=0)
        if len(bids) <= 4:
            for o, label in bids:
                self.button(codes.encode(o), label, GREEN, row=1)
        else:
            self.menu("pick", [(label, codes.encode(o)) for o, label in bids], moves.placeholder(self.w, "raise"), 1)

    def privileges(self, labels) -> None:
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

    def reveal(self, choice: RevealChoice, selection: Selection | None) -> str:
        w, hand = self.w, self.pview.you.hand
        valid = [i for i, c in enumerate(hand) if c in choice.cards]
        chosen = selection[1] if selection and selection[0] == "rev" else positions(hand, choice.suggested)
        if choice.count > MAX_OPTIONS:  # no menu can choose that many: the suggestion, or the typed command
            self.button(codes.encode_positions("rev", chosen), moves.lay_down_label(w, [hand[i] for i in chosen]),
                        GREEN)
            return f"{moves.reveal_prompt(w, choice.count)}\n{moves.reveal_too_many(w)}"
        # The chosen cards first, then the strongest: at most 25 fit in a menu.
        shown = sorted(valid, key=lambda i: (i not in chosen, -card_rank(hand[i])[0]))[:MAX_OPTIONS]
        opts = [discord.SelectOption(label=names.card_with_price(w, hand[i]), value=str(i), default=i in chosen)
                for i in sorted(shown, key=lambda i: card_rank(hand[i]), reverse=True)]
        self.view.add_item(ActSelect(self.game_id, self.key, "rev", opts, moves.placeholder(w, "reveal", choice.count),
                                     min_values=choice.count, max_values=choice.count, row=0))
        label = moves.lay_down_label(w, [hand[i] for i in chosen])
        self.button(codes.encode_positions("rev", chosen), label, GREEN, row=1)
        return moves.reveal_prompt(w, choice.count)

    def buy(self, choice: BuyChoice, selection: Selection | None) -> str:
        w = self.w
        chosen = selection[1] if selection and selection[0] == "buy" else []
        opts = [discord.SelectOption(label=names.card_with_price(w, c), value=str(i), default=i in chosen)
                for i, c in enumerate(choice.offered)]
        self.view.add_item(ActSelect(self.game_id, self.key, "buy", opts, moves.placeholder(w, "buy"),
                                     min_values=0, max_values=len(opts), row=0))
        total = sum(CARD_PRICE[choice.offered[i]] for i in chosen)
        affordable = total <= choice.budget
        self.button(codes.encode_positions("buy", chosen), moves.buy_label(w, len(chosen), total),
                    GREEN if affordable else discord.ButtonStyle.secondary, row=1, disabled=not affordable)
        return moves.buy_prompt(w, total, choice.budget)


