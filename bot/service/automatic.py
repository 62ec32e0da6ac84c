"""Decisions the bot takes for a person, with no ping and no click: their only legal option
(`engine.only_action`), or the auction decision they settled ahead (`Seat.ahead`). Pure: no I/O, no Discord.

Timing shows nothing the physical game hides. In a secret choice made by several at once (lay-downs,
purchases) a person's only option waits until everyone else due has chosen or has only one option too,
so it is never seen early: to the others it is a player who chose last. A turn of the auction is
answered at once, whether it was the only option or settled ahead, and both are told as the player's own
move, so an instant pass tells no one which it was.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Literal

from engine import GameState, is_legal, only_action, to_act
from engine.actions import ActionModel, Bid, Call, Pass
from engine.rules import bid_capacity
from storage import Actor, Ahead, Seat, Table

SIMULTANEOUS = ("initial_purchase", "round_end_purchase", "showdown")  # choices everyone due makes at once
HOWS: dict[str, Literal["pass", "call", "raise"]] = {"p": "pass", "c": "call", "r": "raise"}  # ahead's codes


@dataclass(frozen=True)
class Automatic:  # (shared by everyone who asks about the same state: read it, never change it)
    now: dict[str, tuple[ActionModel, Actor]] = field(default_factory=dict)  # person: (action, actor), now
    waiting: frozenset[str] = frozenset()  # people with one option in a secret choice, until the others chose


KNOWN = 64  # the (state, table) pairs asked about last, with their answer


def automatic(state: GameState | None, table: Table) -> Automatic:
    """The people due now whose decision the bot takes: made now, or waiting for the others.

    A move asks it of the same state several times (the bot's turn, the deadlines before and after, who is
    due, the next turn), each time working out every legal option of everyone due: the answer is kept for
    the very objects asked about (states and tables are never changed in place, cache.py)."""
    if state is None or state.phase == "game_over":
        return Automatic()
    key = (id(state), id(table))
    known = _known.get(key)
    if known is not None and known[0] is state and known[1] is table:
        _known.move_to_end(key)
        return known[2]
    made = _work_out(state, table)
    _known[key] = (state, table, made)
    if len(_known) > KNOWN:
        _known.popitem(last=False)
    return made


_known: OrderedDict[tuple[int, int], tuple[GameState, Table, Automatic]] = OrderedDict()


def _work_out(state: GameState, table: Table) -> Automatic:
    due = to_act(state)
    made: dict[str, tuple[ActionModel, Actor]] = {}
    for player in due:
        seat = table.seat(player)
        if seat is None or table.computer_plays(player):
            continue
        planned = planned_action(seat, state)
        if planned is not None:
            made[player] = (planned, "ahead")
        elif (only := only_action(state, player)) is not None:
            made[player] = (only, "only")
    if state.phase in SIMULTANEOUS and any(p not in made for p in due):
        return Automatic(waiting=frozenset(made))
    return Automatic(now=made)


def auction_id(state: GameState | None) -> str | None:
    """Names the running auction (a decision settled ahead is for it alone); None outside an auction."""
    if state is None or state.phase != "auction":
        return None
    return f"{state.round}.{state.noble}"


def planned_action(seat: Seat, state: GameState) -> ActionModel | None:
    """What the seat settled ahead for this turn of the running auction, as a legal action (None: nothing)."""
    ahead = seat.ahead
    if ahead is None or ahead.auction != auction_id(state):
        return None
    assert state.auction is not None, "an auction is running"
    action = ahead_action(ahead, state.auction.high)
    return action if is_legal(state, seat.id, action) else Pass()


def ahead_action(ahead: Ahead, high: int) -> ActionModel:
    """Pass; or call the highest bid while it is at most `cards` (open with 1 card if nobody has bid); or
    raise to `cards` (call it if it is the highest bid already); pass once the highest bid is beyond."""
    if ahead.how == "pass" or high > ahead.cards:
        return Pass()
    if ahead.how == "call":
        return Call() if high else Bid(count=1)
    return Call() if high == ahead.cards else Bid(count=ahead.cards)


def ahead_choices(state: GameState, player: str, due_too: bool = False) -> list[Ahead]:
    """What a player still in the running auction may settle ahead: pass, or call or raise up to any
    number of cards their hand allows (and above the highest bid for a raise). Empty outside an auction,
    for a player out of it, and for the player whose turn it is (they decide now; `due_too`: still listed)."""
    auction = auction_id(state)
    seat = next((i for i, p in enumerate(state.players) if p.id == player), None)
    running = state.auction
    if auction is None or running is None or state.noble is None or seat is None or running.passed[seat] \
            or (player in to_act(state) and not due_too):
        return []
    ed = state.edition
    most = bid_capacity(state.players[seat].hand, ed.nobles[state.noble], ed)
    high = running.high
    calls = [Ahead(auction=auction, how="call", cards=n) for n in range(max(1, high), most + 1)]
    raises = [Ahead(auction=auction, how="raise", cards=n) for n in range(high + 1, most + 1)]
    return [Ahead(auction=auction, how="pass"), *calls, *raises]


def lapsed(table: Table, state: GameState, mover: str | None = None) -> Table:
    """`table` without the plans of auctions no longer running, nor the mover's (a decision of theirs in
    the auction makes it). The same object when nothing lapses."""
    running = auction_id(state)
    gone = [s.id for s in table.seats if s.ahead is not None and (s.ahead.auction != running or s.id == mover)]
    if not gone:
        return table
    return table.with_seats([s.model_copy(update={"ahead": None}) if s.id in gone else s for s in table.seats])


def ahead_code(ahead: Ahead) -> str:
    """'p', 'c3' or 'r4': a choice settled ahead in a custom_id (a count the player's panel offered)."""
    return "p" if ahead.how == "pass" else f"{ahead.how[0]}{ahead.cards}"


def read_ahead(code: str, auction: str) -> Ahead | None:
    """The choice a code names, for `auction`; None if it names none."""
    how = HOWS.get(code[:1])
    if how is None or (how == "pass") != (code == "p") or (how != "pass" and not code[1:].isdigit()):
        return None
    return Ahead(auction=auction, how=how, cards=0 if how == "pass" else int(code[1:]))
