"""The rules in short, in the project's own words (the printed rulebook is not quoted), and general help."""

from __future__ import annotations

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


def topic(w: Words, topic: str) -> str:
    """The rules of one topic."""
    return _TEXTS[topic](w)


_TEXTS = {
    "overview": lambda w: w._(
        'You are a merchant lending money to five nobles. In return they grant privileges, and privileges '
        'turn into prestige. After players + 2 rounds the most prestige wins. Each round has five auctions '
        '(Philipp, Louise, Leo, Maria, Maximilian) followed by income and new debt cards.'
    ),
    "auction": lambda w: w._(
        'Bids count cards, not values. On your turn pass (you are out of this auction), call (offer as many '
        "cards as the best bid) or raise. Only that noble's certificates and jokers are valid, and at least "
        'one card must be a certificate; for Maximilian any certificate is valid. A joker counts as a card '
        'for every noble but has no value of its own: it never wins a showdown. When the turn comes back to'
        ' the best bid, everyone holding it lays down that many cards at once: the single highest card wins '
        "(for Maximilian ties go Maria, Leo, Louise, Philipp). The winner's cards are spent; second place "
        'gets 100 guilders, third 50. A bidder left alone wins without a showdown but still spends the cards.'
    ),
    "privileges": lambda w: w._(
        'The winner takes one face-up privilege card and may use two of its three privileges, in any order. '
        'Of those two uses, each one you do not make is worth 2 prestige (so 0, 2 or 4); the third privilege '
        'is never worth anything. Trade, Nobility and Offices privileges climb one step, or '
        'instead: Trade (level 2+) 300 guilders; Nobility a Coat of Arms (level 3+) or Letter of Nobility '
        '(level 4); Offices a Minter (level 3+), a Master Builder (level 4), or build the top Church or '
        'Cathedral by paying for it. The Master Builder may build one Church or Cathedral extra on every card'
        ' its owner wins.'
    ),
    "steps": lambda w: w._(
        'Steps are taken one at a time. Taking step 4 puts your step 3 back. If the tile you need is gone '
        'from the supply, take it from another player who has it; they choose 100 guilders or 1 prestige, and'
        ' if it was step 4 you give them your step 3. Only steps change hands this way: a player who loses a'
        ' step keeps every privilege tile (Coat of Arms, Letter of Nobility, Minter, Master Builder).'
    ),
    "limits": lambda w: w._(
        'Without a Church your score stops at 25 (a Cathedral alone does not lift that); without a Cathedral'
        ' it stops at 45. Anything beyond a limit is lost, whatever its source; past 45 it simply goes on.'
    ),
    "round end": lambda w: w._(
        'After Maximilian: money by your Trade level (600/900/1,200/1,600), prestige by your Nobility level '
        '(3/5/8/12) plus your Coat of Arms and Letter, then debt cards by your Offices level (4/5/6/6) to buy'
        ' at the price on their back; Offices 4 and the Minter each add a free card. In the last round only '
        'prestige is scored.'
    ),
    "winning": lambda w: w._(
        'Most prestige wins. On a tie, the dearest Cathedral decides; if none of the tied players has one, '
        'the dearest Church; otherwise the tied players share the win.'
    ),
    "secrets": lambda w: w._(
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
        "`/augsburg new` opens a table · `/augsburg hand` your cards and next move · "
        "`/augsburg status` the table · `/augsburg board` the table as a picture · "
        "`/augsburg log` what happened · `/augsburg records stats` games and wins · "
        "`/augsburg rules` the rules · `/augsburg cancel` ends the game · "
        "`/augsburg notify` how you are told it is your move · `/augsburg leave` the computer plays your seat "
        "from now on · `/augsburg back` you take your seat back from the computer · "
        "`/augsburg replace` (host) the computer plays a seat whose time has run out"
    )
