"""Why an action was refused: a code and its parameters, never a sentence.

Front-ends word each code in their own language from its parameters. PARAMS
lists every code the engine produces with the names of its parameters, which
are always all present. Values are numbers, card ids, player ids, category,
tile and privilege-kind names, phases and verbs (an action's `do`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

PARAMS: dict[str, tuple[str, ...]] = {
    # --- any phase (game.apply)
    "unreadable": ("field", "problem"),  # the action cannot be parsed: dotted field path ("" = the whole
    #   action, "do" = unknown or missing verb) and pydantic's error type (e.g. "missing", "int_parsing")
    "not_seated": (),  # the player is not in this game
    "game_over": (),  # the game has ended
    "not_your_turn": ("phase",),  # somebody else must act in `phase`
    "wrong_moment": ("action", "phase"),  # verb `action` is not something one does in `phase`
    "compensate_first": ("money", "prestige"),  # robbed of a step: first choose `money` guilders or `prestige`
    # --- auction and showdown
    "bad_count": ("count",),  # a bid of fewer than one card
    "bid_too_low": ("high",),  # a bid must offer more than the high bid `high`; to equal it, call
    "nothing_to_call": (),  # nobody has bid yet
    "no_valid_card": ("noble",),  # no certificate for `noble` in hand: a bid of jokers alone is not allowed
    "too_many_cards": ("max",),  # the hand can back at most `max` cards for this noble
    "wrong_count": ("count",),  # a reveal must lay down exactly `count` cards
    "not_in_hand": ("action", "card"),  # `card` (for `action`: reveal, discard, return_card) is not in hand
    "invalid_card": ("card", "noble"),  # `card` is neither a certificate of `noble` nor a joker
    "jokers_only": (),  # a reveal needs at least one certificate
    # --- purchases
    "not_offered": ("card",),  # `card` was not offered to the buyer
    "cannot_afford": ("cost", "money", "tile"),  # costs `cost`, the player has `money`; `tile` is the
    #   building (church, cathedral) or None for a card purchase
    # --- privilege phase
    "card_taken": ("card",),  # privilege card `card` is already taken for this auction
    "card_unavailable": ("card",),  # privilege card `card` is not on display
    "no_card": (),  # take a privilege card first
    "discard_first": (),  # after draw 2, first discard one card
    "two_used": (),  # both privileges of this card are already used
    "bad_slot": ("slot",),  # a privilege card has slots 0, 1 and 2 only
    "slot_used": ("slot",),  # the privilege in `slot` is already used
    "need_as": ("kind",),  # a `kind` (category) privilege needs "as": a step or one of its alternatives
    "bad_from": ("as",),  # "from" goes only with a step, not with `as`
    "bad_as": ("kind", "as"),  # a `kind` privilege cannot be used as `as`
    "fixed_privilege": ("kind",),  # a `kind` privilege is used as printed: no "as", no "from"
    "level_too_low": ("what", "category", "level"),  # `what` (trade300 or a tile) needs `category` at `level`
    "top_level": ("category",),  # already at the top of `category`
    "in_supply": ("category", "level"),  # the step tile is in the supply: take it from there, no "from"
    "need_from": ("category", "level"),  # the step tile is not in the supply: say whom to take it from
    "not_holder": ("player", "category", "level"),  # `player` does not hold the step `level` tile of `category`
    "tile_held": ("tile",),  # nobody holds two of a tile
    "stack_empty": ("tile",),  # no `tile` left
    "no_master_builder": (),  # only a Master Builder builds besides the privileges
    "built": (),  # the Master Builder builds once per privilege card
    "bad_building": ("what",),  # `what` is not a church or a cathedral
    "no_discard": (),  # there is nothing to discard
    "bad_take": ("take", "money", "prestige"),  # compensation is `money` guilders or `prestige`, not `take`
    # --- taking a decision back (undo.py)
    "nothing_to_undo": (),  # the player has no decision of their own standing in this game
    "undo_stale": ("move",),  # the undo was offered for move `move`, which is no longer their last decision
    "undo_made_for_you": (),  # their last move was made for them (the clock, a stand-in), not decided by them
    "undo_other_acted": ("player",),  # `player` has acted since (a secret choice of the same round excepted)
    "undo_final": ("reason",),  # it can never be taken back: `reason` in undo.FINAL's values
}


def check(code: str, params: dict[str, Any]) -> None:
    """Raise ValueError unless `code` is registered and `params` has exactly its parameters."""
    names = PARAMS.get(code)
    if names is None:
        raise ValueError(f"unregistered refusal code {code!r}")
    if set(params) != set(names):
        raise ValueError(f"refusal {code!r} takes {names}, not {tuple(params)}")


class Illegal(Exception):
    """An action the rules do not allow, raised by a phase handler; game.apply turns it into a Refused."""

    def __init__(self, code: str, **params: Any):
        check(code, params)
        super().__init__(code, params)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Refused:
    """The action was not allowed and changed nothing; only the acting player is told."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)
    ok: ClassVar[Literal[False]] = False

    def __post_init__(self) -> None:
        check(self.code, self.params)
