"""What the bot says to one person: refusals by code (the engine's and the service's), apologies, confirmations.

Refusals reach only the person refused (an ephemeral reply, or the terminal);
their parameters are that person's own information, so nothing here leaks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import hours, names, undo
from .phases import phase
from .words import People, Words

# A refusal's parameters: their types vary by code (engine/refusals.py keeps them as Any).
Params = dict[str, Any]
Texts = dict[str, Callable[[], str]]  # a sentence per code, worded only when asked for


def notice(w: Words, code: str, params: Params, people: People) -> str:
    """The sentence for a refusal code; an unknown code still gets a polite answer."""
    texts = {**_table(w, params, people), **_engine(w, params, people), **undo.refusals(w, params, people),
             **hours.refusals(w, params)}
    text = texts.get(code)
    return text() if text is not None else w._("That is not possible right now; here is what you can do now.")


def _table(w: Words, p: Params, people: People) -> Texts:
    """The service's and the front-ends' codes."""
    return {
        "channel_busy": lambda: w._(
            "This channel already has a game. Finish or cancel it before opening a new table."
        ),
        "threads_default_not_allowed": lambda: w._(
            "Only someone who may manage this server can choose where its new tables open by default. Choose "
            "yes or no to open this one."
        ),
        "no_threads_here": lambda: w._(
            "A table opens in a thread of its own only from a text channel; open it here without one."
        ),
        "table_closed": lambda: w._("This table is closed; open a new one with `/augsburg new`."),
        "already_started": lambda: w._("This game has already started."),
        "already_seated": lambda: w._("You already have a seat at this table."),
        "table_full": lambda: w._("The table is full ({most} players).", most=p["most"]),
        "too_unreliable": lambda: w._("This table's host asks for a reliability of at least {least}%; yours is"
                                      " {yours}% (see `/augsburg records stats`).", least=p["least"], yours=p["yours"]),
        "not_at_table": lambda: w._("You are not seated at this table."),
        "host_cannot_leave": lambda: w._("The host cannot leave; use `/augsburg cancel` to close the table."),
        "host_only_computers": lambda: w._("Only the host can add computer players."),
        "host_only_start": lambda: w._("Only the host can start the game."),
        "players_needed": lambda: w._("A game needs {least} to {most} players.", least=p["least"], most=p["most"]),
        "no_game": lambda: w._("There is no game in this channel. Open one with `/augsburg new`."),
        "cancel_not_allowed": lambda: w._(
            "Only the host or someone who can manage this channel can cancel the game."
        ),
        "game_gone": lambda: w._("That game is over or was cancelled; these buttons no longer work."),
        "rematch_players_only": lambda: w._("Only the people who played that game can ask for its rematch; "
                                            "`/augsburg new` opens a table of your own."),
        "no_rematch": lambda: w._("There is no finished game in this channel to play again."),
        "rematch_joined": lambda: w._("You have a seat at the rematch. The host starts it when everyone is in."),
        "not_started": lambda: w._("The game has not started yet."),
        "not_seated": lambda: w._("You are not playing in this game."),
        "stale_decision": lambda: w._("That decision has already been taken; here is what you can do now."),
        "already_chosen": lambda: w._(
            "You have made this choice already; the others are still making theirs. Your panel is below."
        ),
        "stale_choice": lambda: w._("That choice no longer matches your cards; here is what you can do now."),
        "raced": lambda: w._("Someone acted at the same moment; please try again."),
        "not_stored": lambda: w._("The game could not be saved just now (its database is out of reach), so nothing "
                                  "was applied. Please try again in a moment."),
        "not_ours": lambda: w._("That button is not one of ours any more; open your hand again."),
        "unknown_choice": lambda: w._("That is not a choice I know."),
        "typed_ambiguous": lambda: w._("Which one do you mean: {candidates}?", candidates=w.join(p["candidates"])),
        "typed_unknown": lambda: _possible(w, p["choices"]),
        "unknown_input": lambda: w._("I could not read that command: an option is missing or is not one it offers. "
                                     "`/augsburg help` lists what you can do now."),
        "server_only": lambda: w._("Augsburg 1520 is played in a server channel; in direct messages only "
                                   "`/augsburg me` works (your games, your hours, your daily word)."),
        "seat_left": lambda: w._("You have left this game; the computer plays your seat until the end."),
        "no_computer": lambda: w._("There is no computer player to remove."),
        "host_only_levels": lambda: w._("Only the host can choose the computer players' levels."),
        "computer_gone": lambda: w._("That computer player is no longer at the table."),
        "host_only_clock": lambda: w._("Only the host can set the time per decision."),
        "host_only_language": lambda: w._("Only the host can choose the table's language."),
        "host_only_edition": lambda: w._("Only the host can choose the edition the game is played with."),
        "edition_gone": lambda: w._(
            "The edition “{edition}” chosen for this table is no longer on this server: choose another one.",
            edition=p["edition"]),
        "not_playable": lambda: not_playable(w, p["game"], p["edition"]),
        "replace_not_allowed": lambda: w._(
            "Only the host or someone who can manage this channel can hand a seat to the computer."
        ),
        "not_replaceable": lambda: w._("The computer already plays that seat, or it is nobody's seat."),
        "never_timed_out": lambda: w._("{player}'s time has never run out; a seat goes to the computer only after "
                                       "that.", player=people.name(p["player"])),
        "not_stood_in": lambda: w._("Nobody is playing for you: your seat is yours."),
        "ahead_lapsed": lambda: w._("That auction is over, or you are out of it: there is nothing to decide ahead."),
        "not_away": lambda: w._("You are not away. `/augsburg seat away` with a number of days sets time away."),
        "away_not_allowed": lambda: w._("The host of this table allows no time away."),
        "away_too_long": lambda: w.n_("This table allows at most {n} day away.",
                                      "This table allows at most {n} days away.", p["days"]),
        "seat_away": lambda: w._("{player} is away for now: their seat is not late, and theirs again when they are "
                                 "back.", player=people.name(p["player"])),
    }


def _engine(w: Words, p: Params, people: People) -> Texts:
    """The engine's refusal codes (engine/refusals.py lists them with their parameters)."""
    def category() -> str:  # (the codes that word it have a category)
        return names.category(w, p["category"])

    return {
        "unreadable": lambda: w._("That action cannot be read."),
        "not_seated": lambda: w._("You are not playing in this game."),
        "game_over": lambda: w._("The game is over; no more moves can be made."),
        "not_your_turn": lambda: w._("It is not your turn: {phase}.", phase=phase(w, p["phase"])),
        "wrong_moment": lambda: w._("You cannot {verb} now: {phase}.", verb=_verb(w, p["action"]),
                                    phase=phase(w, p["phase"])),
        "compensate_first": lambda: w._("First choose your compensation for the lost step: {money} or {prestige}.",
                                        money=w.money(p["money"]), prestige=w.prestige(p["prestige"])),
        "bad_count": lambda: w._("A bid is at least one card."),
        "bid_too_low": lambda: w.n_("A bid must offer more than {n} card; to offer the same number, call.",
                                    "A bid must offer more than {n} cards; to offer the same number, call.", p["high"]),
        "nothing_to_call": lambda: w._("Nobody has bid yet, so there is nothing to call: bid or pass."),
        "no_valid_card": lambda: w._("You hold no certificate for {noble}; a bid of jokers alone is not allowed.",
                                     noble=names.noble(w, p["noble"])),
        "too_many_cards": lambda: w.n_("You can offer at most {n} card for this noble.",
                                       "You can offer at most {n} cards for this noble.", p["max"]),
        "wrong_count": lambda: w.n_("Lay down exactly {n} card.", "Lay down exactly {n} cards.", p["count"]),
        "not_in_hand": lambda: w._("{card} is not in your hand.", card=names.card(w, p["card"])),
        "invalid_card": lambda: w._("{card} does not count for {noble}: only its certificates and jokers do.",
                                    card=names.card(w, p["card"]), noble=names.noble(w, p["noble"])),
        "jokers_only": lambda: w._("At least one of the cards must be a certificate, not a joker."),
        "not_offered": lambda: w._("You can only buy cards that were offered to you."),
        "cannot_afford": lambda: _cannot_afford(w, p),
        "card_taken": lambda: w._("You have already taken a privilege card."),
        "card_unavailable": lambda: w._("That privilege card is not on display."),
        "no_card": lambda: w._("Take a privilege card first."),
        "discard_first": lambda: w._("First discard one card from your hand."),
        "two_used": lambda: w._("You have already used two privileges of this card."),
        "bad_slot": lambda: w._("A privilege card has three privileges: 1, 2 and 3."),
        "slot_used": lambda: w._("You have already used that privilege."),
        "need_as": lambda: w._("Say how to use this {kind} privilege: a step or one of its alternatives.",
                               kind=names.category(w, p["kind"])),  # (only Trade, Nobility, Offices need it)
        "bad_from": lambda: w._("Only a step can be taken from another player."),
        "bad_as": lambda: w._("This {kind} privilege cannot be used that way.", kind=names.category(w, p["kind"])),
        "fixed_privilege": lambda: w._("This privilege can only be used exactly as printed."),
        "level_too_low": lambda: w._("That needs {category} level {level}.", category=category(), level=p["level"]),
        "top_level": lambda: w._("You are already at the top of {category}.", category=category()),
        "in_supply": lambda: w._("That step tile is still in the supply; take it from there."),
        "need_from": lambda: w._("That step tile is not in the supply: choose the player to take it from."),
        "not_holder": lambda: w._("{player} does not hold the {category} step {level} tile.",
                                  player=people.name(p["player"]), category=category(), level=p["level"]),
        "tile_held": lambda: w._("You already have a {tile}; nobody holds two.", tile=names.tile(w, p["tile"])),
        "stack_empty": lambda: w._("There is no {tile} left.", tile=names.tile(w, p["tile"])),
        "no_master_builder": lambda: w._("Only a Master Builder may build in addition to the privileges."),
        "built": lambda: w._("The Master Builder builds once per privilege card."),
        "bad_building": lambda: w._("The Master Builder builds a Church or a Cathedral."),
        "no_discard": lambda: w._("There is nothing to discard now."),
        "bad_take": lambda: w._("Choose {money} or {prestige}.", money=w.money(p["money"]),
                                prestige=w.prestige(p["prestige"])),
    }


