"""Possible games: a whole GameState built from one player's view and belief, the hidden cards dealt at random.

The strong player searches in such states. The cards it cannot see (the others'
hands, the deck, the discard pile below its top) are dealt from the cards left
once its own hand and everything known (`Belief`) are taken out, so that:
- every player holds as many cards as the public history says, and the cards
  seen going back into a hand;
- the cards a player bought and still holds have prices that add up to what
  they paid (lots.py), a split chosen by how many unseen cards could make it;
- whoever has offered k cards in the running auction holds k valid cards, one of
  them a certificate of this noble (R10), so the auction can go on;
- whoever passed at a high bid of h is likely dealt no more than h certificates
  of that noble (`Belief.short`; a card beyond is dealt last with chance SHORT), and whoever laid down
  their best card in a showdown is likely dealt no better one (`Belief.above`; chance SHOWN);
- the top card of the deck has the price its back shows, and the discard pile's
  top card is the one lying face up.
Everything else in the state is public and copied from the view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from types import SimpleNamespace
from typing import Literal, TypeGuard

from .. import views
from ..actions import Buy, BuyChoice
from ..components import JOKER
from ..edition import Edition, Rank
from ..game import legal_actions
from ..state import Auction, GameState, Player, PrivilegeTurn, Purchase
from ..views import View
from .belief import Belief
from .lots import Lots
from .seen import Decide, SeenView

Sampled = Literal["auction", "privilege", "initial_purchase", "round_end_purchase"]
SAMPLED_PHASES: tuple[Sampled, ...] = ("auction", "privilege", "initial_purchase", "round_end_purchase")
PURCHASES = ("initial_purchase", "round_end_purchase")
SHORT = 0.8  # the chance a card a pass says the hand likely lacks is kept out of it
SHOWN = 0.9  # the same for a certificate better than the best one its holder laid down in a showdown


class Unsampled(ValueError):
    """This view cannot be turned into a world (a phase not searched, or a history that does not add up)."""


def _sampled(phase: str) -> TypeGuard[Sampled]:
    return phase in SAMPLED_PHASES


def sample_world(view: View, belief: Belief, rnd: random.Random, decide: Decide | None = None) -> GameState:
    """A possible game behind `view`. In a purchase, `decide(player, view)` makes the secret choices
    the others have already made (the normal player's, in the world dealt to them)."""
    if not _sampled(view.phase) or view.you is None:
        raise Unsampled(view.phase)
    if view.phase in PURCHASES and (decide is None or view.you.id not in view.to_act):
        raise Unsampled("a purchase needs the others' choices made, and ours to come")
    if view.phase == "privilege":
        assert view.privilege is not None
        if view.privilege.awaiting not in ("take_card", "privileges"):
            raise Unsampled(view.privilege.awaiting)
    me = view.you.id
    ids = [p.id for p in view.players]
    others = [p for p in ids if p != me]
    if not belief.complete or set(belief.players) != set(ids):
        raise Unsampled("no history")
    ed = view.edition
    pool = Counter(ed.all_cards)
    pool -= Counter(view.you.hand)
    pool -= Counter(view.you.offered)
    known = {p: Counter(belief.known[p]) for p in others}
    for p in others:
        known[p] = _fit(known[p], belief.hand[p])
        pool -= known[p]
    discard_known = belief.discard_known & pool
    pool -= discard_known
    top = view.discard_top
    if top is not None:  # face up on the discard pile: it is nowhere else
        if discard_known[top]:
            discard_known[top] -= 1
        elif pool[top]:
            pool[top] -= 1
        else:
            raise Unsampled("the discard pile's top card is elsewhere")
    unknown = list(pool.elements())
    rnd.shuffle(unknown)
    deck_top = _deck_top(unknown, view.deck_top_price, ed) if belief.deck > 0 else []

    hands = {p: list(known[p].elements()) for p in others}
    if view.phase == "auction":  # R10: an offer of k is backed by k valid cards, one a certificate
        noble = view.noble
        assert view.auction is not None and noble is not None
        for p, k in view.auction.offers.items():
            if p == me:
                continue
            _ensure(hands[p], unknown, k, noble, ed)
    moved = False
    for p in others:  # what earlier bids say they still hold, as far as their hands have room
        moved |= _lacking_last(unknown, hands[p], belief.short[p], ed, rnd, belief.above[p])
        for noble in sorted(belief.backing[p], key=ed.nobles.index):  # Maximilian (any certificate) last
            valid, certs = belief.backing[p][noble]
            _ensure(hands[p], unknown, valid, noble, ed, certs > 0, room=belief.hand[p])
    for p in others:
        moved |= _lacking_last(unknown, hands[p], belief.short[p], ed, rnd, belief.above[p])
        _priced(hands[p], unknown, belief.lots[p], belief.hand[p], sum(known[p].values()), rnd)
        need = belief.hand[p] - len(hands[p])
        if need < 0 or need > len(unknown):
            raise Unsampled("hand sizes do not add up")
        hands[p] += unknown[:need]
        del unknown[:need]
    if moved:  # what is left lies anywhere
        rnd.shuffle(unknown)
    offered: dict[str, list[str]] = {}
    for p in others:  # dealt for a purchase, face down
        offered[p] = unknown[:belief.offered[p]]
        del unknown[:belief.offered[p]]

    rest = max(0, belief.deck - len(deck_top))
    deck = deck_top + unknown[:rest]
    del unknown[:rest]
    discard = list(discard_known.elements()) + unknown
    rnd.shuffle(discard)
    if top is not None:
        discard.append(top)

    money = {p: belief.money[p] for p in others} | {me: view.you.money}
    hand_of = hands | {me: list(view.you.hand)}
    offered_of = offered | {me: list(view.you.offered)}
    players = [Player(id=p.id, money=money[p.id], score=p.score, hand=tuple(hand_of[p.id]), levels=dict(p.levels),
                      tiles=p.tiles.model_copy(), offered=tuple(offered_of[p.id])) for p in view.players]
    shown = set(view.privilege_display) | set(view.privilege_waiting)
    state = GameState(
        edition=ed, seed=0, rng=rnd.getrandbits(63) | 1, players=players, rounds=view.rounds, round=view.round,
        phase=view.phase, noble=ed.nobles.index(view.noble) if view.noble else None, lead=ids.index(view.lead),
        deck=tuple(deck), discard=tuple(discard),
        step_supply={k: tuple(v) for k, v in view.step_supply.items()},
        tile_stacks={k: tuple(v) for k, v in view.tile_stacks.items()},
        privilege_display=tuple(view.privilege_display), privilege_waiting=tuple(view.privilege_waiting),
        privilege_spent=tuple(c for c in ed.privilege_cards if c not in shown), moves=view.moves,
    )
    if view.phase == "auction":
        a = view.auction
        assert a is not None
        state.auction = Auction(turn=ids.index(a.turn), offers=[a.offers.get(p, 0) for p in ids],
                                passed=[p in a.passed for p in ids], high=a.high,
                                high_seat=ids.index(a.high_player) if a.high_player else None)
    elif view.phase == "privilege":
        t = view.privilege
        assert t is not None
        state.privilege = PrivilegeTurn(seat=ids.index(t.player), card=t.card, used=list(t.used), built=t.built)
    else:
        kind: Literal["initial", "round_end"] = "initial" if view.phase == "initial_purchase" else "round_end"
        lead = ids.index(view.lead)
        state.purchase = Purchase(kind=kind, order=[(lead + i) % len(ids) for i in range(len(ids))])
        assert decide is not None  # (checked above, for a purchase)
        for p in others:  # those who have chosen already: what they would choose in this world
            if p not in view.to_act and offered[p]:
                chosen = decide(p, quick_view(state, p, alone=True))
                assert isinstance(chosen, Buy)  # (a purchase is all it can decide there)
                state.purchase.choices[ids.index(p)] = chosen.cards
    return state


def _fit(known: Counter[str], size: int) -> Counter[str]:
    """Known cards, cut down to the hand's size should the history have lost track (a card returned unseen)."""
    if sum(known.values()) <= size:
        return known
    return Counter(list(known.elements())[:size])


def _ensure(hand: list[str], unknown: list[str], k: int, noble: str, ed: Edition, cert: bool = True,
            room: int | None = None) -> None:
    """Move cards from `unknown` into `hand` until it holds k cards valid for `noble`, one a certificate
    (if `cert`). With `room`, a hand never grows past it and a card no hidden card can give is left out;
    without, that is Unsampled (the offer on the table must be backed)."""
    is_valid_for = ed.is_valid_for

    def is_cert(c: str) -> bool:
        return c != JOKER and is_valid_for(c, noble)

    def full() -> bool:
        return room is not None and len(hand) >= room

    if cert and not full() and not any(is_cert(c) for c in hand):
        _take(hand, unknown, is_cert)
    while not full() and sum(1 for c in hand if is_valid_for(c, noble)) < k:
        if not _take(hand, unknown, lambda c: is_valid_for(c, noble)):
            if room is None:
                raise Unsampled("an offer no hidden card can back")
            return


def _lacking_last(unknown: list[str], hand: list[str], short: dict[str, int], ed: Edition,
                  rnd: random.Random, above: dict[str, tuple[Rank, int]] | None = None) -> bool:
    """Move to the back of `unknown` (where dealing reaches last), each with chance SHORT, the certificates
    of the nobles of which `hand` holds as many as its owner's passes say they likely hold (`short`), and
    with chance SHOWN those better than a showdown's best card of which it holds as many as `above` allows.
    Whether any moved."""
    valid_for = ed.valid_for
    full = [n for n, cap in short.items() if sum(1 for c in hand if c != JOKER and c in valid_for[n]) >= cap]
    better = [s for s, cap in ((_better(ed, n, rank), cap) for n, (rank, cap) in (above or {}).items())
              if sum(1 for c in hand if c in s) >= cap]
    if not full and not better:
        return False
    certificates = set().union(*(valid_for[n] for n in full)) - {JOKER}
    beaten = frozenset().union(*better)
    front: list[str] = []
    back: list[str] = []
    for c in unknown:
        if c in beaten:
            lacking = rnd.random() < SHOWN
        else:
            lacking = c in certificates and rnd.random() < SHORT
        (back if lacking else front).append(c)
    unknown[:] = front + back
    return bool(back)


@lru_cache(maxsize=1024)
def _better(ed: Edition, noble: str, rank: Rank) -> frozenset[str]:
    """The certificates valid for `noble` that rank above `rank` (remembered: asked in every world)."""
    return frozenset(c for c in ed.valid_for[noble] if c != JOKER and ed.card_rank(c) > rank)


def _priced(hand: list[str], unknown: list[str], lots: Lots, size: int, fixed: int, rnd: random.Random) -> None:
    """Add to `hand` cards whose prices make up what its owner paid for them (lots.py). Cards already
    dealt to back an offer (after the `fixed` known ones) count towards those prices."""
    card_price = lots.ed.card_price
    forced = Counter(card_price[c] for c in hand[fixed:])
    taken: list[str] = []
    for price in lots.prices(Counter(card_price[c] for c in unknown), rnd):
        if forced[price]:
            forced[price] -= 1
        else:  # (no such card unseen: that one stays unpriced)
            def priced(c: str, price: int = price) -> bool:
                return card_price[c] == price

            _take(taken, unknown, priced)
    room = max(0, size - len(hand))
    hand += taken[:room]
    unknown += taken[room:]  # an offer's cards and the prices together overfill the hand (rare): drop prices


def _take(hand: list[str], unknown: list[str], wanted: Callable[[str], bool]) -> bool:
    for i, c in enumerate(unknown):
        if wanted(c):
            hand.append(unknown.pop(i))
            return True
    return False


def _deck_top(unknown: list[str], price: int | None, ed: Edition) -> list[str]:
    """The deck's top card, taken out of `unknown` first: one whose back shows `price`."""
    i = next((i for i, c in enumerate(unknown) if ed.card_price[c] == price), None)
    if i is None:
        raise Unsampled("no hidden card has the price the deck shows")
    return [unknown.pop(i)]


def quick_view(state: GameState, player: str, alone: bool = False) -> SeenView:
    """`player_view(state, player)` as plain objects, for the normal players inside a world.

    A world's playout builds hundreds of views; pydantic's checks would take a fifth of the
    time, and a world's state is valid by construction. The fields are the View's, read the same
    way (the tests compare decisions made from both). `alone`: the purchase `player` would face,
    whether or not they are still to choose."""
    ids = [p.id for p in state.players]
    seat = ids.index(player)
    p, phase = state.players[seat], state.phase
    ed = state.edition
    prices = [ed.card_price[c] for c in p.offered]
    return SimpleNamespace(
        edition=ed, round=state.round, rounds=state.rounds, phase=phase,
        noble=views._noble(state),
        lead=ids[state.lead],
        players=[SimpleNamespace(id=q.id, score=q.score, levels=q.levels, tiles=q.tiles) for q in state.players],
        auction=views._auction(state, ids, SimpleNamespace) if phase == "auction" else None,
        showdown=views._showdown(state, ids, SimpleNamespace) if phase == "showdown" else None,
        privilege=views._privilege(state, ids, SimpleNamespace) if phase == "privilege" else None,
        privilege_display=state.privilege_display, privilege_waiting=state.privilege_waiting,
        step_supply=state.step_supply, tile_stacks=state.tile_stacks, moves=state.moves,
        you=SimpleNamespace(id=player, money=p.money, hand=p.hand, offered=p.offered, offered_prices=prices,
                            legal_actions=[BuyChoice(offered=list(p.offered), prices=prices[:], budget=p.money)]
                            if alone else legal_actions(state, player)),
    )
