"""The end of a game: the final standings, and each player's score broken down."""

from __future__ import annotations

from . import names
from . import table as words
from .words import People, Words

SOURCES = ("round_end", "privilege", "declined", "compensation")


def ranked(over) -> list[tuple[str, int]]:
    """Winners first (a tie-break winner before the player it beat), then by score."""
    return sorted(over.scores.items(), key=lambda kv: (kv[0] not in over.winners, -kv[1]))


def standings(w: Words, over, people: People) -> str:
    lines = [w._("**Augsburg 1520 — final standings**")]
    for place, (player, points) in enumerate(ranked(over), start=1):
        line = w._("{place}. {name} — {score}", place=place, name=people.name(player), score=w.prestige(points))
        lines.append(line + " 🏆" if player in over.winners else line)
    if over.tiebreak in ("cathedral", "church"):
        lines.append(w._("The tie was decided by the most expensive {tile}.", tile=names.tile(w, over.tiebreak)))
    elif over.tiebreak == "shared":
        lines.append(w._("The tied players share the win."))
    winners = w.both([people.addressed(p) for p in over.winners])
    lines.append(w.n_("{winners} wins!", "{winners} win!", len(over.winners), winners=winners))
    return "\n".join(lines)


def source(w: Words, kind: str, points: int) -> str:
    return {
        "round_end": lambda: w._("{n} from the rounds' scoring", n=points),
        "privilege": lambda: w._("{n} from privileges", n=points),
        "declined": lambda: w._("{n} for unused privileges", n=points),
        "compensation": lambda: w._("{n} as compensation", n=points),
    }[kind]()


def breakdown(w: Words, p, prestige: dict[str, int], money: int) -> str:
    """One player's score by source, their levels and tiles, and the money they had left."""
    parts = [source(w, kind, prestige[kind]) for kind in SOURCES if prestige.get(kind)]
    lines = [w._("Prestige: {sources}", sources=w.join(parts)) if parts else w._("No prestige")]
    lines.append(f"{words.levels(w, p)} · {words.tiles(w, p)}")
    lines.append(w._("{money} left", money=w.money(money)))
    return "\n".join(lines)


def ended(w: Words, status: str) -> str:
    return {"cancelled": w._("This game was cancelled."), "abandoned": w._("This game was abandoned: everyone left."),
            "finished": w._("This game is over.")}.get(status, "")