def _verb(w: Words, action: str) -> str:
    return {
        "buy": w._("buy cards"),
        "bid": w._("bid"),
        "call": w._("call"),
        "pass": w._("pass"),
        "reveal": w._("lay down cards"),
        "take_card": w._("take a privilege card"),
        "use": w._("use a privilege"),
        "discard": w._("discard"),
        "build": w._("build"),
        "done": w._("finish a privilege card"),
        "compensate": w._("choose compensation"),
        "return_card": w._("return a card"),
    }.get(action, w._("do that"))


def _possible(w: Words, choices: list[str], most: int = 10) -> str:
    """A typed choice that names none of them: what the command can take now (the first `most`)."""
    if not choices:
        return w._("That is not one of your choices now.")
    shown = w.join(choices[:most])
    if len(choices) > most:
        shown = w.n_("{shown} and {n} more", "{shown} and {n} more", len(choices) - most, shown=shown)
    return w._("That is not one of your choices now. You can choose: {choices}.", choices=shown)


def _cannot_afford(w: Words, p: Params) -> str:
    if p.get("tile"):
        return w._("The top {tile} costs {cost}; you have {money}.", tile=names.tile(w, p["tile"]),
                   cost=w.money(p["cost"]), money=w.money(p["money"]))
    return w._("Those cards cost {cost}; you have {money}.", cost=w.money(p["cost"]), money=w.money(p["money"]))


