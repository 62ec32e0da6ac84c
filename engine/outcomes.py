"""How a phase ended: what a phase handler returns for flow.py to carry the game on.

A handler returns None while its phase goes on (someone in it must still act).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class PurchaseResolved:
    """Everybody's purchase is paid and taken (R4 initial, R23 round end)."""

    kind: Literal["initial", "round_end"]


@dataclass(frozen=True)
class AuctionWon:
    """A showdown is decided: `seat` won the noble and paid (R13)."""

    seat: int


@dataclass(frozen=True)
class NobleFinished:
    """Nothing more happens for this noble: everybody passed, or the winner is done with the privilege card."""


@dataclass(frozen=True)
class RoundScored:
    """Income and prestige are paid (R22); `last` when that was the last round (R25)."""

    last: bool


@dataclass(frozen=True)
class CardsReturned:
    """The deck shortage is over: enough cards are back in the deck (R24)."""


Outcome = PurchaseResolved | AuctionWon | NobleFinished | RoundScored | CardsReturned
