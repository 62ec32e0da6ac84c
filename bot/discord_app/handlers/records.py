"""Records (issue 16): a player's statistics, the server's leaderboard, past games and a game's file.

All answers are private and notify nobody (names are plain text). Statistics
and the leaderboard are index queries on rows written when each game ended
(storage/stats.py); buttons are durable (widgets.py) and carry only public ids.
"""

from __future__ import annotations

import io
import math

import discord

from storage import STEADY, GameNotFound, GameNotPlayable, GameQuarantined, GameRecord

from ...service.export import export_bytes, file_name, is_complete
from ...wording import records, words
from ...wording.table import people_at
from .. import answers
from ..payload import channel_of
from ..people import NOBODY
from ..record_widgets import BoardPage, HistoryGame, HistoryPage, RatingPage
from ..threads import parent_of
from ..widgets import Button, Routed, view_of
from .base import Front, guarded, reader, say
from .info import log_page_of
from .play import Suggestion

BOARD_PAGE = 10  # people per page of the leaderboard
HISTORY_PAGE = 10  # games per page of the history: two rows of five buttons, the paging row below


class RecordsHandlers:
    def __init__(self, front: Front):
        self.front, self.service, self.presenter = front, front.service, front.presenter

    @guarded
    async def show_stats(self, interaction: discord.Interaction, user: discord.abc.Snowflake | None) -> None:
        who = user or interaction.user
        player = str(who.id)
        queries = self.service.records
        here = await queries.player_stats(player, interaction.guild_id)
        overall = await queries.player_stats(player)
        name = getattr(who, "display_name", None) or await queries.player_name(player) or player
        w, ratings, guild = reader(), self.service.ratings, interaction.guild_id or 0
        rated = [records.rating_block(w, heading, await ratings.rating(player, scope),
                                      (await ratings.board(scope, "", 0, 0))[1])
                 for heading, scope in ((records.rating_here(w), guild), (records.rating_everywhere(w), 0))]
        everywhere = await ratings.rating(player)
        compared = [records.against_levels(w, everywhere, ratings.marks())] if everywhere is not None else []
        text = "\n\n".join([records.stats_title(w, name),
                            records.stats_block(w, records.on_this_server(w), here),
                            records.stats_block(w, records.everywhere(w), overall),
                            "\n".join(rated + [records.marks(w, ratings.marks())] + compared
                                      + [records.reliability(w, await ratings.reliability(player))]),
                            f"-# {records.counted(w)}"])
        await answers.send(interaction, text[:2000], allowed_mentions=NOBODY)

    @guarded
    async def show_leaderboard(self, interaction: discord.Interaction, steady: bool = False, wins: bool = False,
                               season: str | None = None) -> None:
        """The rating table of the season under way (or of `season`; 'all': all time), or (`wins`) the table of
        wins, which the `steady` filter applies to."""
        guild = interaction.guild_id or 0
        if wins or steady:
            content, view = await self._board(guild, 0, steady)
        else:
            ratings = self.service.ratings
            if season is None:
                season = await ratings.season_now(guild)
            elif season.strip().lower() in ("all", ""):
                season = ""
            else:
                known = [s.season for s in await ratings.seasons(guild)]
                if season.strip() not in known:
                    await say(interaction, records.unknown_season(reader(), season[:40], known[:20]))
                    return
                season = season.strip()
            content, view = await self._ratings(guild, season, 0)
        await answers.send(interaction, content, view=view, allowed_mentions=NOBODY)

    @guarded(edits=True)
    async def rating_page(self, interaction: discord.Interaction, guild: int, page: int, season: str) -> None:
        if guild != (interaction.guild_id or 0):
            await say(interaction, records.unknown_game(reader()))
            return
        content, view = await self._ratings(guild, season, page)
        await answers.update(interaction, content, view=view)

    async def _ratings(self, guild: int, season: str, page: int) -> tuple[str, discord.ui.View]:
        w, ratings = reader(), self.service.ratings
        total = (await ratings.board(guild, season, 0, 0))[1]
        pages = max(1, math.ceil(total / BOARD_PAGE))
        page = max(0, min(page, pages - 1))
        rows, _ = await ratings.board(guild, season, page * BOARD_PAGE, BOARD_PAGE)
        lines = [records.rating_title(w, season, page + 1, pages), f"-# {records.rating_order(w)}", ""]
        lines += [records.rating_line(w, r) for r in rows] or [records.rating_empty(w)]
        lines += ["", records.marks(w, ratings.marks()), f"-# {records.rated_rule(w)}"]
        items: list[Routed[Button]] = []
        if pages > 1:
            items += [RatingPage(guild, max(0, page - 1), season, records.previous(w), disabled=page == 0),
                      RatingPage(guild, page + 1, season, records.next_page(w), disabled=page >= pages - 1)]
        now = await ratings.season_now(guild)
        if season:  # a season's table: the all-time one is a click away
            items.append(RatingPage(guild, 0, "", records.all_time(w), row=1))
        elif now:
            items.append(RatingPage(guild, 0, now, records.season_button(w, now), row=1))
        return "\n".join(lines)[:2000], view_of(*items) if items else discord.utils.MISSING

    @guarded
    async def seasons(self, interaction: discord.Interaction, what: str) -> None:
        """A manager's: start the next season now, run them by calendar month or quarter, or stop them."""
        w, guild = reader(), interaction.guild_id or 0
        if not (interaction.permissions and interaction.permissions.manage_guild):
            await say(interaction, records.seasons_for_managers(w))
            return
        if what == "new":
            text = records.season_started(w, await self.service.ratings.start_season(guild))
        else:
            mode = "" if what == "off" else what
            await self.service.ratings.set_season_mode(guild, mode)
            text = records.seasons_by(w, mode)
        await answers.send(interaction, text, allowed_mentions=NOBODY)

    async def suggest_seasons(self, interaction: discord.Interaction, current: str) -> list[Suggestion]:
        """Autocomplete for the leaderboard's season: the all-time table and the server's seasons, newest first."""
        w = words(interaction.locale)
        seasons = await self.service.ratings.seasons(interaction.guild_id or 0)
        pairs = [(records.all_time(w), "all")] + [(records.season_button(w, s.season), s.season) for s in seasons]
        return await answers.suggest_matching(interaction, pairs, current)

    @guarded(edits=True)
    async def leaderboard_page(self, interaction: discord.Interaction, guild: int, page: int,
                               steady: bool = False) -> None:
        if guild != (interaction.guild_id or 0):
            await say(interaction, records.unknown_game(reader()))
            return
        content, view = await self._board(guild, page, steady)
        await answers.update(interaction, content, view=view)

    async def _board(self, guild: int, page: int, steady: bool = False) -> tuple[str, discord.ui.View]:
        w, queries = reader(), self.service.records
        total = (await queries.leaderboard(guild, 0, 0, steady))[1]
        pages = max(1, math.ceil(total / BOARD_PAGE))
        page = max(0, min(page, pages - 1))
        rows, _ = await queries.leaderboard(guild, page * BOARD_PAGE, BOARD_PAGE, steady)
        order = records.board_order(w) + (" " + records.board_steady(w, STEADY) if steady else "")
        lines = [records.board_title(w, page + 1, pages), f"-# {order}", ""]
        lines += [records.board_line(w, r) for r in rows] or [records.board_empty(w)]
        games, wins = await queries.computer_totals(guild)
        if games:
            lines += ["", records.computers_apart(w, games, wins)]
        lines.append(f"-# {records.counted(w)}")
        buttons = [BoardPage(guild, max(0, page - 1), records.previous(w), disabled=page == 0, steady=steady),
                   BoardPage(guild, page + 1, records.next_page(w), disabled=page >= pages - 1, steady=steady)]
        return "\n".join(lines)[:2000], view_of(*buttons) if pages > 1 else discord.utils.MISSING

    @guarded
    async def show_history(self, interaction: discord.Interaction, server: bool) -> None:
        content, view = await self._history(interaction, "s" if server else "c", 0)
        await answers.send(interaction, content, view=view, allowed_mentions=NOBODY)

    @guarded(edits=True)
    async def history_page(self, interaction: discord.Interaction, scope: str, before: int) -> None:
        content, view = await self._history(interaction, scope, before)
        await answers.update(interaction, content, view=view)

    async def _history(self, interaction: discord.Interaction, scope: str,
                       before: int) -> tuple[str, discord.ui.View]:
        w, server = reader(), scope == "s"
        games = await self.service.records.recent_games(interaction.guild_id or 0,
                                                        None if server else interaction.channel_id,
                                                        before or None, HISTORY_PAGE + 1)
        more, games = len(games) > HISTORY_PAGE, games[:HISTORY_PAGE]
        here = interaction.channel_id
        lines = [records.history_title(w, "server" if server else "thread" if parent_of(interaction) else "channel")]
        if not games:
            lines.append(records.history_empty(w))
        for g in games:
            lines.append(records.game_line(w, g, people_at(w, g.table), f"<t:{int(g.ended_at)}:d>",
                                           server or g.channel_id != here))  # a thread's game: which thread
        if games:
            lines.append(f"-# {records.history_hint(w)}")
        items: list[Routed[Button]] = [HistoryGame(g.id, records.game_button(w, g.id), row=i // 5)
                                       for i, g in enumerate(games)]
        if before or more:
            items += [HistoryPage(scope, 0, records.newer_first(w), disabled=not before),
                      HistoryPage(scope, games[-1].id if more else 0, records.older(w), disabled=not more)]
        return "\n".join(lines)[:2000], view_of(*items) if items else discord.utils.MISSING

    @guarded
    async def history_game(self, interaction: discord.Interaction, game_id: int) -> None:
        """A past game of this server: its final table (an embed) and the newest page of its public log."""
        record = await self._past_game(interaction, game_id)
        if record is None:
            return
        content, view = await log_page_of(reader(), self.service, record, 0, 0)
        embed = await self.presenter.embed(record)
        await answers.send(interaction, f"{records.game_title(reader(), game_id)}\n{content}"[:2000], view=view,
                           embed=embed, allowed_mentions=NOBODY)

    async def _past_game(self, interaction: discord.Interaction, game_id: int) -> GameRecord | None:
        try:
            record = await self.service.games.game(game_id)
        except (GameNotFound, GameQuarantined, GameNotPlayable):
            record = None
        if record is None or record.guild_id != (interaction.guild_id or 0) or record.open or record.state is None:
            await say(interaction, records.unknown_game(reader()))
            return None
        return record

    @guarded
    async def export(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """The channel's game (or its last one), or a past game of this server, as a JSON file."""
        if game_id is not None:
            record = await self._past_game(interaction, game_id)
            if record is None:
                return
        else:
            try:
                record = await self.service.games.current(channel_of(interaction))
            except (GameQuarantined, GameNotPlayable):
                record = None
            record = record or await self.service.games.last_game(channel_of(interaction))
            if record is None or record.state is None:
                await say(interaction, records.no_game_to_export(reader()))
                return
        data = export_bytes(await self.service.games.export(record))
        await answers.send(interaction, records.export_ready(reader(), record.id, is_complete(record)),
                           file=discord.File(io.BytesIO(data), filename=file_name(record)), allowed_mentions=NOBODY)

