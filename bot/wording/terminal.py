"""The terminal game's own sentences: its board, prompts and messages (plain text, no Discord markdown)."""

from __future__ import annotations

from unicodedata import combining, east_asian_width

from engine import View

from . import names
from . import table as words
from .words import People, Words

NAME_LIMIT = 24  # a longer name is cut to this many columns, ending in "…"


def public_board(w: Words, view: View, people: People) -> str:
    """The table as spectators see it: a row per player, the display, the deck and the discard pile."""
    rows = [(people.name(p.id), words.score(w, p, view.edition), words.levels(w, p),
             words.tiles(w, p) + (w._(" (lead)") if p.id == view.lead else "")) for p in view.players]
    lines = [f"=== {words.round_title(w, view)} ===", *columns(rows)]
    shown = "; ".join(words.display(w, view)) or w._("none")
    lines.append("  " + w._("Privilege cards: {cards}", cards=shown))
    lines.append("  " + words.deck_and_discard(w, view))
    return "\n".join(lines)


def board(w: Words, view: View, people: People) -> str:
    """The round, a row per player (columns as wide as their longest entry), the display and your own cards."""
    lines = [public_board(w, view, people)]
    you, ed = view.you, view.edition
    lines.append("  " + w._("Your money: {money}", money=w.money(you.money)))
    hand = names.cards(w, names.in_hand_order(you.hand, ed))
    lines.append("  " + w.n_("Your hand ({n} card): {cards}", "Your hand ({n} cards): {cards}", len(you.hand),
                             cards=hand))
    if you.offered:
        offered = w.join(names.card_with_price(w, c, ed) for c in names.in_hand_order(you.offered, ed))
        lines.append("  " + w._("Offered to you: {cards}", cards=offered))
    return "\n".join(lines)


def columns(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows as indented, aligned columns; every column but the last is padded to its widest entry."""
    widths = [max(cells(row[i]) for row in rows) for i in range(len(rows[0]) - 1)] if rows else []
    return ["  " + "  ".join([*(text + " " * (width - cells(text)) for text, width in zip(row, widths)), row[-1]])
            for row in rows]


def cells(text: str) -> int:
    """How many terminal columns `text` takes: wide (East Asian) characters two, combining marks none."""
    return sum(0 if combining(c) else 2 if east_asian_width(c) in "WF" else 1 for c in text)


def short_name(name: str, limit: int = NAME_LIMIT) -> str:
    """`name`, or as much of it as fits `limit` columns with "…" at the end."""
    if cells(name) <= limit:
        return name
    while cells(name) > limit - 1:
        name = name[:-1]
    return name.rstrip() + "…"


def your_move(w: Words, what: str) -> str:
    return w._("Your move — {what}", what=what)


def pick_one(w: Words, count: int) -> str:
    if count == 1:
        return w._("Your choice [1]: ")
    return w._("Your choice [1-{count}]: ", count=count)


def pick_numbered(w: Words, numbers: list[int]) -> str:
    """The prompt for numbered options; numbers kept from before may leave gaps (3, 5, 6)."""
    if numbers == list(range(1, len(numbers) + 1)):
        return pick_one(w, len(numbers))
    return w._("Your choice [{numbers}]: ", numbers=_runs(numbers))


def not_listed(w: Words, numbers: list[int]) -> str:
    if numbers == list(range(1, len(numbers) + 1)):
        return not_a_number(w, len(numbers))
    return w._("Please type one of the numbers listed: {numbers}.", numbers=_runs(numbers))


def _runs(numbers: list[int]) -> str:
    """'3, 5-8' for [3, 5, 6, 7, 8]."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


def only_choice(w: Words, what: str) -> str:
    return w._("Your only choice: {what}.", what=what)


def not_a_number(w: Words, count: int) -> str:
    if count == 1:
        return w._("Please type 1.")
    return w._("Please type a number from 1 to {count}.", count=count)


def pick_cards(w: Words, suggested: list[str]) -> str:
    if suggested:
        return w._("Numbers separated by spaces or Enter for {cards}: ", cards=names.cards(w, suggested))
    return w._("Numbers separated by spaces: ")


def wrong_cards(w: Words, count: int) -> str:
    return w.n_("Please choose exactly {n} different number from the list.",
                "Please choose exactly {n} different numbers from the list.", count)


def buy_question(w: Words, budget: int) -> str:
    return w._("Which cards do you buy? You have {money}.", money=w.money(budget))


def pick_purchase(w: Words) -> str:
    return w._("Numbers separated by spaces, or Enter to buy nothing: ")


def not_numbers(w: Words) -> str:
    return w._("Please type numbers from the list, separated by spaces.")


def too_dear(w: Words, cost: int, budget: int) -> str:
    return w._("Those cost {cost}; you have {money}.", cost=w.money(cost), money=w.money(budget))


def refused(w: Words, why: str) -> str:
    return w._("Not allowed: {why}", why=why)


def unfinished(w: Words) -> str:
    return w._("You have an unfinished game: continue it with `augsburg play --resume`, "
               "or start over with `augsburg play --new`.")


def nothing_to_resume(w: Words) -> str:
    return w._("There is no saved game to resume; starting a new one.")


def opponents(w: Words, computers: list[tuple[str, str]]) -> str:
    """The computers you play against, each with its level: (name, level) pairs."""
    listed = w.join(w._("{name} ({level})", name=name, level=names.level(w, level)) for name, level in computers)
    return w._("Your opponents: {players}.", players=listed)


def resuming(w: Words, round_: int) -> str:
    return w._("Resuming your game (round {round}).", round=round_)


def input_ended(w: Words) -> str:
    return w._("Input ended; your game is saved. Continue with `augsburg play --resume`.")


def stopped(w: Words) -> str:
    return w._("Stopped; your game is saved. Continue with `augsburg play --resume`.")


def changed_elsewhere(w: Words) -> str:
    return w._("The saved game was changed by another program; please resume again.")


def unknown_edition(w: Words, edition: str, known: list[str]) -> str:
    return w._("There is no edition “{edition}” here. The editions here: {editions}.", edition=edition,
               editions=w.join(known))


def bad_edition(w: Words, problem: str) -> str:
    """An edition file that cannot be used; `problem` names its wrong lines (the file's own words)."""
    return w._("That edition file cannot be used: {problem}", problem=problem)


def damaged(w: Words) -> str:
    return w._("The saved game is damaged and was set aside; start a new one with `augsburg play --new`.")


def standings(w: Words, scores: list[tuple[str, int, bool]]) -> str:
    """`scores`: (name, score, won) from the best down."""
    rows = [(f"{place}. {name}", w.prestige(score) + (w._("  <- winner") if won else ""))
            for place, (name, score, won) in enumerate(scores, start=1)]
    title = w._("Final standings")  # not inside the f-string: pybabel extract would not see it there
    return "\n".join(["", f"=== {title} ===", *columns(rows)])


def verdict(w: Words, you_won: bool) -> str:
    return w._("You win!") if you_won else w._("A computer player wins this time.")


def your_name(w: Words, name: str) -> str:
    return w._("{name} (you)", name=name)
