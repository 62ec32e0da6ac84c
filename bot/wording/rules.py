"""The rules in short, in the project's own words (the printed rulebook is not quoted), and general help.

The numbers in them are an edition's (the game's, or the one a new table would get)."""

from __future__ import annotations

from collections.abc import Callable

from engine.edition import Edition

from . import names
from .words import Words

TOPICS = ("overview", "auction", "privileges", "steps", "limits", "round end", "winning", "secrets")


def topic_title(w: Words, topic: str) -> str:
    return {
        "overview": w._("Overview"),
        "auction": w._("Auction"),
        "privileges": w._("Privileges"),
        "steps": w._("Steps"),
        "limits": w._("Limits"),
        "round end": w._("Round End"),
        "winning": w._("Winning"),
        "secrets": w._("Secrets"),
    }[topic]


def topic(w: Words, topic: str, ed: Edition) -> str:
    """The rules of one topic, with edition `ed`'s numbers."""
    return _TEXTS[topic](w, ed)


def edition_line(w: Words, ed: Edition) -> str:
    """Which edition's components a game is played with: 'Edition: Rulebook + estimates (1)'."""
    return w._("Edition: {name}", name=ed.name(w.lang))


def _per_level(w: Words, values: dict[int, int]) -> str:
    return "/".join(w.number(values[level]) for level in sorted(values))


def _rounds(w: Words, ed: Edition) -> str:
    """'2 players: 4, 3 players: 5, …': the game's length by its number of players."""
    return w.join(w._("{players} players: {rounds}", players=p, rounds=r) for p, r in sorted(ed.rounds.items()))


_TEXTS: dict[str, Callable[[Words, Edition], str]] = {
    "overview": lambda w, ed: w._(
        'You are a merchant lending money to five nobles. In return they grant privileges, and privileges '
        'turn into prestige. The game lasts a number of rounds set by the number of players ({rounds}); then '
        'the most prestige wins. Each round has five auctions ({nobles}) followed by income and new debt cards.',
        rounds=_rounds(w, ed),
        nobles=w.join(names.noble(w, n) for n in ed.nobles)
    ),
    "auction": lambda w, ed: w._(
        'Bids count cards, not values. On your turn pass (you are out of this auction), call (offer as many '
        "cards as the best bid) or raise. Only that noble's certificates and jokers are valid, and at least "
        'one card must be a certificate; for Maximilian any certificate is valid. A joker counts as a card '
        'for every noble but has no value of its own: it never wins a showdown. When the turn comes back to'
        ' the best bid, everyone holding it lays down that many cards at once: the single highest card wins '
        "(for Maximilian ties go {ties}). The winner's cards are spent; second place "
        'gets {second}, third {third}. A bidder left alone wins without a showdown but still spends the cards.',
        ties=w.join(names.noble(w, n) for n in ed.ties), second=w.money(ed.consolation[0]),
        third=w.number(ed.consolation[1])
    ),
    "privileges": lambda w, ed: w._(
        'The winner takes one face-up privilege card and may use two of its three privileges, in any order. '
        'Of those two uses, each one you do not make is worth {declined} (so 0, {one} or {two} in all); the '
        'third privilege is never worth anything. Trade, Nobility and Offices privileges climb one step, or '
        'instead: Trade (level {trade}+) {money}; Nobility a Coat of Arms (level {coat}+) or Letter of Nobility '
        '(level {letter}); Offices a Minter (level {minter}+), a Master Builder (level {master_builder}), or '
        'build the top Church or Cathedral by paying for it. The Master Builder may build one Church or Cathedral'
        ' extra on every card its owner wins.', declined=w.prestige(ed.declined_privilege_prestige),
        one=ed.declined_privilege_prestige, two=2 * ed.declined_privilege_prestige,
        trade=ed.trade_alternative_min_level, money=w.money(ed.trade_alternative_money), **ed.tile_min_level
    ),
    "steps": lambda w, ed: w._(
        'Steps are taken one at a time. Taking step 4 puts your step 3 back. If the tile you need is gone '
        'from the supply, take it from another player who has it; they choose {money} or {points}, and'
        ' if it was step 4 you give them your step 3. Only steps change hands this way: a player who loses a'
        ' step keeps every privilege tile (Coat of Arms, Letter of Nobility, Minter, Master Builder).',
        money=w.money(ed.compensation_money), points=w.prestige(ed.compensation_prestige)
    ),
    "limits": lambda w, ed: w._(
        'Without a Church your score stops at {church} (a Cathedral alone does not lift that); without a '
        'Cathedral it stops at {cathedral}. Anything beyond a limit is lost, whatever its source; past '
        '{cathedral} it simply goes on.', church=ed.church_limit, cathedral=ed.cathedral_limit
    ),
    "round end": lambda w, ed: w._(
        'After Maximilian: money by your Trade level ({trade}), prestige by your Nobility level '
        '({nobility}) plus your Coat of Arms and Letter, then debt cards by your Offices level ({offices}) to '
        'buy at the price on their back; Offices 4 and the Minter each add a free card. In the last round only '
        'prestige is scored.', trade=_per_level(w, ed.trade_income), nobility=_per_level(w, ed.nobility_prestige),
        offices=_per_level(w, ed.offices_cards)
    ),
    "winning": lambda w, ed: w._(
        'Most prestige wins. On a tie, the dearest Cathedral decides; if none of the tied players has one, '
        'the dearest Church; otherwise the tied players share the win.'
    ),
    "secrets": lambda w, ed: w._(
        'Your money, your hand and its size, the cards offered to you and the cards you will lay down are '
        'private: the bot shows them only to you. Levels, tiles, scores, face-up privilege cards, revealed '
        "offers, the top discard and the price on the deck's top card are public."
    ),
}


def all_title(w: Words) -> str:
    return w._("Augsburg 1520 in short")


def pick_one(w: Words) -> str:
    """Below the whole summary: how to ask for one topic (each fits in one message)."""
    return w._("One topic on its own: `/augsburg rules topic:` and one of {topics}.",
               topics=w.join(topic_title(w, t) for t in TOPICS))


def commands(w: Words) -> str:
    """The general commands, for /augsburg help."""
    return w._(
        "`/augsburg new` opens a table (`thread:yes`: in a thread of its own) · "
        "`/augsburg rematch` the last game again, same seats · `/augsburg hand` your cards and next move · "
        "`/augsburg status` the table · `/augsburg board` the table as a picture · "
        "`/augsburg log` what happened · `/augsburg records stats` games, wins, rating and reliability · "
        "`/augsburg records leaderboard` the server's players by skill rating, per season · "
        "`/augsburg records season` (managers) starts a season or runs them by month or quarter · "
        "`/augsburg rules` the rules · `/augsburg cancel` ends the game · "
        "`/augsburg undo` takes back your last decision while nobody has acted since · "
        "`/augsburg seat notify` how you are told it is your move · `/augsburg seat leave` the computer plays "
        "your seat from now on · `/augsburg seat back` you take your seat back from the computer · "
        "`/augsburg seat away` time away: your clock does not run out for some days · "
        "`/augsburg seat replace` (host) the computer plays a seat whose time has run out"
    )
