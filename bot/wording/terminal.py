"""The terminal game's own sentences: its board, prompts and messages (plain text, no Discord markdown)."""

from __future__ import annotations

from collections.abc import Sequence
from unicodedata import combining, east_asian_width

from engine import View
from engine.components import JOKER

from . import end, names, views
from . import table as words
from .words import People, Words

NAME_LIMIT = 24  # a longer name is cut to this many columns, ending in "…"
WIDTH = 120  # columns the board's lines keep within where the terminal's own width is not known


def public_board(w: Words, view: View, people: People, width: int = WIDTH) -> str:
    """The table as spectators see it: a row per player, the display one card a line, the tiles left in the
    supply with their next prices, the deck and the discard pile; lines wrapped at `width` columns."""
    rows = [(people.name(p.id), words.score(w, p, view.edition), words.levels(w, p),
             words.tiles(w, p) + (words.lead_mark(w) if words.leads(view, p.id) else "")) for p in view.players]
    lines = [f"=== {words.round_title(w, view)} ===", *columns(rows, width)]
    lines.append("  " + words.display_heading(w) + ":")
    lines += [f"    - {card}" for card in display(w, view)] or ["    " + words.no_display(w)]
    lines.append(wrapped("  " + words.next_tiles(w, view), width))
    lines.append(wrapped("  " + words.steps_left(w, view), width))
    lines.append(wrapped("  " + words.deck_and_discard(w, view), width))
    return "\n".join(lines)


def display(w: Words, view: View) -> list[str]:
    """The privilege cards on display, each with its number as the picture shows it: 'Card 6: Trade · …'."""
    return [privilege_card(w, card, view) for card in view.privilege_display]


def privilege_card(w: Words, card: str, view: View) -> str:
    return w._("{number}: {card}", number=names.privilege_card_number(w, card),
               card=names.privilege_card(w, card, view.edition))


def board(w: Words, view: View, people: People, width: int = WIDTH, jokers: bool = True) -> str:
    """The round, a row per player (columns as wide as their longest entry), the display and your own cards;
    `jokers`: what a joker is good for, if you hold one (said once is enough). The cards offered to you are
    not among them: the question to buy them lists them, with their prices."""
    lines = [public_board(w, view, people, width)]
    you, ed = views.you(view), view.edition
    lines.append("  " + w._("Your money: {money}", money=w.money(you.money)))
    hand = names.cards(w, names.in_hand_order(you.hand, ed))
    lines.append("  " + w.n_("Your hand ({n} card): {cards}", "Your hand ({n} cards): {cards}", len(you.hand),
                             cards=hand))
    if jokers and JOKER in you.hand:
        lines.append("  " + names.joker_note(w))
    return "\n".join(wrapped(line, width) for part in lines for line in part.split("\n"))


def columns(rows: Sequence[tuple[str, ...]], width: int | None = None) -> list[str]:
    """Rows as indented, aligned columns; every column but the last is padded to its widest entry. With a
    `width`, a last column that does not fit goes on under itself, broken between words."""
    widths = [max(cells(row[i]) for row in rows) for i in range(len(rows[0]) - 1)] if rows else []
    lines = []
    for row in rows:
        line = "  " + "  ".join([*(text + " " * (w - cells(text)) for text, w in zip(row, widths)), row[-1]])
        lines.append(line if width is None else wrapped(line, width, cells(line) - cells(row[-1])))
    return lines


def wrapped(line: str, width: int, indent: int | None = None) -> str:
    """`line` broken between words to fit `width` columns (a terminal breaks it wherever it ends, mid-word);
    the lines after the first indented by `indent` (default: two more than the line). A `command` is never
    broken: it is to be copied as it stands."""
    if cells(line) <= width:
        return line
    if indent is None:
        indent = len(line) - len(line.lstrip()) + 2
    head, rest = line[:indent], _words(line[indent:])
    out, current = [], head + rest[0]
    for word in rest[1:]:
        if cells(current) + 1 + cells(word) > width and current.strip():
            out.append(current)
            current = " " * indent + word
        else:
            current += " " + word
    return "\n".join([*out, current])


def _words(text: str) -> list[str]:
    """`text` split at its spaces, except those inside `backquotes`."""
    out: list[str] = []
    quoted = False
    for part in text.split(" "):
        if quoted:
            out[-1] += " " + part
        else:
            out.append(part)
        quoted ^= part.count("`") % 2 == 1
    return out


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


def sentence(text: str) -> str:
    """A clause written to follow 'Your move — ' ('lay down …'), standing on its own line: 'Lay down …'."""
    return text[:1].upper() + text[1:]


