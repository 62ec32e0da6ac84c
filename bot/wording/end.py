"""The end of a game: the final standings, and each player's score broken down."""

from __future__ import annotations

from engine.events import GameOver
from engine.views import PublicPlayer

from . import names
from . import table as words
from .words import People, Words

SOURCES = ("round_end", "privilege", "declined", "compensation")


def ranked(over: GameOver) -> list[tuple[str, int]]:
    """Winners first (a tie-break winner before the player it beat), then by score."""
    return sorted(over.scores.items(), key=lambda kv: (kv[0] not in over.winners, -kv[1]))


def places(scores: dict[str, int], winners: list[str]) -> list[tuple[int, str, int]]:
    """(place, player, score) in the order of the standings: the winners share first place; below them
    equal scores share a place too, as the rules break a tie for the win only (R27)."""
    order = sorted(scores.items(), key=lambda kv: (kv[0] not in winners, -kv[1]))
    out: list[tuple[int, str, int]] = []
    for i, (player, points) in enumerate(order):
        if player in winners:
            place = 1
        elif out and out[-1][1] not in winners and out[-1][2] == points:
            place = out[-1][0]  # tied with the one above
        else:
            place = i + 1
        out.append((place, player, points))
    return out


def shared_places(placed: list[tuple[int, str, int]], winners: list[str]) -> bool:
    """Whether two players below the win share a place."""
    below = [place for place, player, _ in placed if player not in winners]
    return len(below) != len(set(below))


def standings(w: Words, over: GameOver, people: People) -> str:
    lines = [w._("**Augsburg 1520 — final standings**")]
    placed = places(over.scores, over.winners)
    for place, player, points in placed:
        line = w._("{place}. {name} — {score}", place=place, name=people.name(player), score=w.prestige(points))
        lines.append(line + " 🏆" if player in over.winners else line)
    if over.tiebreak in ("cathedral", "church"):
        lines.append(w._("The tie for the win was decided by the most expensive {tile}.",
                         tile=names.tile(w, over.tiebreak)))
    elif over.tiebreak == "shared":
        lines.append(w._("The tied players share the win: none of them has a Church or a Cathedral to decide it."))
    if shared_places(placed, over.winners):
        lines.append(tied_below(w))
    winners = w.both([people.addressed(p) for p in over.winners])
    lines.append(w.n_("{winners} wins!", "{winners} win!", len(over.winners), winners=winners))
    return "\n".join(lines)


def rematch_button(w: Words) -> str:
    return w._("Rematch")


def rematch_invitation(w: Words, host: str, others: list[str]) -> str:
    """Posted with a rematch's table: who asked, and who may join (each is mentioned, so they hear of it)."""
    return w._("{host} asks for a rematch: the same computers, clock and language. {others}: press Join to play "
               "again.", host=host, others=w.both(others))


def tied_below(w: Words) -> str:
    return w._("Equal scores below the win share their place: the rules break a tie for the win only.")


def source(w: Words, kind: str, points: int) -> str:
    return {
        "round_end": lambda: w._("{n} from the rounds' scoring", n=points),
        "privilege": lambda: w._("{n} from privileges", n=points),
        "declined": lambda: w._("{n} for unused privileges", n=points),
        "compensation": lambda: w._("{n} as compensation", n=points),
    }[kind]()


def breakdown(w: Words, p: PublicPlayer, prestige: dict[str, int], money: int) -> str:
    """One player's score by source, their levels and tiles, and the money they had left."""
    parts = [source(w, kind, prestige[kind]) for kind in SOURCES if prestige.get(kind)]
    lines = [w._("Prestige: {sources}", sources=w.join(parts)) if parts else w._("No prestige")]
    lines.append(f"{words.levels(w, p)} · {words.tiles(w, p)}")
    lines.append(w._("{money} left", money=w.money(money)))
    return "\n".join(lines)


def ended(w: Words, status: str) -> str:
    return {"cancelled": w._("This game was cancelled."), "abandoned": w._("This game was abandoned: everyone left."),
            "finished": w._("This game is over.")}.get(status, "")
