"""The table before the game: opening it, seats, computer seats, the turn clock, starting, cancelling."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

from engine import new_game
from engine.ai.levels import DEFAULT_LEVEL, LEVELS
from engine.editions import EditionUnavailable
from engine.state import RULES_VERSION
from storage import ChannelBusy, GameNotFound, GameNotPlayable, GameQuarantined, GameRecord, Seat, Table

from ..wording.languages import LANGUAGES
from .core import Core
from .outcome import MAX_PLAYERS, MIN_PLAYERS, Notice, Outcome, refuse
from .turns import AWAY_CHOICES, TURN_CHOICES


def deal_seed(fixed: int | None, game_id: int) -> int:
    """A new game's seed, which decides its deck and so every hand: unpredictable, unless `fixed` (DEAL_SEED,
    for tests and for dealing a reported game again) is set; then it follows from `fixed` and the game's id."""
    if fixed is None:
        return secrets.randbits(62)
    return random.Random(f"{fixed}:{game_id}").getrandbits(62)


class Lobby:
    def __init__(self, core: Core, deal_seed: int | None = None):
        self.core = core
        self.deal_seed = deal_seed  # None (production): every deal unpredictable; see deal_seed()

    async def open_table(self, guild_id: int, channel_id: int, host: Seat, clock: bool = True,
                         lang: str = "en", parent_id: int | None = None, min_reliability: int = 0) -> Outcome:
        """A new table with its host seated; `clock`: the server's default time per decision, else none;
        `lang`: the language of its public messages, and the server's default edition, until the host
        chooses others; `parent_id`: the channel whose thread `channel_id` is; `min_reliability`: the least
        reliability (%) a person needs to join (people without finished games may join)."""
        host = await self._with_reliability(host)
        async with self.core.lock(channel_id):
            try:
                existing = await self.core.current(channel_id)
            except GameQuarantined:
                existing = None
            except GameNotPlayable as exc:  # still open, waiting for its edition: nothing new may replace it
                return refuse("not_playable", game=exc.game_id, edition=exc.edition)
            if existing is not None:
                return refuse("channel_busy", existing)
            turn = self.core.timing.turn_seconds if clock else None
            edition = self.core.store.editions.default.ref
            try:
                record = await self.core.store.games.open_lobby(guild_id, channel_id,
                                                     Table(host=host.id, seats=(host,), turn_seconds=turn,
                                                           lang=lang, edition=edition,
                                                           min_reliability=max(0, min(100, min_reliability))),
                                                     parent_id)
            except ChannelBusy:
                return refuse("channel_busy")
            return Outcome(True, record=self.core.keep(record))

    async def rematch(self, guild_id: int, channel_id: int, game_id: int, person: Seat,
                      parent_id: int | None = None) -> Outcome:
        """Play finished game `game_id` again: one of its people asks, and a table opens with them as host,
        its computers at their levels, its clock, language and edition, in its channel (a thread stays one of
        its channel: the game's `parent_id`, else the one given). Its other people are not seated: each
        confirms by joining, or by asking for the rematch too (then they join the table it opened)."""
        person = await self._with_reliability(person)
        async with self.core.lock(channel_id):
            try:
                previous = await self.core.store.games.load_game(game_id)
            except (GameNotFound, GameQuarantined, GameNotPlayable):
                return refuse("game_gone")
            if previous.channel_id != channel_id or previous.status not in ("finished", "abandoned"):
                return refuse("game_gone")
            if person.id not in previous.table.humans():
                return refuse("rematch_players_only")
            try:
                existing = await self.core.current(channel_id)
            except GameQuarantined:
                existing = None
            except GameNotPlayable as exc:
                return refuse("not_playable", game=exc.game_id, edition=exc.edition)
            if existing is not None:
                if existing.status != "lobby" or existing.table.rematch_of != game_id:
                    return refuse("channel_busy", existing)
                if existing.table.seat(person.id) is not None:
                    return refuse("already_seated", existing)
                if len(existing.table.seats) >= MAX_PLAYERS:
                    return refuse("table_full", existing, most=MAX_PLAYERS)
                seats = existing.table.with_seats([*existing.table.seats, person])
                joined = await self.core.written(existing, self.core.store.games.update_lobby(
                    existing.id, existing.version, seats))
                return joined if isinstance(joined, Outcome) else Outcome(True, record=joined)
            table = previous.table
            computers = [Seat(id=s.id, kind="computer", number=s.number, level=s.level)
                         for s in table.seats if s.kind == "computer"]
            try:  # the same components, if this bot still has them; else the server's default
                edition = self.core.store.editions.resolve(table.game_edition).ref
            except EditionUnavailable:
                edition = None
            again = Table(host=person.id, seats=(person, *computers), turn_seconds=table.turn_seconds,
                          lang=table.lang, edition=edition, rematch_of=game_id, away_days=table.away_days,
                          away_waits=table.away_waits)
            try:
                parent = previous.parent_id if previous.parent_id is not None else parent_id
                record = await self.core.store.games.open_lobby(guild_id, channel_id, again, parent)
            except ChannelBusy:
                return refuse("channel_busy")
            return Outcome(True, record=self.core.keep(record))

    async def _lobby(self, channel_id: int, game_id: int) -> GameRecord | Outcome:
        """The channel's table if it is still gathering players (call under the lock), else a refusal."""
        record = await self.core.current(channel_id)
        if record is None or record.id != game_id:
            return refuse("table_closed")
        if record.status != "lobby":
            return refuse("already_started", record)
        return record

    async def _change_table(self, channel_id: int, game_id: int, change: Callable[[Table], Table | Notice]) -> Outcome:
        """Change an open table; `change(table)` returns the new table or a refusal."""
        async with self.core.lock(channel_id):
            record = await self._lobby(channel_id, game_id)
            if isinstance(record, Outcome):
                return record
            table = change(record.table)
            if isinstance(table, Notice):
                return Outcome(False, table, record)
            changed = await self.core.written(record, self.core.store.games.update_lobby(record.id, record.version,
                                                                                          table))
            return changed if isinstance(changed, Outcome) else Outcome(True, record=changed)

    async def _with_reliability(self, seat: Seat) -> Seat:
        """A person's seat with their reliability now (issue 46), shown beside their name in the lobby."""
        if seat.kind != "human":
            return seat
        return seat.model_copy(update={"reliability": (await self.core.store.ratings.reliability(seat.id)).percent})

    async def join(self, channel_id: int, game_id: int, seat: Seat) -> Outcome:
        seat = await self._with_reliability(seat)

        def change(table: Table) -> Table | Notice:
            if table.seat(seat.id) is not None:
                return Notice("already_seated")
            if len(table.seats) >= MAX_PLAYERS:
                return Notice("table_full", {"most": MAX_PLAYERS})
            if seat.reliability is not None and seat.reliability < table.min_reliability:
                return Notice("too_unreliable", {"least": table.min_reliability, "yours": seat.reliability})
            return table.with_seats([*table.seats, seat])

        return await self._change_table(channel_id, game_id, change)

    async def leave(self, channel_id: int, game_id: int, user: int | str) -> Outcome:
        def change(table: Table) -> Table | Notice:
            if table.seat(str(user)) is None:
                return Notice("not_at_table")
            if table.host == str(user):
                return Notice("host_cannot_leave")
            return table.with_seats([s for s in table.seats if s.id != str(user)])

        return await self._change_table(channel_id, game_id, change)

    async def add_computer(self, channel_id: int, game_id: int, user: int | str,
                           level: str = DEFAULT_LEVEL) -> Outcome:
        """The host fills a free seat with a computer player of `level`."""

        def change(table: Table) -> Table | Notice:
            if table.host != str(user):
                return Notice("host_only_computers")
            if level not in LEVELS:
                return Notice("unknown_choice")
            if len(table.seats) >= MAX_PLAYERS:
                return Notice("table_full", {"most": MAX_PLAYERS})
            taken = {s.id for s in table.seats}
            number = next(n for n in range(1, MAX_PLAYERS + 1) if f"ai{n}" not in taken)
            seat = Seat(id=f"ai{number}", kind="computer", number=number, level=level)
            return table.with_seats([*table.seats, seat])

        return await self._change_table(channel_id, game_id, change)

    async def remove_computer(self, channel_id: int, game_id: int, user: int | str) -> Outcome:
        """The host frees the seat of the last computer player who joined."""

        def change(table: Table) -> Table | Notice:
            if table.host != str(user):
                return Notice("host_only_computers")
            computers = [s for s in table.seats if s.kind == "computer"]
            if not computers:
                return Notice("no_computer")
            return table.with_seats([s for s in table.seats if s is not computers[-1]])

        return await self._change_table(channel_id, game_id, change)

    async def set_computer_level(self, channel_id: int, game_id: int, user: int | str, player: str,
                                 level: str) -> Outcome:
        """The host chooses how well the computer in seat `player` plays."""

        def change(table: Table) -> Table | Notice:
            if table.host != str(user):
                return Notice("host_only_levels")
            if level not in LEVELS:
                return Notice("unknown_choice")
            if not table.is_computer(player):
                return Notice("computer_gone")  # removed since the menu was drawn
            return table.with_seat(player, level=level)

        return await self._change_table(channel_id, game_id, change)

    async def set_turn_time(self, channel_id: int, game_id: int, user: int | str, seconds: int | None) -> Outcome:
        def change(table: Table) -> Table | Notice:
            if table.host != str(user):
                return Notice("host_only_clock")
            if seconds not in TURN_CHOICES:
                return Notice("unknown_choice")
            return table.model_copy(update={"turn_seconds": seconds})

        return await self._change_table(channel_id, game_id, change)

    async def set_away_rule(self, channel_id: int, game_id: int, user: int | str, days: int, waits: bool) -> Outcome:
        """The host's choice of time away: at most `days` days (0: none), the table waiting or not (away.py)."""
        def change(table: Table) -> Table | Notice:
            if table.host != str(user):
                return Notice("host_only_clock")
            if days not in AWAY_CHOICES:
                return Notice("unknown_choice")
            return table.model_copy(update={"away_days": days, "away_waits": waits and days > 0})

        return await self._change_table(channel_id, game_id, change)

    async def set_language(self, channel_id: int, game_id: int, user: int | str, lang: str) -> Outcome:
        def change(table: Table) -> Table | Notice:
            if table.host != str(user):
                return Notice("host_only_language")
            if lang not in LANGUAGES:
                return Notice("unknown_choice")
            return table.model_copy(update={"lang": lang})

        return await self._change_table(channel_id, game_id, change)

    async def set_edition(self, channel_id: int, game_id: int, user: int | str, edition_id: str) -> Outcome:
        """The host chooses the table's edition among those the server offers."""

        def change(table: Table) -> Table | Notice:
            if table.host != str(user):
                return Notice("host_only_edition")
            edition = self.core.store.editions.get(edition_id)
            if edition is None:
                return Notice("unknown_choice")
            return table.model_copy(update={"edition": edition.ref})

        return await self._change_table(channel_id, game_id, change)

    async def start(self, channel_id: int, game_id: int, user: int | str, seed: int | None = None) -> Outcome:
        async with self.core.lock(channel_id):
            record = await self._lobby(channel_id, game_id)
            if isinstance(record, Outcome):
                return record
            table = record.table
            if table.host != str(user):
                return refuse("host_only_start", record)
            if not MIN_PLAYERS <= len(table.seats) <= MAX_PLAYERS:
                return refuse("players_needed", record, least=MIN_PLAYERS, most=MAX_PLAYERS)
            editions = self.core.store.editions
            chosen = table.edition
            edition = editions.get(chosen.id) if chosen is not None else editions.default
            if edition is None:  # its file went away since it was chosen: the host chooses again
                return refuse("edition_gone", record, edition=chosen.id if chosen is not None else "")
            seed = deal_seed(self.deal_seed, record.id) if seed is None else seed
            table = table.model_copy(update={"seed": seed, "edition": edition.ref, "rules": RULES_VERSION})
            state, events = new_game(table.players, seed=seed, edition=edition, rules=RULES_VERSION)
            deadlines = await self.core.plan(record, table, state)
            announce = self.core.announce_at()
            started = await self.core.written(record, self.core.store.games.start_game(
                record.id, record.version, table, state, log=events, deadlines=deadlines, announce_at=announce))
            if isinstance(started, Outcome):
                return started
            self.core.planned(deadlines, announce)
            return Outcome(True, record=started, events=events)

    async def cancel(self, channel_id: int, user: int | str, can_manage: bool) -> Outcome:
        async with self.core.lock(channel_id):
            record = await self.core.current(channel_id)
            if record is None:
                return refuse("no_game")
            if record.table.host != str(user) and not can_manage:
                return refuse("cancel_not_allowed", record)
            return await self.core.end(record, "cancelled")
