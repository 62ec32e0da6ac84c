"""The engine's entry points: new_game, to_act, legal_actions, apply."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import auction, privileges, rng, round_end
from . import events as ev
from .actions import ActionModel, BadAction, allows, parse_action
from .common import Illegal
from .components import (
    ALL_CARDS,
    CATEGORIES,
    INITIAL_DEAL,
    JOKER,
    PRIVILEGE_CARDS,
    PRIVILEGE_DISPLAY_SIZE,
    START_JOKERS,
    START_MONEY,
    TILE_STACKS,
    rounds_for,
    step_tiles,
)
from .events import Event
from .state import GameState, Player, Tiles, clockwise_from, clone, seat_of


@dataclass(frozen=True)
class Applied:
    state: GameState
    events: list[Event] = field(default_factory=list)
    ok = True


@dataclass(frozen=True)
class Refused:
    """The action was not allowed; `reason` is a sentence for the acting player only."""

    code: str
    reason: str
    ok = False


class GameSetupError(ValueError):
    pass


def new_game(player_ids: list[str], seed: int, start_player: str | None = None) -> tuple[GameState, list[Event]]:
    """R1-R8: a fresh game, dealt and waiting for the initial purchase."""
    n = len(player_ids)
    if not 2 <= n <= 5:
        raise GameSetupError("Augsburg 1520 is played by 2 to 5 players.")
    if len(set(player_ids)) != n:
        raise GameSetupError("Every player must have a different id.")
    state_rng = rng.seed_state(seed)
    if start_player is None:
        state_rng, start = rng.randbelow(state_rng, n)  # R8: chosen at random unless the host picks
    elif start_player in player_ids:
        start = player_ids.index(start_player)
    else:
        raise GameSetupError(f"{start_player} is not one of the players.")
    deck = list(ALL_CARDS)
    for _ in range(START_JOKERS * n):
        deck.remove(JOKER)
    state_rng = rng.shuffle(state_rng, deck)
    cards = sorted(PRIVILEGE_CARDS, key=int)
    state_rng = rng.shuffle(state_rng, cards)
    state = GameState(
        seed=seed,
        rng=state_rng,
        players=[fresh_player(pid, hand=[JOKER] * START_JOKERS) for pid in player_ids],
        rounds=rounds_for(n),
        round=1,
        phase="initial_purchase",
        lead=start,
        deck=deck,
        discard=[],
        step_supply={c: step_tiles(n) for c in CATEGORIES},
        tile_stacks={k: list(v) for k, v in TILE_STACKS.items()},
        privilege_display=cards[:PRIVILEGE_DISPLAY_SIZE],
        privilege_waiting=cards[PRIVILEGE_DISPLAY_SIZE:],
    )
    events = [ev.public("game_started", players=list(player_ids), start_player=player_ids[start], rounds=state.rounds)]
    deal_initial(state, events)
    return state, events


def fresh_player(pid: str, hand: list[str]) -> Player:
    return Player(id=pid, money=START_MONEY, score=0, hand=hand, levels={c: 1 for c in CATEGORIES}, tiles=Tiles())


def deal_initial(state: GameState, events: list) -> None:
    """R4: seven cards each, one at a time from the start player clockwise."""
    order = clockwise_from(state, state.lead)
    for _ in range(INITIAL_DEAL):
        for seat in order:
            card = state.deck.pop(0) if state.deck else None
            if card is not None:
                state.players[seat].offered.append(card)
    for seat in order:
        p = state.players[seat]
        events.append(ev.private(p.id, "offered_cards", cards=p.offered[:]))
    round_end.start_purchase(state, "initial", order, events)


def to_act(state: GameState) -> list[str]:
    """Who must act now, in seating order (several at once for secret choices)."""
    return [state.players[s].id for s in _seats_to_act(state)]


def _seats_to_act(state: GameState) -> list[int]:
    phase = state.phase
    if phase == "auction":
        return [state.auction.turn]
    if phase == "showdown":
        sd = state.showdown
        return [s for s in sorted(sd.seats) if s not in sd.reveals]
    if phase == "privilege":
        t = state.privilege
        return [t.robbed if t.robbed is not None else t.seat]
    if phase in ("initial_purchase", "round_end_purchase"):
        return round_end.purchase_to_act(state)
    if phase == "shortage":
        return state.shortage.remaining[:1]
    return []


_HANDLERS = {
    ("initial_purchase", "buy"): round_end.buy,
    ("round_end_purchase", "buy"): round_end.buy,
    ("auction", "bid"): auction.bid,
    ("auction", "call"): auction.call,
    ("auction", "pass"): auction.pass_,
    ("showdown", "reveal"): auction.reveal,
    ("privilege", "take_card"): privileges.take_card,
    ("privilege", "use"): privileges.use,
    ("privilege", "discard"): privileges.discard,
    ("privilege", "build"): privileges.build,
    ("privilege", "done"): privileges.done,
    ("privilege", "compensate"): privileges.compensate,
    ("shortage", "return_card"): round_end.return_card,
}
_LEGAL = {
    "initial_purchase": round_end.legal_buy,
    "round_end_purchase": round_end.legal_buy,
    "auction": auction.legal_auction,
    "showdown": auction.legal_reveal,
    "privilege": privileges.legal_privilege,
    "shortage": round_end.legal_return,
}
_PHASE_WORDS = {
    "initial_purchase": "the players are choosing which dealt cards to buy",
    "round_end_purchase": "the players are choosing which offered cards to buy",
    "auction": "an auction is running",
    "showdown": "the highest bidders are laying down their cards",
    "privilege": "the auction winner is using a privilege card",
    "shortage": "players are returning cards to the deck",
    "game_over": "the game is over",
}


def legal_actions(state: GameState, player: str) -> list:
    """Everything `player` may do now: concrete actions, plus RevealChoice/BuyChoice descriptors."""
    seat = seat_of(state, player)
    if seat is None or seat not in _seats_to_act(state):
        return []
    return _LEGAL[state.phase](state, seat)


def is_legal(state: GameState, player: str, action: ActionModel) -> bool:
    return any(allows(option, action) for option in legal_actions(state, player))


def apply(state: GameState, player: str, action: ActionModel | dict) -> Applied | Refused:
    """Apply one action. On refusal `state` is untouched and the reason is for `player` alone."""
    if isinstance(action, dict):
        try:
            action = parse_action(action)
        except BadAction as exc:
            return Refused("unreadable", str(exc))
    seat = seat_of(state, player)
    if seat is None:
        return Refused("not_seated", "You are not playing in this game.")
    if state.phase == "game_over":
        return Refused("game_over", "The game is over; no more moves can be made.")
    if seat not in _seats_to_act(state):
        return Refused("not_your_turn", f"It is not your turn: {_PHASE_WORDS[state.phase]}.")
    handler = _HANDLERS.get((state.phase, action.do))
    robbed = state.phase == "privilege" and state.privilege.robbed is not None
    if handler is None or (action.do == "compensate") != robbed:
        if robbed:  # only the robbed player is due now (to_act), and only for compensation
            return Refused("wrong_moment", "First choose your compensation for the lost step: money or prestige.")
        verb = action.do.replace("_", " ")
        return Refused("wrong_moment", f"You cannot {verb} now: {_PHASE_WORDS[state.phase]}.")
    new = clone(state)
    events: list[Event] = []
    try:
        handler(new, seat, action, events)
    except Illegal as exc:
        return Refused(exc.code, exc.reason)
    new.moves += 1
    return Applied(new, events)


class ReplayError(ValueError):
    def __init__(self, index: int, reason: str):
        super().__init__(f"action {index + 1} of the log was refused: {reason}")
        self.index = index


def replay(player_ids: list[str], seed: int, start_player: str | None, log) -> GameState:
    """Rebuild a game from its creation arguments and its (player, action) log."""
    state, _ = new_game(player_ids, seed, start_player)
    for index, (player, action) in enumerate(log):
        result = apply(state, player, action)
        if not result.ok:
            raise ReplayError(index, result.reason)
        state = result.state
    return state
