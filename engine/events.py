"""Events: what happened, as data. The bot turns them into sentences in any language.

`to` is None for a public event (everyone may know it) or the id of the one
player who may see a private event. Event types and their `data` keys:

public: game_started{players, start_player, rounds}, purchase_made{player, count, paid},
  auction_started{noble, opener}, bid{player, count}, call{player, count}, pass{player},
  auction_skipped{noble}, auction_ended{noble, players, count}, reveal{noble, offers,
  winner, best}, auction_won{noble, player, count, alone}, consolation{player, amount},
  privilege_card_taken{player, card}, privilege_used{player, card, slot, kind, as},
  guilders_gained{player, amount}, prestige_gained{player, amount, requested, reason},
  cards_drawn{player, count, reason}, card_discarded{player, card}, step_climbed{player,
  category, level, robbed}, step_lost{player, category, level}, compensation_chosen{player,
  take}, tile_taken{player, tile, value, cost}, privileges_declined{player, count},
  privilege_card_spent{cards}, round_income{player, money, prestige}, deck_reshuffled{},
  shortage_started{}, card_returned{player}, cards_dealt{player, free, offered},
  choice_made{player, decision}, round_started{round, opener}, game_over{winners, scores,
  tiebreak}
private: hand_cards{cards, reason}, offered_cards{cards}, choice_recorded{decision, cards},
  card_returned_private{card}
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str
    data: dict[str, Any] = {}
    to: str | None = None  # None = public

    @property
    def public(self) -> bool:
        return self.to is None


def public(type_: str, **data: Any) -> Event:
    return Event.model_construct(type=type_, data=data, to=None)


def private(player: str, type_: str, **data: Any) -> Event:
    return Event.model_construct(type=type_, data=data, to=player)