def only_choice(w: Words, what: str) -> str:
    return w._("Your only choice: {what}.", what=what)


def undo_option(w: Words) -> str:
    return w._("Take back my last decision")


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


def unfinished(w: Words, resume: str = "augsburg play --resume", new: str = "augsburg play --new") -> str:
    """`resume`, `new`: the commands as the player would type them (`.venv/bin/augsburg play --resume`)."""
    return w._("You have an unfinished game: continue it with `{resume}`, or start over with `{new}`.", resume=resume,
               new=new)


def nothing_to_resume(w: Words) -> str:
    return w._("There is no saved game to resume; starting a new one.")


def opponents(w: Words, computers: list[tuple[str, str]]) -> str:
    """The computers you play against, each with its level: (name, level) pairs."""
    listed = w.join(w._("{name} ({level})", name=name, level=names.level(w, level)) for name, level in computers)
    return w._("Your opponents: {players}.", players=listed)


def resuming(w: Words, round_: int) -> str:
    return w._("Resuming your game (round {round}).", round=round_)


def last_game_over(w: Words) -> str:
    """`--resume` when the last game has ended: a new one with its computers and edition."""
    return w._("Your last game is over; a new one starts with the same computer players.")


def saved_in(w: Words, where: str) -> str:
    """Where the game is kept: a file's path, or a database's URL without its password."""
    return w._("Your game is saved in {where} after every move.", where=where)


def help_hint(w: Words) -> str:
    return w._("Type help or ? at any question to have it explained.")


def input_ended(w: Words, resume: str, where: str) -> str:
    """`resume`: the command that continues the game, as the player would type it; `where`: the file or
    database the game is saved in (saved_in)."""
    return w._("Input ended; your game is saved in {where}. Continue with `{resume}`.", resume=resume, where=where)


def stopped(w: Words, resume: str, where: str) -> str:
    return w._("Stopped; your game is saved in {where}. Continue with `{resume}`.", resume=resume, where=where)


def thinking(w: Words, name: str) -> str:
    """While a computer that takes its time (strong) decides."""
    return w._("{name} is thinking…", name=name)


def picture_failed(w: Words, path: str, why: str) -> str:
    return w._("The picture cannot be written to {path} ({why}); the game goes on without it.", path=path, why=why)


def changed_elsewhere(w: Words) -> str:
    return w._("The saved game was changed by another program; please resume again.")


def unknown_edition(w: Words, edition: str, known: list[str]) -> str:
    return w._("There is no edition “{edition}” here. The editions here: {editions}.", edition=edition,
               editions=w.join(known))


def bad_edition(w: Words, problem: str) -> str:
    """An edition file that cannot be used; `problem` names its wrong lines (the file's own words)."""
    return w._("That edition file cannot be used: {problem}", problem=problem)


def damaged(w: Words, new: str = "augsburg play --new") -> str:
    return w._("The saved game is damaged and was set aside; start a new one with `{new}`.", new=new)


def final(w: Words, scores: dict[str, int], winners: list[str], people: People) -> str:
    """The final standings of a game that ended with `scores` and `winners` (the game's and a replay's)."""
    placed = end.places(scores, winners)
    note = end.tied_below(w) if end.shared_places(placed, winners) else ""
    return standings(w, [(place, people.name(p), score, p in winners) for place, p, score in placed], note)


def standings(w: Words, scores: list[tuple[int, str, int, bool]], note: str = "") -> str:
    """`scores`: (place, name, score, won) from the best down (end.places); `note`: how a tie was decided."""
    rows = [(f"{place}. {name}", w.prestige(score) + (w._("  <- winner") if won else ""))
            for place, name, score, won in scores]
    title = w._("Final standings")  # not inside the f-string: pybabel extract would not see it there
    return "\n".join(["", f"=== {title} ===", *columns(rows), *([note] if note else [])])


def verdict(w: Words, you_won: bool) -> str:
    return w._("You win!") if you_won else w._("A computer player wins this time.")


def again_prompt(w: Words) -> str:
    return w._("Play again with the same computer players? (y/n) ")


def is_yes(w: Words, answer: str) -> bool:
    """'y' or 'yes', or the reader's language's word for it (its first letter too)."""
    word = w._("yes").casefold()
    return answer.strip().casefold() in {"y", "yes", word, word[:1]}


def rematch_started(w: Words) -> str:
    return w._("A new game with the same players, dealt anew.")


def default_name(w: Words) -> str:
    """Your name at the table when you give none (`--name`)."""
    return w._("Player")


def your_name(w: Words, name: str) -> str:
    return w._("{name} (you)", name=name)
