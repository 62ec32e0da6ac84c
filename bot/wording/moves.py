"""The player's decisions: a label for every legal action, the prompt of each kind of decision,
and the typed commands that take them. Used alike by buttons, autocomplete and the terminal."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import View
from engine.actions import (
    ActionModel,
    Bid,
    Build,
    Buy,
    BuyChoice,
    Call,
    Compensate,
    Discard,
    Done,
    LegalOption,
    Pass,
    ReturnCard,
    Reveal,
    RevealChoice,
    TakeCard,
    Use,
)
from engine.components import BUILDINGS, OFFICES
from engine.edition import Edition
from engine.rules import holds_tile
from engine.views import PrivateView

from . import names, views
from .words import People, Words


def action(w: Words, option: LegalOption | ActionModel, view: View, people: People, slots: bool = True) -> str:
    """The label of one concrete legal action; `slots`: a privilege's number on its card ('1. Trade: …'),
    which a list numbered of its own (the terminal's) leaves out."""
    ed = view.edition
    match option:
        case Pass():
            return w._("Pass")
        case Call():
            return w.n_("Call {n} card", "Call {n} cards", views.auction(view).high)
        case Bid(count=n):
            return w.n_("Bid {n} card", "Bid {n} cards", n)
        case TakeCard(card=card):
            return names.privilege_card(w, card, ed)
        case Use():
            taken = views.privilege(view).card
            assert taken is not None  # a privilege is used from the card taken
            return use(w, option, taken, people, numbered=slots, ed=ed, view=view)
        case Build(what=what):
            return w._("Master Builder: build the {tile} ({cost})", tile=names.tile(w, what),
                       cost=w.money(view.tile_stacks[what][0]))
        case Done():
            left = ed.privileges_per_card - len(views.privilege(view).used)
            if not left:
                return w._("Finish card")
            return w._("Finish card (+{points} prestige for unused)", points=ed.declined_privilege_prestige * left)
        case Compensate(take="money"):
            return w._("Take {money}", money=w.money(ed.compensation_money))
        case Compensate():
            return w._("Take {points}", points=w.prestige(ed.compensation_prestige))
        case Discard(card=card):
            return w._("Discard {card}", card=names.card_with_price(w, card, ed))
        case ReturnCard(card=card):
            return w._("Put {card} under the deck", card=names.card_with_price(w, card, ed))
    raise ValueError(f"no label for {option!r}")


def use(w: Words, option: Use, card: str, people: People, numbered: bool = True, *, ed: Edition,
        view: View | None = None) -> str:
    """'1. Trade: climb a step'; without its number ('Trade: climb a step') where slots alike are one choice;
    a building with its price ('Offices: build the Church for 700 guilders') when the `view` is given.
    `ed`: the game's edition (what the card holds)."""
    head = names.privilege(w, ed.privilege_cards[card][option.slot], ed)
    if numbered:
        head = w._("{slot}. {privilege}", slot=option.slot + 1, privilege=head)
    if option.as_ is None:
        return head
    if option.from_:
        return w._("{head}: {how} from {player}", head=head, how=names.use(w, option.as_, ed),
                   player=people.name(option.from_))
    if option.as_ in BUILDINGS and view is not None and view.tile_stacks[option.as_]:
        return w._("{head}: build the {tile} for {money}", head=head, tile=names.tile(w, option.as_),
                   money=w.money(view.tile_stacks[option.as_][0]))
    return w._("{head}: {how}", head=head, how=names.use(w, option.as_, ed))


def out_of_reach(w: Words, view: View) -> list[str]:
    """The buildings a privilege left on the player's card (Offices, or the Master Builder's) could build but
    the player cannot pay for now: said, not left out silently."""
    turn = view.privilege
    you: PrivateView | None = getattr(view, "you", None)  # (the tests' partial views may have none)
    if you is None or turn is None or turn.card is None or turn.player != you.id:
        return []
    me = next(p for p in view.players if p.id == you.id)
    ed = view.edition
    offices = any(k == OFFICES and slot not in turn.used for slot, k in enumerate(ed.privilege_cards[turn.card]))
    offices = offices and len(turn.used) < ed.privileges_per_card
    if not (offices or me.tiles.master_builder and not turn.built):
        return []
    lines = []
    for tile in BUILDINGS:
        stack = view.tile_stacks[tile]
        if stack and not holds_tile(me.tiles, tile) and stack[0] > you.money:
            lines.append(w._("You cannot build the {tile} now: it costs {cost}, and you have {money}.",
                             tile=names.tile(w, tile), cost=w.money(stack[0]), money=w.money(you.money)))
    return lines


def prompt(w: Words, options: Sequence[LegalOption], view: View, people: People) -> str:
    """What the decision in front of the player asks of them (reveal and purchase: see below)."""
    first = options[0]
    if isinstance(first, (Pass, Call, Bid)):
        if len(options) == 1:  # no card of yours counts for this noble (or none is left to add)
            return w._("you can only pass: you have too few cards that count for this noble to bid.")
        if not any(isinstance(o, Call) for o in options):
            return w._("pass or raise (a bid counts cards).")
        if not any(isinstance(o, Bid) for o in options):
            return w._("pass or call (a bid counts cards).")
        return w._("pass, call or raise (a bid counts cards).")
    if isinstance(first, TakeCard):
        return w._("take one of the privilege cards on display.")
    if isinstance(first, Compensate):
        return w._("{player} climbed and took your step tile: choose your compensation.",
                   player=people.name(views.privilege(view).player))
    if isinstance(first, Discard):
        return w._("choose a card from your hand to discard.")
    if isinstance(first, ReturnCard):
        return w._("choose a card from your hand to put under the deck.")
    if isinstance(first, RevealChoice):
        return reveal_prompt(w, first.count)
    if isinstance(first, BuyChoice):
        return w._("choose which offered cards to buy; the others see only how many you buy.")
    turn = views.privilege(view)
    assert turn.card is not None  # the decisions left in the privilege phase are about the card taken
    card = names.privilege_card(w, turn.card, view.edition)
    left = view.edition.privileges_per_card - len(turn.used)
    if left:
        asked = w.n_("use up to {n} more privilege of {card}.", "use up to {n} more privileges of {card}.", left,
                     card=card)
        return " ".join([asked, *out_of_reach(w, view)])
    if any(isinstance(o, Build) for o in options):
        return w._("no more privileges of {card} to use: build with your Master Builder, or finish the card.",
                   card=card)
    return w._("no more privileges of {card} to use: finish the card.", card=card)


def reveal_prompt(w: Words, count: int) -> str:
    return w.n_("lay down exactly {n} valid card (at least one certificate); your best card decides.",
                "lay down exactly {n} valid cards (at least one certificate); your best card decides.", count)


def reveal_too_many(w: Words) -> str:
    """For a lay-down of more cards than a menu can hold (25)."""
    return w._("That is more cards than a menu can hold: the button lays down the suggested cards, or type "
               "`/augsburg reveal` to choose others.")


def cards_within(w: Words, cards: list[str], limit: int = 100) -> str:
    """The cards' names, or as many as fit in `limit` characters and how many more."""
    text, shown = names.cards(w, cards), len(cards)
    while len(text) > limit and shown > 1:
        shown -= 1
        text = w.n_("{cards} and {n} more", "{cards} and {n} more", len(cards) - shown,
                    cards=names.cards(w, cards[:shown]))
    return text[:limit]


def buy_prompt(w: Words, budget: int) -> str:
    return w._("choose the offered cards to buy: you have {budget}, and what you pick in the menu is bought when "
               "it closes. The others see only how many you buy.", budget=w.money(budget))


def buy_label(w: Words, count: int, total: int) -> str:
    if not count:
        return w._("Buy nothing")
    return w.n_("Buy {n} card for {total}", "Buy {n} cards for {total}", count, total=w.money(total))


def purchase_label(w: Words, cards: list[str], total: int, limit: int = 100) -> str:
    """'Maria 15, Leo 3 — 650 guilders': the cards shortened so that the price and its unit always fit `limit`."""
    room = limit - len(w._("{cards} — {total}", cards="", total=w.money(total)))
    return w._("{cards} — {total}", cards=cards_within(w, cards, room), total=w.money(total))


def lay_down_label(w: Words, cards: list[str], limit: int = 80) -> str:
    """A button's label (Discord: 80 characters): long lay-downs name their first cards and how many more,
    never a name cut in half."""
    room = limit - len(w._("Lay down: {cards}", cards=""))
    return w._("Lay down: {cards}", cards=cards_within(w, cards, room))


def placeholder(w: Words, kind: str, count: int = 0) -> str:
    return {
        "raise": lambda: w._("Raise to…"),
        "use": lambda: w._("Use…"),
        "discard": lambda: w._("Card to discard…"),
        "return": lambda: w._("Card to put under the deck…"),
        "reveal": lambda: w.n_("Or choose another card to lay down…", "Or choose {n} other cards to lay down…", count),
        "buy": lambda: w._("Cards to buy…"),
    }[kind]()


def commands(w: Words, options: Sequence[LegalOption], view: View) -> list[str]:
    """The typed commands that take the decisions in `options`, one line each."""
    kinds = {type(o) for o in options}
    ed = view.edition
    counts = [o.count for o in options if isinstance(o, Bid)]
    reveals = [o.count for o in options if isinstance(o, RevealChoice)]  # (a lay-down is the only option)
    lines: dict[type, Callable[[], str]] = {
        Pass: lambda: w._("`/augsburg pass` — leave this auction"),
        Call: lambda: w.n_("`/augsburg call` — offer {n} card too", "`/augsburg call` — offer {n} cards too",
                           views.auction(view).high),
        Bid: lambda: bid_command(w, counts[0], counts[-1]),
        RevealChoice: lambda: w.n_("`/augsburg reveal cards:` — lay down {n} card",
                                   "`/augsburg reveal cards:` — lay down {n} cards", reveals[0]),
        BuyChoice: lambda: w._("`/augsburg buy cards:` — choose which offered cards to buy (or nothing)"),
        TakeCard: lambda: w._("`/augsburg privilege card:` — take a privilege card"),
        Use: lambda: w._("`/augsburg use privilege:` — use a privilege of your card"),
        Build: lambda: w._("`/augsburg build what:` — the Master Builder's extra building"),
        Done: lambda: w._("`/augsburg done` — finish with your privilege card"),
        Discard: lambda: w._("`/augsburg discard card:` — discard one card after drawing two"),
        Compensate: lambda: w._("`/augsburg compensate take:` — {money} or {points} for your lost step",
                                money=w.money(ed.compensation_money), points=w.prestige(ed.compensation_prestige)),
        ReturnCard: lambda: w._("`/augsburg return card:` — put a card from your hand under the deck"),
    }
    return [text() for kind, text in lines.items() if kind in kinds]


def bid_command(w: Words, low: int, high: int) -> str:
    if low == high:
        return w.n_("`/augsburg bid count:` — raise to {n} card", "`/augsburg bid count:` — raise to {n} cards", high)
    return w.n_("`/augsburg bid count:` — raise to {low}–{n} card", "`/augsburg bid count:` — raise to {low}–{n} cards",
                high, low=w.number(low))


def made_label(w: Words, move: ActionModel, view: View, people: People) -> str:
    """A decision the bot makes for a player, as they read it: 'Pass', 'Lay down: Maria 3, Joker'."""
    if isinstance(move, Reveal):
        return lay_down_label(w, move.cards, limit=200)
    if isinstance(move, Buy):
        return buy_label(w, len(move.cards), 0)
    return action(w, move, view, people)


def made_for_you(w: Words, what: str, actor: str, waiting: bool) -> str:
    """On the panel of a player whose decision the bot makes: no click, no ping."""
    if actor == "ahead":
        return w._("As you decided ahead, the bot makes your move for you: {what}.", what=what)
    if waiting:
        return w._("Your only choice ({what}) is made for you once the others have chosen: nothing to click.",
                   what=what)
    return w._("Your only choice ({what}) is made for you: nothing to click.", what=what)


def ahead_label(w: Words, how: str, cards: int) -> str:
    """One choice of deciding ahead, in the menu and once settled."""
    if how == "pass":
        return w._("Pass when my turn comes")
    if how == "call":
        return w.n_("Call while the highest bid is at most {n} card", "Call while the highest bid is at most {n} cards",
                    cards)
    return w.n_("Raise to {n} card (call it if it is the highest bid)",
                "Raise to {n} cards (call it if it is the highest bid)", cards)


def ahead_prompt(w: Words, settled: str | None) -> str:
    """The panel's section for deciding ahead; `settled`: what the player has set, as ahead_label words it."""
    head = w._("**Decide ahead** (only you see this): settle your next turn in this auction now, and the bot "
               "makes it for you when it comes, with no ping. A higher bid than you allow makes it a pass.")
    if settled is None:
        return head
    return head + "\n" + w._("Settled: {what}. You can change or clear it until your turn.", what=settled)


def ahead_placeholder(w: Words) -> str:
    return w._("When my turn comes…")


def ahead_clear(w: Words) -> str:
    return w._("Clear it: I decide myself")


def ahead_done(w: Words, settled: str | None) -> str:
    """The answer to setting or clearing it."""
    if settled is None:
        return w._("✅ Cleared: you decide your next turn yourself.")
    return w._("✅ Settled ahead: {what}.", what=settled)
