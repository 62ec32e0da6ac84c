"""Buttons and select menus. Every one is a DynamicItem: its custom_id names the game and
the decision, so it keeps working after a restart and a stale one is recognised.

Public messages carry only Join/Leave/Start and "My hand" buttons. Everything
built from a hand lives on ephemeral panels that only their owner sees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from engine import legal_actions, player_view
from engine.actions import (
    Bid,
    Build,
    BuyChoice,
    Call,
    Compensate,
    Discard,
    Pass,
    ReturnCard,
    RevealChoice,
    TakeCard,
    Use,
)
from engine.components import CARD_PRICE, PRIVILEGE_CARDS, card_rank
from storage import GameRecord

from . import codes, render, texts
from .service import decision_key, name_lookup

if TYPE_CHECKING:
    from .controller import Controller

MAX_OPTIONS = 25


def _controller(interaction: discord.Interaction) -> Controller:
    return interaction.client.controller  # type: ignore[attr-defined]


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"aug:lob:(?P<game>\d+):(?P<what>join|leave|start|ai)"
):
    LABELS = {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "start": ("Start game", discord.ButtonStyle.primary),
        "ai": ("Add computer player", discord.ButtonStyle.secondary),
    }

    def __init__(self, game_id: int, what: str):
        label, style = self.LABELS[what]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"aug:lob:{game_id}:{what}"))
        self.game_id, self.what = game_id, what

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).lobby_click(interaction, self.game_id, self.what)


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=r"aug:tbl:(?P<game>\d+):hand"):
    def __init__(self, game_id: int):
        super().__init__(
            discord.ui.Button(
                label="My hand & actions", style=discord.ButtonStyle.primary, custom_id=f"aug:tbl:{game_id}:hand"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).show_panel(interaction, self.game_id)


class ActButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"aug:do:(?P<game>\d+):(?P<key>[\w.]+):(?P<code>[\w.:\-]*)"
):
    def __init__(
        self,
        game_id: int,
        key: str,
        code: str,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        disabled: bool = False,
    ):
        super().__init__(
            discord.ui.Button(
                label=label[:80], style=style, row=row, disabled=disabled, custom_id=f"aug:do:{game_id}:{key}:{code}"
            )
        )
        self.game_id, self.key, self.code = game_id, key, code

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["key"], match["code"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).act_click(interaction, self.game_id, self.key, self.code)


class ActSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"aug:sel:(?P<game>\d+):(?P<key>[\w.]+):(?P<kind>pick|rev|buy)"
):
    def __init__(
        self,
        game_id: int,
        key: str,
        kind: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "",
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ):
        select = discord.ui.Select(
            custom_id=f"aug:sel:{game_id}:{key}:{kind}",
            options=options or [discord.SelectOption(label="…", value="0")],
            placeholder=placeholder[:150] or None,
            min_values=min_values,
            max_values=max_values,
            row=row,
        )
        super().__init__(select)
        self.game_id, self.key, self.kind = game_id, key, kind

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["key"], match["kind"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(interaction.data.get("values", []))  # type: ignore[union-attr]
        await _controller(interaction).act_select(interaction, self.game_id, self.key, self.kind, values)


class CancelButton(discord.ui.DynamicItem[discord.ui.Button], template=r"aug:cancel:(?P<game>\d+)"):
    def __init__(self, game_id: int):
        super().__init__(
            discord.ui.Button(
                label="Yes, cancel the game", style=discord.ButtonStyle.danger, custom_id=f"aug:cancel:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).cancel_confirmed(interaction, self.game_id)


DYNAMIC_ITEMS = (LobbyButton, TableButton, ActButton, ActSelect, CancelButton)


# --- views


def lobby_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for what in ("join", "leave", "ai", "start"):
        view.add_item(LobbyButton(game_id, what))
    return view


def table_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(TableButton(game_id))
    return view


def panel(record: GameRecord, user_id: int, note: str = "", selection: tuple[str, list[int]] | None = None):
    """(content, view) of a player's private panel: their hand and, when due, their decision."""
    state = record.state
    player = str(user_id)
    pview = player_view(state, player)
    name = name_lookup(record)
    lines = [note] if note else []
    lines += [render.status_line(pview, name), "", render.hand_text(pview)]
    view = discord.ui.View(timeout=None)
    options = legal_actions(state, player)
    if options:
        key = decision_key(state)
        prompt = _add_decision(view, record, player, key, options, selection)
        lines += ["", f"**Your move:** {prompt}"]
    return "\n".join(lines)[:2000], view


