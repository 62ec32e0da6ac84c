"""What one player may know of the others' cards and money, counted from the events it may see.

Money is secret (R28) but every change of it is public (incomes, purchases paid,
tiles' costs, consolations), and so are the numbers of cards each player takes
and lays down; a card shown in a showdown and taken back is known to be in that
hand until it is seen to leave, and what a purchase cost says which price bands
the bought cards are in (lots.py). A bid of k for a noble was backed by k valid
cards, one a certificate (R10); cards leave a hand only openly (laid down,
discarded) or by a shortage's return, so whoever bid still holds such cards,
fewer only by the valid ones seen leaving since (`backing`). Whoever passed while
the high bid was h likely held no more than h certificates of that noble (none,
if nobody had bid: a bid needs one), more only by the cards they got since
(`short`; likely, not sure: the normal player also passes on a weak hand). In a showdown
every player lays down their best valid certificate (R13: the best card decides), so none
of them likely holds a better one, more only by the cards they got since (`above`; for
Maximilian: no better certificate at all). A card drawn from
the deck showed its price on its back while it lay on top. `Belief` replays
those events; it never reads a GameState, so it can know no more than the
player whose events it is given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .. import events as ev
from ..components import JOKER
from ..edition import Edition, Rank
from .lots import Lots


class Belief:
    """Counts per player: money, cards in hand, cards offered; cards known to be in a hand or discarded;
    in a game of edition `ed`."""

    def __init__(self, ed: Edition) -> None:
        self.ed = ed
        self.players: list[str] = []
        self.money: dict[str, int] = {}
        self.hand: dict[str, int] = {}
        self.offered: dict[str, int] = {}
        self.known: dict[str, Counter[str]] = {}  # cards known to be in each hand
        self.lots: dict[str, Lots] = {}  # what the rest of each hand cost (lots.py)
        # player -> noble -> (valid cards, certificates among them) the hand still holds at least, by past bids
        self.backing: dict[str, dict[str, tuple[int, int]]] = {}
        # player -> noble -> certificates valid for it the hand likely holds at most, by past passes
        self.short: dict[str, dict[str, int]] = {}
        # player -> noble -> (rank, cap): certificates valid for it ranking above `rank` the hand likely holds at
        # most `cap` of, by the best card they laid down in a showdown
        self.above: dict[str, dict[str, tuple[Rank, int]]] = {}
        self.noble: str | None = None  # the noble of the running (or last) auction
        self.high = 0  # the running (or last) auction's high bid
        self.discard_known: Counter[str] = Counter()  # discarded face up since the last reshuffle
        self.discard = 0  # cards in the discard pile
        self.complete = False  # the history began with the game's start

    @classmethod
    def from_events(cls, history: Iterable[ev.Event], ed: Edition) -> Belief:
        belief = cls(ed)
        for event in history:
            belief.see(event)
        return belief

    @property
    def deck(self) -> int:
        return len(self.ed.all_cards) - sum(self.hand.values()) - sum(self.offered.values()) - self.discard

    def see(self, e: ev.Event) -> None:
        handler = getattr(self, "_" + type(e).__name__, None)
        if handler is not None:
            handler(e)

    def _GameStarted(self, e: ev.GameStarted) -> None:
        ed = self.ed
        type(self).__init__(self, ed)  # (all counts from scratch)
        self.complete = True
        self.players = list(e.players)
        for p in self.players:
            self.money[p] = ed.start_money
            self.hand[p] = ed.start_jokers
            self.offered[p] = ed.initial_deal
            self.known[p] = Counter({JOKER: ed.start_jokers})
            self.lots[p] = Lots(ed)
            self.backing[p] = {}
            self.short[p] = {}
            self.above[p] = {}

    def _AuctionStarted(self, e: ev.AuctionStarted) -> None:
        self.noble, self.high = e.noble, 0

    def _BidMade(self, e: ev.BidMade) -> None:
        self._backed(e.player, e.count)
        self.high = e.count

    def _Passed(self, e: ev.Passed) -> None:
        short = self.short[e.player]
        assert self.noble is not None  # (bids and passes come after their AuctionStarted)
        short[self.noble] = min(self.high, short.get(self.noble, self.high))

    def _gained(self, player: str, count: int) -> None:
        """`count` unseen cards came into `player`'s hand: each may be a certificate they lacked."""
        if count:
            self.short[player] = {noble: cap + count for noble, cap in self.short[player].items()}
            self.above[player] = {noble: (rank, cap + count) for noble, (rank, cap) in self.above[player].items()}

    def _Called(self, e: ev.Called) -> None:
        self._backed(e.player, e.count)

    def _backed(self, player: str, count: int) -> None:
        backing = self.backing[player]
        assert self.noble is not None  # (bids and passes come after their AuctionStarted)
        valid, certs = backing.get(self.noble, (0, 0))
        backing[self.noble] = (max(valid, count), 1)

    def _left(self, player: str, cards: Sequence[str | None]) -> None:
        """Cards left `player`'s hand (None: a card nobody saw): the bids they backed may be short of them now."""
        is_valid_for = self.ed.is_valid_for
        backing = self.backing[player]
        for noble, (valid, certs) in list(backing.items()):
            for card in cards:
                if card is None or is_valid_for(card, noble):
                    valid -= 1
                    certs -= card is None or card != JOKER
            if valid <= 0:
                del backing[noble]
            else:
                backing[noble] = (valid, max(0, certs))

    def _PurchaseMade(self, e: ev.PurchaseMade) -> None:
        self.money[e.player] -= e.paid
        self.hand[e.player] += e.count
        self._gained(e.player, e.count)
        self.lots[e.player].bought(e.count, e.paid)
        self.discard += self.offered[e.player] - e.count
        self.offered[e.player] = 0

    def _CardsDealt(self, e: ev.CardsDealt) -> None:
        self.hand[e.player] += e.free
        self._gained(e.player, e.free)
        self.lots[e.player].free += e.free
        self.offered[e.player] = e.offered

    def _CardsRevealed(self, e: ev.CardsRevealed) -> None:
        showdown = len(e.offers) > 1  # (a lone bidder lays down its cheapest cards instead)
        for player, cards in e.offers.items():
            if showdown:
                self.above[player][e.noble] = (max(self.ed.card_rank(c) for c in cards if c != JOKER), 0)
            shown = Counter(cards)
            for card in (shown - self.known[player]).elements():  # out of the unknown part
                self.lots[player].seen(card)
            if player == e.winner:  # laid down for good: out of the hand, face up on the discard pile
                self.known[player] -= shown
                self._left(player, cards)
                self.discard_known += shown
            else:  # taken back: now known to be in that hand
                self.known[player] |= shown

    def _AuctionWon(self, e: ev.AuctionWon) -> None:
        self.hand[e.player] -= e.count
        self.discard += e.count

    def _Consolation(self, e: ev.Consolation) -> None:
        self.money[e.player] += e.amount

    def _GuildersGained(self, e: ev.GuildersGained) -> None:
        self.money[e.player] += e.amount

    def _TileTaken(self, e: ev.TileTaken) -> None:
        self.money[e.player] -= e.cost

    def _RoundIncome(self, e: ev.RoundIncome) -> None:
        self.money[e.player] += e.money

    def _CardsDrawn(self, e: ev.CardsDrawn) -> None:
        self.hand[e.player] += e.count
        self._gained(e.player, e.count)
        if e.price is not None and e.count:  # the first card's back showed its price on top of the deck
            self.lots[e.player].bought(1, e.price)
            self.lots[e.player].free += e.count - 1
        else:
            self.lots[e.player].free += e.count

    def _CardDiscarded(self, e: ev.CardDiscarded) -> None:
        self.hand[e.player] -= 1
        if self.known[e.player][e.card]:
            self.known[e.player][e.card] -= 1
        else:
            self.lots[e.player].seen(e.card)
        self.discard += 1
        self.discard_known[e.card] += 1
        self._left(e.player, [e.card])

    def _CardReturned(self, e: ev.CardReturned) -> None:
        # Under the deck, unseen: which known card went (if one did) is unknown, so forget them all.
        self.hand[e.player] -= 1
        self.known[e.player] = Counter()
        self.lots[e.player].forget(self.hand[e.player])
        self._left(e.player, [None])

    def _DeckReshuffled(self, e: ev.DeckReshuffled) -> None:
        self.discard = 0
        self.discard_known = Counter()
