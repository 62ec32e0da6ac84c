"""The game's log: one sentence per event worth telling; public events for everyone, private ones for their owner."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Event
from engine.edition import Edition
from engine.events import CardsDealt, TileTaken

from . import names, undo
from .words import People, Words


def public_line(w: Words, e: Event, people: People, ed: Edition) -> str | None:
    """One sentence for a public event of a game of edition `ed`, or None for events not worth a line of their own."""
    who = people.name(e.player) if hasattr(e, "player") else ""
    match e.type:
        case "game_started":
            return w._("The game begins: {rounds} rounds; {player} starts.", rounds=e.rounds,
                       player=people.name(e.start_player))
        case "purchase_made":
            if not e.count:
                return w._("{who} bought nothing.", who=who)
            return w.n_("{who} bought {n} card for {money}.", "{who} bought {n} cards for {money}.", e.count,
                        who=who, money=w.money(e.paid))
        case "round_started":
            return w._("Round {round} begins; {player} opens the auction.", round=e.round,
                       player=people.name(e.opener))
        case "auction_started":
            return w._("Auction for {noble}: {player} opens.", noble=names.noble(w, e.noble),
                       player=people.name(e.opener))
        case "bid":
            return w.n_("{who} bids {n} card.", "{who} bids {n} cards.", e.count, who=who)
        case "call":
            return w.n_("{who} calls: {n} card.", "{who} calls: {n} cards.", e.count, who=who)
        case "pass":
            return w._("{who} passes.", who=who)
        case "auction_skipped":
            return w._("Nobody bid for {noble}.", noble=names.noble(w, e.noble))
        case "reveal":
            offers = "; ".join(f"{people.name(p)}: {names.cards(w, cards)}" for p, cards in e.offers.items())
            return w._("Cards laid down for {noble}: {offers}.", noble=names.noble(w, e.noble), offers=offers)
        case "auction_won":
            if e.alone:
                return w._("{who} wins {noble} (everyone else passed).", who=who, noble=names.noble(w, e.noble))
            return w._("{who} wins {noble}.", who=who, noble=names.noble(w, e.noble))
        case "consolation":
            return w._("{who} receives {money} consolation.", who=who, money=w.money(e.amount))
        case "privilege_card_taken":
            return w._("{who} takes the privilege card {card}.", who=who, card=names.privilege_card(w, e.card, ed))
        case "privilege_used":
            kind = names.privilege(w, e.kind, ed)
            if e.as_:
                return w._("{who} uses {kind}: {how}.", who=who, kind=kind, how=names.use(w, e.as_, ed))
            return w._("{who} uses {kind}.", who=who, kind=kind)
        case "step_climbed":
            category = names.category(w, e.category)
            if e.robbed:
                return w._("{who} climbs to {category} level {level}, taking it from {robbed}.", who=who,
                           category=category, level=e.level, robbed=people.name(e.robbed))
            return w._("{who} climbs to {category} level {level}.", who=who, category=category, level=e.level)
        case "compensation_chosen":
            if e.take == "money":
                return w._("{who} takes {money} as compensation.", who=who, money=w.money(ed.compensation_money))
            return w._("{who} takes {points} as compensation.", who=who, points=w.prestige(ed.compensation_prestige))
        case "tile_taken":
            return _tile_taken(w, e, who)
        case "card_discarded":
            return w._("{who} discards {card}.", who=who, card=names.card(w, e.card))
        case "cards_drawn":
            return w.n_("{who} draws {n} card.", "{who} draws {n} cards.", e.count, who=who)
        case "privileges_declined":  # each unused one is worth prestige (its gain follows as its own event)
            if not ed.declined_privilege_prestige:
                return w.n_("{who} leaves {n} privilege unused.", "{who} leaves {n} privileges unused.", e.count,
                            who=who)
            return w.n_("{who} leaves {n} privilege unused: +{points}.", "{who} leaves {n} privileges unused: "
                        "+{points}.", e.count, who=who, points=w.prestige(e.count * ed.declined_privilege_prestige))
        case "prestige_gained":
            if e.requested and not e.amount:
                return w.n_("{who} would gain {n} prestige but gains none: scores stop at {church} without a "
                            "Church and at {cathedral} without a Cathedral.", "{who} would gain {n} prestige but "
                            "gains none: scores stop at {church} without a Church and at {cathedral} without a "
                            "Cathedral.", e.requested, who=who, church=ed.church_limit, cathedral=ed.cathedral_limit)
            if e.requested and e.amount < e.requested:
                return w.n_("{who} would gain {n} prestige but gains only {amount}: scores stop at {church} without "
                            "a Church and at {cathedral} without a Cathedral.", "{who} would gain {n} prestige but "
                            "gains only {amount}: scores stop at {church} without a Church and at {cathedral} "
                            "without a Cathedral.", e.requested, who=who, amount=e.amount, church=ed.church_limit,
                            cathedral=ed.cathedral_limit)
            return None
        case "round_income":
            if e.money:
                return w._("{who} earns {money} and {prestige} prestige.", who=who, money=w.money(e.money),
                           prestige=e.prestige)
            return w._("{who} earns {prestige} prestige.", who=who, prestige=e.prestige)
        case "shortage_started":
            return w._("Too few debt cards are left: everyone returns cards from hand, starting with the lead player.")
        case "card_returned":
            return w._("{who} returns a card under the deck.", who=who)
        case "deck_reshuffled":
            return w._("The discard pile is shuffled into a new deck.")
        case "cards_dealt":
            return _cards_dealt(w, e, who)
        case "choice_made":
            return w._("{who} has chosen.", who=who)
        case "game_over":
            return w._("The game is over.")
        case "taken_back":
            return undo.taken_back(w, e.decision, who)
    return None


def _tile_taken(w: Words, e: TileTaken, who: str) -> str:
    tile = names.tile(w, e.tile)
    if e.tile in ("coat", "letter"):
        return w._("{who} takes the {tile} (+{value} prestige per round).", who=who, tile=tile, value=e.value)
    if e.cost:
        return w._("{who} takes the {tile} for {money}.", who=who, tile=tile, money=w.money(e.cost))
    return w._("{who} takes the {tile}.", who=who, tile=tile)


def _cards_dealt(w: Words, e: CardsDealt, who: str) -> str:
    """Free cards go to the hand, offered ones are for sale; an empty deck may deal fewer or none."""
    if e.free and e.offered:
        return w.n_("{who} receives {n} card: {free} free, the rest to buy.",
                    "{who} receives {n} cards: {free} free, the rest to buy.", e.free + e.offered, who=who,
                    free=w.number(e.free))
    if e.free:
        return w.n_("{who} receives {n} free card.", "{who} receives {n} free cards.", e.free, who=who)
    if e.offered:
        return w.n_("{who} receives {n} card to buy.", "{who} receives {n} cards to buy.", e.offered, who=who)
    return w._("{who} receives no cards.", who=who)


def private_line(w: Words, e: Event, ed: Edition) -> str | None:
    match e.type:
        case "offered_cards":
            offered = w.join(names.card_with_price(w, c, ed) for c in names.in_hand_order(e.cards, ed))
            return w._("Cards offered to you: {cards}.", cards=offered)
        case "hand_cards":
            return w._("Added to your hand: {cards}.", cards=names.cards(w, names.in_hand_order(e.cards, ed)))
        case "choice_recorded":
            if e.decision == "reveal":
                return w._("Your choice is in: you lay down {cards}.", cards=names.cards(w, e.cards))
            return w._("Your choice is in: you buy {cards}.", cards=names.cards(w, e.cards))
        case "card_returned_private":
            return w._("You returned {card}.", card=names.card(w, e.card))
    return None


def lines(w: Words, events: Iterable[Event], people: People, player: str | None = None, *, ed: Edition) -> list[str]:
    """The log lines of `events` that `player` may read: public ones, and their own private ones."""
    out = []
    for e in events:
        if e.type == "choice_made" and e.player == player:
            continue  # their own "has chosen": the private line says what they chose
        if e.to is None:
            line = public_line(w, e, people, ed)
        elif e.to == player:
            line = private_line(w, e, ed)
        else:
            continue
        if line:
            out.append(line)
    return out
