"""What is happening now, in one sentence: for the table, a ping, a panel, the terminal."""

from __future__ import annotations

from engine import View

from . import names, views
from .words import People, Words


def phase(w: Words, phase_id: str) -> str:
    """The phase as a clause: 'an auction is running'."""
    return {
        "initial_purchase": w._("the players are choosing which dealt cards to buy"),
        "round_end_purchase": w._("the players are choosing which offered cards to buy"),
        "auction": w._("an auction is running"),
        "showdown": w._("the highest bidders are laying down their cards"),
        "privilege": w._("the auction winner is using a privilege card"),
        "shortage": w._("players are returning cards to the deck"),
        "game_over": w._("the game is over"),
    }[phase_id]


def status(w: Words, view: View, people: People) -> str:
    """The table's headline: who must do what now."""
    who = w.join(people.addressed(p) for p in view.to_act)
    if view.phase == "game_over":
        won = views.winners(view)
        winners = w.join(people.name(p) for p in won)
        return w.n_("The game is over. Winner: {winners}.", "The game is over. Winners: {winners}.",
                    len(won), winners=winners)
    if view.phase == "initial_purchase":
        return w._("Everyone is choosing which of their 7 dealt cards to buy — waiting for {who}.", who=who)
    if view.phase == "round_end_purchase":
        return w._("Everyone is choosing which offered cards to buy — waiting for {who}.", who=who)
    if view.phase == "shortage":
        return w._("Too few debt cards: players return cards from hand — waiting for {who}.", who=who)
    noble = names.noble(w, views.noble(view))
    if view.phase == "auction":
        a = views.auction(view)
        line = w._("Auction for **{noble}** — {who} to bid.", noble=noble, who=who)
        if a.high:
            assert a.high_player is not None  # a bid has a bidder
            line += " " + w.n_("Highest bid: {n} card by {player}.", "Highest bid: {n} cards by {player}.", a.high,
                               player=people.name(a.high_player))
        return line
    if view.phase == "showdown":
        return w.n_("Showdown for **{noble}**: {n} card each — waiting for {who}.",
                    "Showdown for **{noble}**: {n} cards each — waiting for {who}.", views.showdown(view).count,
                    noble=noble, who=who)
    pv = views.privilege(view)
    if pv.awaiting == "compensation":
        assert pv.robbed is not None  # (engine/views.py: compensation is awaited from the one robbed)
        return w._("{player} lost a step and chooses compensation.", player=people.addressed(pv.robbed))
    if pv.card:
        return w._("{player} won **{noble}** and is using a privilege card ({card}).",
                   player=people.addressed(pv.player), noble=noble, card=names.privilege_card(w, pv.card, view.edition))
    return w._("{player} won **{noble}** and is using a privilege card.", player=people.addressed(pv.player),
               noble=noble)


def your_move(w: Words, view: View, people: People) -> str:
    """What the player to act is asked to do, for the terminal's prompt."""
    match view.phase:
        case "initial_purchase":
            return w._("buy from the seven dealt cards.")
        case "round_end_purchase":
            return w._("buy from the cards offered to you.")
        case "auction":
            if not views.auction(view).high:
                return w._("auction for {noble} (no bid yet).", noble=names.noble(w, views.noble(view)))
            return w.n_("auction for {noble} (highest bid: {n} card).", "auction for {noble} (highest bid: {n} cards).",
                        views.auction(view).high, noble=names.noble(w, views.noble(view)))
        case "showdown":
            return w._("lay down your cards for {noble}.", noble=names.noble(w, views.noble(view)))
        case "privilege" if views.privilege(view).awaiting == "compensation":  # not the winner: the one robbed
            return w._("{player} climbed and took your step tile: choose your compensation, {money} or 1 "
                       "prestige.", player=people.name(views.privilege(view).player), money=w.money(100))
        case "privilege" if views.privilege(view).card is None:  # the card is still to be chosen
            return w._("you won {noble}: choose a privilege card.", noble=names.noble(w, views.noble(view)))
        case "privilege":
            return w._("you won {noble}: use your privilege card.", noble=names.noble(w, views.noble(view)))
        case "shortage":
            return w._("too few debt cards: return one card under the deck.")
    return ""