def missing_permissions(w: Words, permissions: list[str]) -> str:
    """`permissions`: their names as Discord's settings show them."""
    return w.n_("I cannot open a table here: I lack the permission {names} in this channel. Someone who manages "
                "the server can grant it to me (or to my role); then try again.",
                "I cannot open a table here: I lack the permissions {names} in this channel. Someone who manages "
                "the server can grant them to me (or to my role); then try again.",
                len(permissions), names=w.both([f"**{p}**" for p in permissions]))


def sorry(w: Words) -> str:
    return w._("Sorry, something went wrong on our side. The game is safe; please try again in a moment.")


def restarting(w: Words) -> str:
    return w._("The game service is restarting; please try again in a moment.")


def quarantined(w: Words, game_id: int) -> str:
    return w._(
        "Sorry — the saved game in this channel (#{game}) is damaged and could not be restored. It has been set "
        "aside for the developers; you can open a new table with `/augsburg new`.",
        game=game_id,
    )


def not_playable(w: Words, game_id: int, edition: str | None) -> str:
    """A stored game this bot cannot go on with now (storage's GameNotPlayable): it is kept as it is."""
    if edition is not None:
        return w._(
            "The game in this channel (#{game}) was played with the edition “{edition}”, which this bot does not "
            "have any more (or no longer with the same values), so it cannot go on with it. The game is kept as "
            "it is: an operator can put that edition's file back (EDITIONS_DIR) to continue it.",
            game=game_id, edition=edition)
    return w._(
        "The game in this channel (#{game}) follows rules that this version of the bot does not play, so it "
        "cannot go on with it. The game is kept as it is, for a version that plays them.", game=game_id)


def done(w: Words, private_lines: list[str]) -> str:
    return " ".join([w._("✅ Done."), *private_lines])


def warning(w: Words, text: str) -> str:
    return f"⚠️ {text}"


def panel_moved(w: Words) -> str:
    return w._("This panel has moved: your newer one below is the one that follows the game.")


def game_over_here(w: Words) -> str:
    return w._("The game is over — see the channel.")


def cancel_question(w: Words) -> str:
    return w._("Cancel the game in this channel for everyone? This cannot be undone.")


def cancel_button(w: Words) -> str:
    return w._("Yes, cancel the game")


def cancelled(w: Words) -> str:
    return w._("The game was cancelled.")


def table_in_thread(w: Words, host: str, thread_id: int) -> str:
    """In the channel, where `/augsburg new` was used: the link to the table's own thread."""
    return w._("{host} opened a table of Augsburg 1520 in a thread of its own: {thread}", host=host,
               thread=f"<#{thread_id}>")


def cancelled_by(w: Words, who: str) -> str:
    return w._("The game of Augsburg 1520 in this channel was cancelled by {who}.", who=who)


def cancelled_footer(w: Words) -> str:
    return w._("This game was cancelled.")


def your_move(w: Words, who: list[str], status: str) -> str:
    """The ping: one player or several (German and Italian address several in the plural)."""
    return w.n_("{who} — your move. {status}", "{who} — your move. {status}", len(who), who=" ".join(who),
                status=status)


def what_you_can_do(w: Words) -> str:
    return w._("**What you can do now:**")


def nothing_to_do(w: Words) -> str:
    return w._("Nothing right now — it is not your turn. `/augsburg hand` shows your cards; "
               "`/augsburg status` shows the table.")


def your_move_heading(w: Words, prompt: str) -> str:
    return w._("**Your move:** {prompt}", prompt=prompt)

