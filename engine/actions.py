"""Actions a player can take, one model per verb of SCENARIOS.md.

Parse from dicts with `parse_action({"do": "bid", "count": 2})`; the JSON field
names `as` and `from` are Python keywords, so the attributes are `as_`/`from_`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .rules import missing_card


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    if TYPE_CHECKING:
        do: str  # every action's verb: each subclass declares it as its own Literal (no field of this base)

    def to_json_dict(self) -> dict[str, Any]:  # (JSON values, as pydantic dumps them)
        return self.model_dump(by_alias=True, exclude_none=True)


class Buy(_Action):
    do: Literal["buy"] = "buy"
    cards: list[str]


class Bid(_Action):
    do: Literal["bid"] = "bid"
    count: int


class Call(_Action):
    do: Literal["call"] = "call"


class Pass(_Action):
    do: Literal["pass"] = "pass"


class Reveal(_Action):
    do: Literal["reveal"] = "reveal"
    cards: list[str]


class TakeCard(_Action):
    do: Literal["take_card"] = "take_card"
    card: str


class Use(_Action):
    do: Literal["use"] = "use"
    slot: int
    as_: str | None = Field(default=None, alias="as")
    from_: str | None = Field(default=None, alias="from")


class Discard(_Action):
    do: Literal["discard"] = "discard"
    card: str


class Build(_Action):
    do: Literal["build"] = "build"
    what: str


class Done(_Action):
    do: Literal["done"] = "done"


class Compensate(_Action):
    do: Literal["compensate"] = "compensate"
    take: str


class ReturnCard(_Action):
    do: Literal["return_card"] = "return_card"
    card: str


class TakeBack(_Action):
    """A player takes back their own last decision, move `move` of the log (engine/undo.py). It is never
    among legal_actions and `apply` refuses it: taking back needs the game's log, which `History` holds."""

    do: Literal["take_back"] = "take_back"
    move: int


Action = Annotated[
    Buy | Bid | Call | Pass | Reveal | TakeCard | Use | Discard | Build | Done | Compensate | ReturnCard | TakeBack,
    Field(discriminator="do"),
]
_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


class BadAction(ValueError):
    """The action could not be read at all: `field` is the dotted path of the first bad field ("" for the
    whole action, "do" for an unknown or missing verb), `problem` pydantic's error type."""

    def __init__(self, field: str, problem: str):
        super().__init__(f"unreadable action: {field or 'action'}: {problem}")
        self.field = field
        self.problem = problem


def parse_action(data: dict[str, Any]) -> _Action:  # JSON from outside: anything may be in it
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        problem = first["type"]
        loc = [str(x) for x in first.get("loc", ())][1:]  # the first element is the verb, the union's tag
        field = "do" if problem.startswith("union_tag") else ".".join(loc)
        raise BadAction(field, problem) from None


ActionModel = _Action


# --- Choices too large to enumerate: legal_actions lists them as one descriptor each.


class RevealChoice(BaseModel):
    """Lay down exactly `count` cards from `cards` (a multiset), at least one not a joker."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["reveal_choice"] = "reveal_choice"
    count: int
    cards: list[str]
    suggested: list[str]

    def allows(self, action: _Action) -> bool:
        if not isinstance(action, Reveal) or len(action.cards) != self.count:
            return False
        if all(c == "joker" for c in action.cards):
            return False
        return missing_card(action.cards, self.cards) is None


class BuyChoice(BaseModel):
    """Buy any part of `offered` (a multiset; prices alongside) costing at most `budget`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["buy_choice"] = "buy_choice"
    offered: list[str]
    prices: list[int]
    budget: int

    def allows(self, action: _Action) -> bool:
        if not isinstance(action, Buy) or missing_card(action.cards, self.offered) is not None:
            return False
        price = dict(zip(self.offered, self.prices, strict=False))
        return sum(price[c] for c in action.cards) <= self.budget


Choice = Annotated[RevealChoice | BuyChoice, Field(discriminator="kind")]
# One entry of legal_actions(): a concrete action (tagged by `do`) or a choice descriptor (tagged by `kind`).
LegalOption = Action | Choice


def allows(option: LegalOption, action: _Action) -> bool:
    """Whether one entry of legal_actions() permits `action`."""
    if isinstance(option, (RevealChoice, BuyChoice)):
        return option.allows(action)
    return option == action
