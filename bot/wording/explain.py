"""The terminal's help (`help` or `?` at a question): what the decision in front of the player is about, what
each privilege it concerns does, and how to answer. In the project's own words, with the game's edition's
numbers (the rules' summary for Discord's `/augsburg rules` is reused where it says the same)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import View
from engine.actions import (
    Bid,
    BuyChoice,
    Call,
    Compensate,
    Discard,
    LegalOption,
    Pass,
    ReturnCard,
    RevealChoice,
    TakeCard,
)
from engine.edition import Edition

from . import names, rules, views
from .words import Words

ASK_NUMBER, ASK_CARDS, ASK_BUY = "number", "cards", "buy"  # the kinds of question the terminal asks


def words_for_help(w: Words) -> set[str]:
    """What may be typed at a question for its help: 'help', '?', and the reader's own word for help."""
    return {"help", "?", w._("help").casefold()}


def decision(w: Words, view: View, options: Sequence[LegalOption], asked: str, undo: bool = False) -> str:
    """The help for the decision of `options` in `view`, asked as `asked` (ASK_NUMBER, ASK_CARDS, ASK_BUY);
    `undo`: whether "u" is offered."""
    ed, first = view.edition, options[0]
    lines = ["--- " + w._("Help") + " ---"]
    if isinstance(first, BuyChoice):
        lines.append(_purchase(w, view))
    elif isinstance(first, Pass | Call | Bid | RevealChoice):
        lines.append(rules.topic(w, "auction", ed))
        lines.append(w._("The winner takes one of the privilege cards on display. What their privileges do:"))
        lines += _privileges(w, _kinds(view.privilege_display, ed), ed)
    elif isinstance(first, TakeCard):
        lines.append(w._("You won the auction: choose one of the privilege cards on display. You may then use "
                         "two of its three privileges, one at a time, in any order. {unused}",
                         unused=_unused(w, ed)))
        lines += _privileges(w, _kinds((o.card for o in options if isinstance(o, TakeCard)), ed), ed)
    elif isinstance(first, Compensate):
        lines.append(rules.topic(w, "steps", ed))
    elif isinstance(first, ReturnCard):
        lines.append(w._("Too few debt cards are left for the round end's deal: one after another, starting with "
                         "the lead player, everyone who holds cards puts one of them under the deck, until there "
                         "are enough. Choose the card you can best spare."))
    elif isinstance(first, Discard):
        lines.append(w._("You used the privilege that draws cards: now discard one card from your hand."))
        lines += _privileges(w, ["draw2"], ed)
    else:  # using the privilege card taken (a privilege, the Master Builder's building, finishing the card)
        card = views.privilege(view).card
        assert card is not None  # the decisions left in the privilege phase are about the card taken
        lines.append(w._("You are using your privilege card: use up to two of its three privileges, one at a "
                         "time, then finish the card. {unused}", unused=_unused(w, ed)))
        lines += _privileges(w, _kinds([card], ed), ed)
        if views.you(view).id in (p.id for p in view.players if p.tiles.master_builder):
            lines.append("  · " + w._("{tile}: on every privilege card you win, you may build one Church or "
                                      "Cathedral more, at its price.", tile=names.tile(w, "master_builder")))
    lines.append(answering(w, asked, undo))
    return "\n".join(lines)


def answering(w: Words, asked: str, undo: bool) -> str:
    """How to answer a question of kind `asked`."""
    line = {
        ASK_NUMBER: lambda: w._("Type the number of your choice and press Enter."),
        ASK_CARDS: lambda: w._("Type the numbers of the cards to lay down, separated by spaces; Enter alone lays "
                               "down the suggested cards, if there are any."),
        ASK_BUY: lambda: w._("Type the numbers of the cards to buy, separated by spaces; Enter alone buys "
                             "nothing."),
    }[asked]()
    if undo:
        line += " " + w._("u takes back your last decision.")
    return line


def _purchase(w: Words, view: View) -> str:
    ed = view.edition
    if view.phase == "initial_purchase":
        return w._("Buying: you were dealt debt cards of the nobles; buy any of them at the prices shown, or "
                   "none. Cards are what you bid with: a bid counts cards, and when bids are laid down the single "
                   "highest card wins. Money left over pays for Churches and Cathedrals later. The others learn "
                   "only how many cards you buy.")
    return w._("Buying: at every round end your Offices level decides how many debt cards are offered to you "
               "({cards} at levels {levels}); buy any of them at the prices shown, or none. Cards are what you "
               "bid with in the next round's auctions. The others learn only how many cards you buy.",
               cards=_per_level(w, ed.offices_cards), levels=_levels(ed))


def _unused(w: Words, ed: Edition) -> str:
    return w._("Each of those two uses you leave out brings {points}; the third privilege brings nothing.",
               points=w.prestige(ed.declined_privilege_prestige))


def _kinds(cards: Iterable[str], ed: Edition) -> list[str]:
    """The privileges on `cards`, each once, in the order they first appear."""
    return list(dict.fromkeys(kind for card in cards for kind in ed.privilege_cards[card]))


def _privileges(w: Words, kinds: list[str], ed: Edition) -> list[str]:
    return ["  · " + privilege(w, kind, ed) for kind in kinds]


def privilege(w: Words, kind: str, ed: Edition) -> str:
    """What one privilege does, with edition `ed`'s numbers."""
    name, levels, top = names.privilege(w, kind, ed), _levels(ed), ed.tile_min_level
    match kind:
        case "trade":
            return w._("{name}: climb a step in Trade, which brings more money at every round end ({money} at "
                       "levels {levels}); from Trade level {level} on, you may take {extra} instead.", name=name,
                       money=_per_level(w, ed.trade_income), levels=levels, level=ed.trade_alternative_min_level,
                       extra=w.money(ed.trade_alternative_money))
        case "nobility":
            return w._("{name}: climb a step in Nobility, which brings more prestige at every round end ({points} "
                       "at levels {levels}); or take a Coat of Arms (from Nobility level {coat}) or a Letter of "
                       "Nobility (from level {letter}): each brings prestige at every round end too.", name=name,
                       points=_per_level(w, ed.nobility_prestige), levels=levels, coat=top["coat"],
                       letter=top["letter"])
        case "offices":
            return w._("{name}: climb a step in Offices, which brings more cards offered at every round end "
                       "({cards} at levels {levels}); or take a Minter (from Offices level {minter}: a free card "
                       "at every round end), a Master Builder (from level {master_builder}: one building more on "
                       "every privilege card you win), or build the top Church or Cathedral of the supply at its "
                       "price. Without a Church your score stops at {church}, without a Cathedral at {cathedral}.",
                       name=name, cards=_per_level(w, ed.offices_cards), levels=levels, minter=top["minter"],
                       master_builder=top["master_builder"], church=ed.church_limit, cathedral=ed.cathedral_limit)
        case "guilders":
            return w._("{name}: the money is yours at once.", name=name)
        case "prestige6" | "prestige7":
            return w._("{name}: the prestige is yours at once (up to the limit your score may reach).", name=name)
        case "draw2":
            return w.n_("{name}: draw {n} card from the deck, then discard one card from your hand.",
                        "{name}: draw {n} cards from the deck, then discard one card from your hand.",
                        ed.draw_privilege_cards, name=name)
    raise KeyError(kind)


def _levels(ed: Edition) -> str:
    return "/".join(str(level) for level in range(1, ed.max_level + 1))


def _per_level(w: Words, values: dict[int, int]) -> str:
    return "/".join(w.number(values[level]) for level in sorted(values))