def _add_decision(view, record: GameRecord, player: str, key: str, options: list, selection) -> str:
    gid = record.id
    state = record.state
    name = name_lookup(record)
    first = options[0]
    if isinstance(first, RevealChoice):
        return _reveal_controls(view, gid, key, state, player, first, selection)
    if isinstance(first, BuyChoice):
        return _buy_controls(view, gid, key, first, selection)
    if isinstance(first, (Pass, Call, Bid)):
        bids = [o for o in options if isinstance(o, Bid)]
        view.add_item(ActButton(gid, key, "p", "Pass", discord.ButtonStyle.danger, row=0))
        for o in options:
            if isinstance(o, Call):
                high = state.auction.high
                view.add_item(ActButton(gid, key, "c", f"Call {high}", discord.ButtonStyle.primary, row=0))
        if len(bids) <= 4:
            for o in bids:
                view.add_item(
                    ActButton(gid, key, codes.encode(o), f"Bid {o.count}", discord.ButtonStyle.success, row=1)
                )
        else:
            view.add_item(
                ActSelect(
                    gid,
                    key,
                    "pick",
                    [discord.SelectOption(label=f"Bid {o.count} cards", value=codes.encode(o)) for o in bids],
                    placeholder="Raise to…",
                    row=1,
                )
            )
        return "pass, call or raise (a bid counts cards)."
    if isinstance(first, TakeCard):
        for i, o in enumerate(options):
            view.add_item(
                ActButton(
                    gid,
                    key,
                    codes.encode(o),
                    texts.privilege_card_name(o.card),
                    discord.ButtonStyle.primary,
                    row=i // 2,
                )
            )
        return "take one of the privilege cards on display."
    if isinstance(first, Compensate):
        view.add_item(ActButton(gid, key, "mmoney", "Take 100 guilders", discord.ButtonStyle.primary))
        view.add_item(ActButton(gid, key, "mprestige", "Take 1 prestige", discord.ButtonStyle.primary))
        return "a step tile was taken from you: choose your compensation."
    if isinstance(first, (Discard, ReturnCard)):
        cards = sorted({o.card for o in options}, key=card_rank)
        opts = [
            discord.SelectOption(label=texts.card_with_price(c), value=codes.encode(type(first)(card=c)))
            for c in cards[:MAX_OPTIONS]
        ]
        what = "discard" if isinstance(first, Discard) else "put under the deck"
        view.add_item(ActSelect(gid, key, "pick", opts, placeholder=f"Card to {what}…"))
        return f"choose a card from your hand to {what}."
    # privilege card in use
    uses = [o for o in options if isinstance(o, Use)]
    card = state.privilege.card
    labels = [(o, use_label(o, card, name)) for o in uses]
    labels += [
        (o, f"Master Builder: build the {texts.TILE_NAMES[o.what]} ({state.tile_stacks[o.what][0]})")
        for o in options
        if isinstance(o, Build)
    ]
    if len(labels) <= 15:
        for i, (o, label) in enumerate(labels):
            view.add_item(ActButton(gid, key, codes.encode(o), label, discord.ButtonStyle.primary, row=i // 4))
    else:
        view.add_item(
            ActSelect(
                gid,
                key,
                "pick",
                [discord.SelectOption(label=label[:100], value=codes.encode(o)) for o, label in labels[:MAX_OPTIONS]],
                placeholder="Use…",
            )
        )
    used = len(state.privilege.used)
    view.add_item(
        ActButton(
            gid, key, "d", f"Finish card (+{2 * (2 - used)} prestige for unused)", discord.ButtonStyle.success, row=4
        )
    )
    return f"use up to {2 - used} more privilege{'s' if used != 1 else ''} of {texts.privilege_card_name(card)}."


def use_label(o: Use, card: str, name) -> str:
    kind = PRIVILEGE_CARDS[card][o.slot]
    head = f"{o.slot + 1}. {texts.PRIVILEGE_NAMES[kind]}"
    if o.as_ is None:
        return head
    label = f"{head}: {texts.USE_NAMES[o.as_]}"
    return label + (f" from {name(o.from_)}" if o.from_ else "")


def _reveal_controls(view, gid, key, state, player, choice: RevealChoice, selection) -> str:
    hand = state.players[[p.id for p in state.players].index(player)].hand
    valid = [i for i, c in enumerate(hand) if c in choice.cards]
    suggested = _positions(hand, choice.suggested)
    chosen = selection[1] if selection and selection[0] == "rev" else suggested
    ranked = sorted(valid, key=lambda i: (i not in chosen, -card_rank(hand[i])[0]))[:MAX_OPTIONS]
    opts = [
        discord.SelectOption(label=texts.card_with_price(hand[i]), value=str(i), default=i in chosen)
        for i in sorted(ranked, key=lambda i: card_rank(hand[i]), reverse=True)
    ]
    view.add_item(
        ActSelect(
            gid,
            key,
            "rev",
            opts,
            placeholder=f"Choose exactly {choice.count} cards…",
            min_values=choice.count,
            max_values=choice.count,
            row=0,
        )
    )
    names = texts.cards_list([hand[i] for i in chosen])
    view.add_item(
        ActButton(
            gid, key, codes.encode_positions("rev", chosen), f"Lay down: {names}", discord.ButtonStyle.success, row=1
        )
    )
    return f"lay down exactly {choice.count} valid cards (at least one certificate); your best card decides."


def _positions(hand: list[str], cards: list[str]) -> list[int]:
    taken: list[int] = []
    for c in cards:
        taken.append(next(i for i, h in enumerate(hand) if h == c and i not in taken))
    return taken


def _buy_controls(view, gid, key, choice: BuyChoice, selection) -> str:
    chosen = selection[1] if selection and selection[0] == "buy" else []
    opts = [
        discord.SelectOption(label=texts.card_with_price(c), value=str(i), default=i in chosen)
        for i, c in enumerate(choice.offered)
    ]
    view.add_item(
        ActSelect(
            gid, key, "buy", opts, placeholder="Choose the cards to buy…", min_values=0, max_values=len(opts), row=0
        )
    )
    total = sum(CARD_PRICE[choice.offered[i]] for i in chosen)
    affordable = total <= choice.budget
    label = f"Buy {len(chosen)} card{'s' if len(chosen) != 1 else ''} for {total}" if chosen else "Buy nothing"
    view.add_item(
        ActButton(
            gid,
            key,
            codes.encode_positions("buy", chosen),
            label,
            discord.ButtonStyle.success if affordable else discord.ButtonStyle.secondary,
            row=1,
            disabled=not affordable,
        )
    )
    status = f"selected {texts.money(total)} of your {texts.money(choice.budget)}"
    if not affordable:
        status += " — more than you have"
    return f"choose which offered cards to buy ({status}); the others see only how many you buy."
