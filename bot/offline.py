"""`augsburg play`: the whole game in a terminal, you against 1-4 computer players.

Same engine, same rules, same SQLite file through storage/. You see only your
own view; every decision is a numbered choice. Works with piped input too.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sys
from collections.abc import Callable
from typing import TextIO

from engine import apply, legal_actions, new_game, player_view, to_act
from engine.actions import Buy, BuyChoice, Reveal, RevealChoice
from engine.ai import ComputerPlayer
from engine.components import CARD_PRICE, PRIVILEGE_CARDS
from engine.events import Event
from engine.views import View
from storage import GameRecord, Store, VersionConflict

from . import texts

OFFLINE_GUILD = 0
OFFLINE_CHANNEL = 0  # the terminal's "channel" in the database
YOU = "you"


def ai_ids(count: int) -> list[str]:
    return [f"ai{i}" for i in range(1, count + 1)]


def names(record: GameRecord) -> Callable[[str], str]:
    table = record.setup.get("names", {})
    return lambda pid: table.get(pid, pid)


class Terminal:
    """Reads choices and writes the board; `read` returns None at end of input."""

    def __init__(self, stdin: TextIO, stdout: TextIO):
        self.stdin, self.stdout = stdin, stdout

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def read(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        return line.strip()


# --- drawing


def board(view: View, name) -> str:
    lines = [f"=== Augsburg 1520 — round {view.round} of {view.rounds} ==="]
    for p in view.players:
        t = p.tiles
        tiles = [f"{texts.TILE_NAMES[k]} {v}" for k in ("church", "cathedral") if (v := getattr(t, k)) is not None]
        tiles += [f"{texts.TILE_NAMES[k]} +{v}" for k in ("coat", "letter") if (v := getattr(t, k)) is not None]
        tiles += [texts.TILE_NAMES[k] for k in ("minter", "master_builder") if getattr(t, k)]
        limit = "/25" if t.church is None else "/45" if t.cathedral is None else ""
        lead = " (lead)" if p.id == view.lead else ""
        lines.append(
            f"  {name(p.id):<12} {p.score:>3}{limit:<4} prestige  Trade {p.levels['trade']}  "
            f"Nobility {p.levels['nobility']}  Offices {p.levels['offices']}  {', '.join(tiles)}{lead}"
        )
    shown = "; ".join(texts.privilege_card_name(c) for c in view.privilege_display) or "none"
    lines.append(f"  Privilege cards: {shown}")
    deck = texts.money(view.deck_top_price) if view.deck_top_price else "empty"
    top = texts.card_name(view.discard_top) if view.discard_top else "empty"
    lines.append(f"  Deck top price: {deck}   Discard top: {top}")
    you = view.you
    lines.append(f"  Your money: {texts.money(you.money)}")
    lines.append(f"  Your hand ({len(you.hand)}): {texts.cards_list(sorted(you.hand))}")
    if you.offered:
        lines.append(f"  Offered to you: {', '.join(texts.card_with_price(c) for c in you.offered)}")
    return "\n".join(lines)


def describe(option, view: View, name) -> str:
    """One line for a concrete legal action."""
    match option.do:
        case "pass":
            return "Pass (leave this auction)"
        case "call":
            return f"Call {view.auction.high} cards"
        case "bid":
            return f"Bid {option.count} cards"
        case "take_card":
            return f"Take privilege {texts.privilege_card_name(option.card)}"
        case "use":
            kind = PRIVILEGE_CARDS[view.privilege.card][option.slot]
            how = f": {texts.USE_NAMES[option.as_]}" if option.as_ else ""
            robbed = f" from {name(option.from_)}" if option.from_ else ""
            return f"Use privilege {option.slot + 1} ({texts.PRIVILEGE_NAMES[kind]}){how}{robbed}"
        case "build":
            return f"Master Builder: build the {texts.TILE_NAMES[option.what]}"
        case "done":
            return "Finish with this card (unused privileges give 2 prestige each)"
        case "compensate":
            return "Take 100 guilders" if option.take == "money" else "Take 1 prestige"
        case "discard":
            return f"Discard {texts.card_with_price(option.card)}"
        case "return_card":
            return f"Put {texts.card_with_price(option.card)} under the deck"
    return option.do


# --- asking


def ask(term: Terminal, view: View, options: list, name) -> object | None:
    """Ask until the answer is a legal action; None at end of input."""
    first = options[0]
    if isinstance(first, RevealChoice):
        return _ask_cards(
            term,
            first.cards,
            first.count,
            first.suggested,
            f"Lay down exactly {first.count} card(s), at least one certificate.",
            Reveal,
        )
    if isinstance(first, BuyChoice):
        return _ask_buy(term, first)
    for i, option in enumerate(options, start=1):
        term.say(f"  {i}. {describe(option, view, name)}")
    while True:
        answer = term.read(f"Your choice [1-{len(options)}]: ")
        if answer is None:
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        term.say(f"Please type a number from 1 to {len(options)}.")


def _ask_cards(term: Terminal, cards: list[str], count: int, suggested: list[str], intro: str, make):
    term.say(intro)
    for i, card in enumerate(cards, start=1):
        term.say(f"  {i}. {texts.card_with_price(card)}")
    hint = f" or Enter for {texts.cards_list(suggested)}" if suggested else ""
    while True:
        answer = term.read(f"Numbers separated by spaces{hint}: ")
        if answer is None:
            return None
        if not answer and suggested:
            return make(cards=list(suggested))
        picked = _numbers(answer, len(cards))
        if picked is None or len(picked) != count:
            term.say(f"Please choose exactly {count} different number(s) from the list.")
            continue
        return make(cards=[cards[i] for i in picked])


def _ask_buy(term: Terminal, choice: BuyChoice):
    term.say(f"Which cards do you buy? You have {texts.money(choice.budget)}.")
    for i, card in enumerate(choice.offered, start=1):
        term.say(f"  {i}. {texts.card_with_price(card)}")
    while True:
        answer = term.read("Numbers separated by spaces, or Enter to buy nothing: ")
        if answer is None:
            return None
        picked = _numbers(answer, len(choice.offered)) if answer else []
        if picked is None:
            term.say("Please type numbers from the list, separated by spaces.")
            continue
        cards = [choice.offered[i] for i in picked]
        cost = sum(CARD_PRICE[c] for c in cards)
        if cost > choice.budget:
            term.say(f"Those cost {texts.money(cost)}; you have {texts.money(choice.budget)}.")
            continue
        return Buy(cards=cards)


def _numbers(answer: str, size: int) -> list[int] | None:
    parts = answer.replace(",", " ").split()
    if not all(p.isdigit() and 1 <= int(p) <= size for p in parts) or len(set(parts)) != len(parts):
        return None
    return [int(p) - 1 for p in parts]


# --- the game loop


async def play(
    store: Store,
    term: Terminal,
    *,
    opponents: int,
    resume: bool,
    fresh: bool,
    seed: int | None = None,
    name: str = "Player",
) -> int:
    record = await store.load_channel(OFFLINE_CHANNEL)
    if record is not None and not (resume or fresh):
        term.say(
            "You have an unfinished game: continue it with `augsburg play --resume`, "
            "or start over with `augsburg play --new`."
        )
        return 1
    if record is not None and fresh:
        await store.finish_game(record.id, record.version, "cancelled")
        record = None
    if record is None:
        if resume:
            term.say("There is no saved game to resume; starting a new one.")
        seed = secrets.randbits(62) if seed is None else seed
        players = [YOU, *ai_ids(opponents)]
        state, events = new_game(players, seed=seed)
        setup = {
            "players": players,
            "seed": seed,
            "start_player": None,
            "host": YOU,
            "names": {YOU: f"{name} (you)", **{a: f"Computer {a[2:]}" for a in players[1:]}},
        }
        record = await store.create_game(OFFLINE_GUILD, OFFLINE_CHANNEL, setup, state)
        _show_events(term, events, names(record))
    else:
        term.say(f"Resuming your game (round {record.state.round}).")
    name = names(record)
    seeds = {pid: record.setup["seed"] + i for i, pid in enumerate(record.setup["players"])}
    while record.state.phase != "game_over":
        state = record.state
        acting = to_act(state)
        player = YOU if YOU in acting else acting[0]
        view = player_view(state, player)
        if player == YOU:
            term.say()
            term.say(board(view, name))
            term.say(f"Your move — {_phase_words(view)}")
            action = ask(term, view, legal_actions(state, YOU), name)
            if action is None:
                term.say("Input ended; your game is saved. Continue with `augsburg play --resume`.")
                return 0
        else:
            action = ComputerPlayer(seeds[player]).decide(view)
        result = apply(state, player, action)
        if not result.ok:
            term.say(f"Not allowed: {result.reason}")
            continue
        try:
            record = await store.commit_action(record.id, record.version, player, action.to_json_dict(), result.state)
        except VersionConflict:
            term.say("The saved game was changed by another program; please resume again.")
            return 1
        _show_events(term, result.events, name)
    await store.finish_game(record.id, record.version)
    _final(term, record, name)
    return 0


def _phase_words(view: View) -> str:
    noble = texts.NOBLE_NAMES.get(view.noble or "", "")
    return {
        "initial_purchase": "buy from the seven dealt cards.",
        "round_end_purchase": "buy from the cards offered to you.",
        "auction": f"auction for {noble} (highest bid: {view.auction.high if view.auction else 0} cards).",
        "showdown": f"lay down your cards for {noble}.",
        "privilege": f"you won {noble}: use your privilege card.",
        "shortage": "too few debt cards: return one card under the deck.",
    }.get(view.phase, "")


def _show_events(term: Terminal, events: list[Event], name) -> None:
    for event in events:
        if event.to is None:
            line = texts.public_line(event, name)
        elif event.to == YOU:
            line = texts.private_line(event)
        else:
            line = None
        if line:
            term.say(f"  · {line}")


def _final(term: Terminal, record: GameRecord, name) -> None:
    state = record.state
    term.say()
    term.say("=== Final standings ===")
    for i, p in enumerate(sorted(state.players, key=lambda p: -p.score), start=1):
        crown = "  <- winner" if p.id in state.winners else ""
        term.say(f"  {i}. {name(p.id):<12} {p.score} prestige{crown}")
    term.say("You win!" if YOU in state.winners else "A computer player wins this time.")


async def run(
    database: str,
    opponents: int,
    resume: bool,
    fresh: bool,
    seed: int | None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    name: str = "Player",
) -> int:
    store = await Store.open(database)
    try:
        return await play(
            store, Terminal(stdin, stdout), opponents=opponents, resume=resume, fresh=fresh, seed=seed, name=name
        )
    finally:
        await store.close()


def main(args) -> int:
    try:
        return asyncio.run(run(args.database, args.opponents, args.resume, args.new, args.seed, name=args.name))
    except KeyboardInterrupt:
        print("\nStopped; your game is saved. Continue with `augsburg play --resume`.")
        return 0
    except BrokenPipeError:  # the reader went away (e.g. piped into `head`); the game is saved
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # as the Python docs advise
        return 0
