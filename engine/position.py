"""Build a game state from a scenario `setup` (SCENARIOS.md), checking it is possible."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, TypeVar

from . import events as ev
from . import flow, rng
from .components import CATEGORIES, JOKER, TILE_KINDS, TileValue
from .edition import Edition
from .editions import default
from .events import Event
from .rules import held_steps, prestige_limit
from .setup import fresh_player
from .state import GameState, Player, Tiles

_T = TypeVar("_T")


class SetupError(ValueError):
    """The setup describes a position that cannot exist."""


_SETUP_KEYS = {"players", "seed", "start", "round", "noble", "lead", "player_state", "deck", "discard",
               "privilege_display", "privilege_waiting", "tile_stacks"}
_PLAYER_KEYS = {"money", "score", "hand", "levels", "tiles"}


def build(setup: dict[str, Any], edition: Edition | None = None) -> tuple[GameState, list[Event]]:
    """The position `setup` describes, with `edition`'s components (None: the shipped default).
    (`setup` is a scenario's JSON: Any, checked here as it is read.)"""
    ed = edition or default()
    unknown = set(setup) - _SETUP_KEYS
    if unknown:
        raise SetupError(f"unknown setup keys: {sorted(unknown)}")
    players = setup.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 5 or len(set(players)) != len(players):
        raise SetupError("players must be 2 to 5 different ids")
    n = len(players)
    seed = int(setup.get("seed", 0))
    start = setup.get("start", "new_game")
    if start not in ("new_game", "auction"):
        raise SetupError(f"unknown start {start!r}")
    new_game = start == "new_game"
    lead_id: Any = setup.get("lead", players[0])  # (JSON, like `players`: an id is checked by Player())
    if lead_id not in players:
        raise SetupError(f"lead {lead_id!r} is not a player")
    state_rng = rng.seed_state(seed)

    per_player = setup.get("player_state", {})
    if set(per_player) - set(players):
        raise SetupError(f"player_state for unknown players: {sorted(set(per_player) - set(players))}")
    built = []
    for pid in players:
        spec = per_player.get(pid, {})
        if set(spec) - _PLAYER_KEYS:
            raise SetupError(f"unknown keys for {pid}: {sorted(set(spec) - _PLAYER_KEYS)}")
        p = fresh_player(pid, tuple(spec.get("hand", [JOKER] * ed.start_jokers if new_game else [])), ed)
        p.money = int(spec.get("money", p.money))
        p.score = int(spec.get("score", 0))
        levels = spec.get("levels", {})
        if set(levels) - set(CATEGORIES) or any(not 1 <= v <= ed.max_level for v in levels.values()):
            raise SetupError(f"bad levels for {pid}: {levels}")
        p.levels.update(levels)
        tiles = spec.get("tiles", {})
        if set(tiles) - set(TILE_KINDS):
            raise SetupError(f"unknown tiles for {pid}: {sorted(set(tiles) - set(TILE_KINDS))}")
        p.tiles = Tiles(**tiles)
        if p.money < 0 or p.score < 0:
            raise SetupError(f"{pid} has negative money or score")
        limit = prestige_limit(p.tiles, ed)
        if limit is not None and p.score > limit:
            raise SetupError(f"{pid}'s score {p.score} is above the limit {limit} they have unlocked")
        built.append(p)

    # Debt cards: placed ones, then everything else shuffled below the listed deck.
    deck_top = list(setup.get("deck", []))
    discard = list(setup.get("discard", []))
    placed = [c for p in built for c in p.hand] + deck_top + discard
    unknown_cards = set(placed) - set(ed.all_cards)
    if unknown_cards:
        raise SetupError(f"unknown cards: {sorted(unknown_cards)}")
    rest = Counter(ed.all_cards)
    rest.subtract(Counter(placed))
    if any(v < 0 for v in rest.values()):
        raise SetupError(f"cards placed more often than they exist: {sorted(c for c, v in rest.items() if v < 0)}")
    rest_cards = _remaining(ed.all_cards, rest)
    state_rng = rng.shuffle(state_rng, rest_cards)

    # Step tiles follow from the levels.
    supply = {}
    for cat in CATEGORIES:
        pool = Counter(ed.step_tiles(n))
        for p in built:
            pool.subtract(held_steps(p.levels[cat]))
        if any(v < 0 for v in pool.values()):
            raise SetupError(f"the {cat} levels need more step tiles than exist for {n} players")
        supply[cat] = tuple(sorted(pool.elements()))

    stacks = _tile_stacks(setup.get("tile_stacks", {}), built, ed)
    display, waiting, spent, state_rng = _privilege_cards(setup, state_rng, ed)

    if new_game:
        round_, noble = 1, 0
    else:
        round_ = int(setup.get("round", 1))
        if not 1 <= round_ <= ed.rounds_for(n):
            raise SetupError(f"round {round_} does not exist with {n} players")
        noble_name = setup.get("noble", ed.nobles[0])
        if noble_name not in ed.nobles:
            raise SetupError(f"unknown noble {noble_name!r}")
        noble = ed.nobles.index(noble_name)
    state = GameState(
        edition=ed,
        seed=seed,
        rng=state_rng,
        players=built,
        rounds=ed.rounds_for(n),
        round=round_,
        phase="initial_purchase",
        lead=players.index(lead_id),
        deck=(*deck_top, *rest_cards),
        discard=tuple(discard),
        step_supply=supply,
        tile_stacks=stacks,
        privilege_display=display,
        privilege_waiting=waiting,
        privilege_spent=spent,
    )
    events: list[Event] = [ev.GameStarted(players=list(players), start_player=lead_id, rounds=state.rounds)]
    if new_game:
        flow.start_game(state, events)
    else:
        flow.start_at_auction(state, noble, events)
    return state, events


def _remaining(order: Iterable[_T], left: Counter[_T]) -> list[_T]:
    """The items of `order` still counted in `left`, in `order`'s order."""
    left = Counter(left)
    out = []
    for item in order:
        if left[item] > 0:
            left[item] -= 1
            out.append(item)
    return out


def _tile_stacks(given: dict[str, Any], built: list[Player], ed: Edition) -> dict[str, tuple[TileValue, ...]]:
    if set(given) - set(TILE_KINDS):
        raise SetupError(f"unknown tile stacks: {sorted(set(given) - set(TILE_KINDS))}")
    stacks = {}
    for kind in TILE_KINDS:
        pool = Counter(ed.tile_stacks[kind])
        held = [getattr(p.tiles, kind) for p in built]
        held = [v for v in held if v not in (None, False)]
        pool.subtract(held)
        if any(v < 0 for v in pool.values()):
            raise SetupError(f"more {kind} tiles held than exist (or a value that does not exist)")
        if kind in given:
            stack = list(given[kind])
            if any(type(v) is not (bool if kind in ("minter", "master_builder") else int) for v in stack):
                raise SetupError(f"bad values in the {kind} stack")
            left = Counter(pool)
            left.subtract(stack)
            if any(v < 0 for v in left.values()):
                raise SetupError(f"the {kind} stack holds tiles that do not exist or are held")
            if stack != sorted(stack, reverse=True):
                raise SetupError(f"the {kind} stack must be sorted, most valuable on top")
        else:
            stack = _remaining(ed.tile_stacks[kind], pool)
        stacks[kind] = tuple(stack)
    return stacks


def _privilege_cards(setup: dict[str, Any], state_rng: int, ed: Edition) -> tuple[tuple[str, ...], tuple[str, ...],
                                                                                tuple[str, ...], int]:
    all_cards = sorted(ed.privilege_cards, key=int)
    display = setup.get("privilege_display")
    waiting = setup.get("privilege_waiting")
    for name, cards in (("privilege_display", display), ("privilege_waiting", waiting)):
        if cards is not None and (set(cards) - set(all_cards) or len(set(cards)) != len(cards)):
            raise SetupError(f"bad {name}: {cards}")
    if display is not None and waiting is not None and set(display) & set(waiting):
        raise SetupError("a privilege card is both on display and waiting")
    if display is None:
        pool = [c for c in all_cards if waiting is None or c not in waiting]
        state_rng = rng.shuffle(state_rng, pool)
        display = pool[:ed.privilege_display_size]
    if waiting is None:
        waiting = [c for c in all_cards if c not in display]
    spent = [c for c in all_cards if c not in display and c not in waiting]
    return tuple(display), tuple(waiting), tuple(spent), state_rng
