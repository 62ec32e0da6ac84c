"""Events: what happened, as typed data. Front-ends turn them into sentences in any language.

One frozen model per event, discriminated by `type` (the strings are stored data: never rename them).
`to` is None for a public event, which everyone may know, or the id of the one player who may see a
private event. Debt card ids appear in public events only where the cards are shown openly: CardsRevealed
and CardDiscarded.

    EVENTS.dump_json(events)      # bytes, for storage
    EVENTS.validate_json(data)    # back to a list of events
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, serialize_by_alias=True)

    type: str
    to: str | None = None  # None = public

    @property
    def public(self) -> bool:
        return self.to is None


class _Private(_Event):
    to: str


# --- public: setup and purchases


class GameStarted(_Event):
    type: Literal["game_started"] = "game_started"
    players: list[str]
    start_player: str
    rounds: int


class PurchaseMade(_Event):
    type: Literal["purchase_made"] = "purchase_made"
    player: str
    count: int
    paid: int


class ChoiceMade(_Event):
    """A secret reveal or purchase is in; what was chosen goes privately to the chooser (ChoiceRecorded)."""

    type: Literal["choice_made"] = "choice_made"
    player: str
    decision: Literal["reveal", "buy"]


# --- public: auctions


class AuctionStarted(_Event):
    type: Literal["auction_started"] = "auction_started"
    noble: str
    opener: str


class BidMade(_Event):
    type: Literal["bid"] = "bid"
    player: str
    count: int


class Called(_Event):
    type: Literal["call"] = "call"
    player: str
    count: int


class Passed(_Event):
    type: Literal["pass"] = "pass"
    player: str


class AuctionSkipped(_Event):
    type: Literal["auction_skipped"] = "auction_skipped"
    noble: str


class AuctionEnded(_Event):
    """Bidding is over; `players` must each lay down `count` cards."""

    type: Literal["auction_ended"] = "auction_ended"
    noble: str
    players: list[str]
    count: int


class CardsRevealed(_Event):
    type: Literal["reveal"] = "reveal"
    noble: str
    offers: dict[str, list[str]]  # player id -> cards laid down
    winner: str


class AuctionWon(_Event):
    type: Literal["auction_won"] = "auction_won"
    noble: str
    player: str
    count: int
    alone: bool  # nobody else went to the showdown


class Consolation(_Event):
    type: Literal["consolation"] = "consolation"
    player: str
    amount: int


# --- public: privileges


class PrivilegeCardTaken(_Event):
    type: Literal["privilege_card_taken"] = "privilege_card_taken"
    player: str
    card: str


class PrivilegeUsed(_Event):
    type: Literal["privilege_used"] = "privilege_used"
    player: str
    card: str
    slot: int
    kind: str
    as_: str | None = Field(alias="as")  # None for a privilege used as printed


class GuildersGained(_Event):
    type: Literal["guilders_gained"] = "guilders_gained"
    player: str
    amount: int
    reason: Literal["trade", "privilege", "compensation"]


class PrestigeGained(_Event):
    """`requested` points were due; `amount` were kept under the prestige limit (R21)."""

    type: Literal["prestige_gained"] = "prestige_gained"
    player: str
    amount: int
    requested: int
    reason: Literal["privilege", "round_end", "declined", "compensation"]


class CardsDrawn(_Event):
    type: Literal["cards_drawn"] = "cards_drawn"
    player: str
    count: int
    reason: Literal["privilege"]
    price: int | None = None  # the first card's back, seen on the deck (R28); None: empty deck, or an older event


class CardDiscarded(_Event):
    type: Literal["card_discarded"] = "card_discarded"
    player: str
    card: str


class StepClimbed(_Event):
    type: Literal["step_climbed"] = "step_climbed"
    player: str
    category: str
    level: int
    robbed: str | None  # the player the step was taken from, None if from the supply


class StepLost(_Event):
    type: Literal["step_lost"] = "step_lost"
    player: str
    category: str
    level: int  # the level left


class CompensationChosen(_Event):
    type: Literal["compensation_chosen"] = "compensation_chosen"
    player: str
    take: Literal["money", "prestige"]


class TileTaken(_Event):
    type: Literal["tile_taken"] = "tile_taken"
    player: str
    tile: str
    value: int | bool  # True for the Minter and the Master Builder
    cost: int


class PrivilegesDeclined(_Event):
    type: Literal["privileges_declined"] = "privileges_declined"
    player: str
    count: int


class PrivilegeCardsSpent(_Event):
    """Privilege cards left on display at the round end go out of play."""

    type: Literal["privilege_card_spent"] = "privilege_card_spent"
    cards: list[str]


# --- public: round end


class RoundIncome(_Event):
    type: Literal["round_income"] = "round_income"
    player: str
    money: int
    prestige: int  # before the limit; PrestigeGained follows with what was kept


class DeckReshuffled(_Event):
    type: Literal["deck_reshuffled"] = "deck_reshuffled"


class ShortageStarted(_Event):
    type: Literal["shortage_started"] = "shortage_started"


class CardReturned(_Event):
    type: Literal["card_returned"] = "card_returned"
    player: str


class CardsDealt(_Event):
    type: Literal["cards_dealt"] = "cards_dealt"
    player: str
    free: int
    offered: int


class RoundStarted(_Event):
    type: Literal["round_started"] = "round_started"
    round: int
    opener: str


class GameOver(_Event):
    type: Literal["game_over"] = "game_over"
    winners: list[str]
    scores: dict[str, int]
    tiebreak: Literal["cathedral", "church", "shared"] | None


# --- public: a decision taken back (engine/undo.py)


class TakenBack(_Event):
    """`player` took back decision `decision` (its verb) of move `moves[0]`, and their forced moves after it."""

    type: Literal["taken_back"] = "taken_back"
    player: str
    decision: str
    moves: list[int]


# --- private: for `to` alone


class HandCards(_Private):
    type: Literal["hand_cards"] = "hand_cards"
    cards: list[str]
    reason: Literal["free", "privilege"]


class OfferedCards(_Private):
    type: Literal["offered_cards"] = "offered_cards"
    cards: list[str]


class ChoiceRecorded(_Private):
    type: Literal["choice_recorded"] = "choice_recorded"
    decision: Literal["reveal", "buy"]
    cards: list[str]


class CardReturnedPrivate(_Private):
    type: Literal["card_returned_private"] = "card_returned_private"
    card: str


Event = Annotated[
    GameStarted | PurchaseMade | ChoiceMade | AuctionStarted | BidMade | Called | Passed | AuctionSkipped
    | AuctionEnded | CardsRevealed | AuctionWon | Consolation | PrivilegeCardTaken | PrivilegeUsed | GuildersGained
    | PrestigeGained | CardsDrawn | CardDiscarded | StepClimbed | StepLost | CompensationChosen | TileTaken
    | PrivilegesDeclined | PrivilegeCardsSpent | RoundIncome | DeckReshuffled | ShortageStarted | CardReturned
    | CardsDealt | RoundStarted | GameOver | TakenBack | HandCards | OfferedCards | ChoiceRecorded
    | CardReturnedPrivate,
    Field(discriminator="type"),
]
EVENTS: TypeAdapter[list[Event]] = TypeAdapter(list[Event])
