"""Records: a player's statistics, the server's leaderboard and the list of past games (Discord markdown)."""

from __future__ import annotations

from collections.abc import Sequence

from babel.numbers import format_decimal, format_percent

from storage import MIN_GAMES, BoardRow, GameSummary, PlayerStats, RatedRow, Reliability, skill

from . import names
from .words import People, Words


def stats_title(w: Words, name: str) -> str:
    return w._("**Augsburg 1520 — {name}'s record**", name=name)


def stats_block(w: Words, heading: str, s: PlayerStats) -> str:
    if not s.games:
        return f"**{heading}:** " + w._("no finished games yet")
    lines = [f"**{heading}:** " + w.n_("{n} game", "{n} games", s.games) + " · "
             + w.n_("{n} win", "{n} wins", s.wins),
             w._("Average score: {average} · best: {best}", average=_decimal(w, s.average),
                 best=w.prestige(s.best_score))]
    if s.favourite:
        lines.append(w.n_("Favourite noble: {noble} ({n} auction won)", "Favourite noble: {noble} ({n} auctions won)",
                          s.favourite_wins, noble=names.noble(w, s.favourite)))
    if (share := s.in_time_share) is not None:  # (it is when some decisions were counted)
        lines.append(w._("Decided in time: {share} ({n} of {all})", share=_percent(w, share),
                         n=s.in_time, all=s.decisions)
                     + (" · " + w._("median time to decide: {time}", time=_span(w, s.median_seconds))
                        if s.median_seconds is not None else ""))
    lines.append(w._("Games finished: {finished} · left: {left}", finished=s.games - s.left, left=s.left))
    return "\n".join(lines)


def _percent(w: Words, share: float) -> str:
    return format_percent(share, locale=w.lang)


def _span(w: Words, seconds: float) -> str:
    """'40 s', '12 min', '3 h 20 min', '2 d 4 h': how long a decision took, to a sensible precision."""
    seconds = round(seconds)
    if seconds < 60:
        return w._("{n} s", n=seconds)
    minutes = round(seconds / 60)
    if minutes < 60:
        return w._("{n} min", n=minutes)
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return w._("{h} h {m} min", h=hours, m=minutes) if minutes else w._("{n} h", n=hours)
    days, hours = divmod(hours, 24)
    return w._("{d} d {h} h", d=days, h=hours)


def board_steady(w: Words, share: int) -> str:
    return w._("Only players who finished at least {share}% of their games.", share=share)


def on_this_server(w: Words) -> str:
    return w._("On this server")


def everywhere(w: Words) -> str:
    return w._("On all servers")


def counted(w: Words) -> str:
    return w._("Only games played to their end count; cancelled and abandoned ones do not.")


def _decimal(w: Words, value: float) -> str:
    return format_decimal(round(value, 1), format="#,##0.0", locale=w.lang)


def board_title(w: Words, page: int, pages: int) -> str:
    return w._("**Augsburg 1520 — leaderboard of this server** (page {page} of {pages})", page=page, pages=pages)


def board_order(w: Words) -> str:
    return w._("Ranked by wins, then by win rate (counted from {n} games on), then by fewer games.", n=MIN_GAMES)


def board_line(w: Words, row: BoardRow) -> str:
    rate = row.win_rate
    games = w.n_("{n} win", "{n} wins", row.wins) + " · " + w.n_("{n} game", "{n} games", row.games)
    if rate is not None:
        games += " · " + w._("{rate}% won", rate=round(100 * rate))
    return w._("{place}. {name} — {games}", place=row.place, name=row.name or row.player, games=games)


def board_empty(w: Words) -> str:
    return w._("Nobody has finished a game on this server yet.")


def computers_apart(w: Words, games: int, wins: int) -> str:
    return w._("Computer players (never ranked): {wins} in {games}", wins=w.n_("{n} win", "{n} wins", wins),
               games=w.n_("{n} game", "{n} games", games))


def history_title(w: Words, where: str) -> str:
    """`where`: "server", "thread" (its own games), or "channel" (its own and those of its threads)."""
    if where == "server":
        return w._("**The last games on this server**")
    if where == "thread":
        return w._("**The last games in this thread**")
    return w._("**The last games in this channel and its threads**")


def history_empty(w: Words) -> str:
    return w._("No game has ended here yet.")


def history_hint(w: Words) -> str:
    return w._("A button shows a game's final table and its log; `/augsburg records export game:` gives its file.")


def game_line(w: Words, g: GameSummary, people: People, when: str, where: bool) -> str:
    """'#12 · 3 May · in #channel · Ada 🏆 45, Ben 30': a finished game's scores, or what became of the game;
    `where`: with the channel (or thread) it was played in."""
    head = f"**#{g.id}** · {when}" + (f" · <#{g.channel_id}>" if where else "")
    if g.status == "finished" and g.results:
        scores = w.join(f"{people.name(p)}{' 🏆' if won else ''} {score}" for p, score, _, won in g.results)
        return f"{head} · {scores}"
    players = w.join(people.name(s.id) for s in g.table.seats)
    status = {"cancelled": w._("cancelled"), "abandoned": w._("abandoned")}.get(g.status, w._("ended"))
    return f"{head} · {players} · *{status}*"


def game_button(w: Words, game: int) -> str:
    return w._("Game #{game}", game=game)


def older(w: Words) -> str:
    return w._("◀ Older")


def newer_first(w: Words) -> str:
    return w._("Newest ▶")


def previous(w: Words) -> str:
    return w._("◀ Previous")


def next_page(w: Words) -> str:
    return w._("Next ▶")


def game_title(w: Words, game: int) -> str:
    return w._("**Game #{game}**", game=game)


def export_ready(w: Words, game: int, complete: bool) -> str:
    if complete:
        return w._("Game #{game} as a file: its seed, every move and its final state. Play it back with "
                   "`augsburg replay FILE`.", game=game)
    return w._("Game #{game} as a file: its public log and its table as everyone sees it (nothing hidden: "
               "the game has not finished). Play it back with `augsburg replay FILE`.", game=game)


def unknown_game(w: Words) -> str:
    return w._("There is no such game on this server.")


def no_game_to_export(w: Words) -> str:
    return w._("There is no game in this channel. Name one from `/augsburg records history` with `game:`.")


# --- ratings (issue 46): the skill rating, the computer levels' marks, seasons, reliability


def _rating(w: Words, value: float) -> str:
    return format_decimal(round(value, 1), format="#,##0.0", locale=w.lang)


def rating_title(w: Words, season: str, page: int, pages: int) -> str:
    if season:
        return w._("**Augsburg 1520 — ratings on this server, season {season}** (page {page} of {pages})",
                   season=season, page=page, pages=pages)
    return w._("**Augsburg 1520 — ratings on this server, all time** (page {page} of {pages})", page=page,
               pages=pages)


def rating_order(w: Words) -> str:
    return w._("Ranked by rating: the cautious estimate μ − 3σ, which rises as more games make it sure"
               " (openskill's Plackett–Luce model); ± is the uncertainty σ.")


def rating_line(w: Words, row: RatedRow) -> str:
    return w._("{place}. {name} — **{rating}** ({mu} ± {sigma}) · {games}", place=row.place,
               name=row.name or row.player, rating=_rating(w, row.ordinal), mu=_rating(w, row.mu),
               sigma=_rating(w, row.sigma), games=w.n_("{n} game", "{n} games", row.games))


def rating_empty(w: Words) -> str:
    return w._("Nobody has a rating here yet.")


def marks(w: Words, levels: Sequence[tuple[str, skill.Rating]]) -> str:
    return w._("Computer levels, fixed: {levels}", levels=" · ".join(
        f"{names.level(w, level)} {_rating(w, r.ordinal)}" for level, r in levels))


def rated_rule(w: Words) -> str:
    return w._("Rated: games played to their end with at least one person. Whoever left, or let a stand-in make"
               " more than half of their decisions, is rated last; computers play at their fixed marks.")


def all_time(w: Words) -> str:
    return w._("All time")


def season_button(w: Words, season: str) -> str:
    return w._("Season {season}", season=season)


def rating_block(w: Words, heading: str, row: RatedRow | None, people: int) -> str:
    if row is None:
        return f"**{heading}:** " + w._("not rated yet")
    return f"**{heading}:** " + w._("rating **{rating}** ({mu} ± {sigma}), place {place} of {all} · {games}",
                                    rating=_rating(w, row.ordinal), mu=_rating(w, row.mu),
                                    sigma=_rating(w, row.sigma), place=row.place, all=people,
                                    games=w.n_("{n} rated game", "{n} rated games", row.games))


def rating_change(w: Words, before: skill.Rating, after: skill.Rating) -> str:
    """A person's rating on the server before and after a game, for its standings."""
    change = format_decimal(round(after.ordinal - before.ordinal, 1), format="+#,##0.0;-#,##0.0", locale=w.lang)
    return w._("Rating on this server: {before} → {after} ({change})", before=_rating(w, before.ordinal),
               after=_rating(w, after.ordinal), change=change)


def rating_here(w: Words) -> str:
    return w._("Rating on this server")


def rating_everywhere(w: Words) -> str:
    return w._("Rating on all servers")


def reliability(w: Words, r: Reliability) -> str:
    if r.percent is None:
        return w._("Reliability: no finished games yet")
    return w._("Reliability: {percent}% — finished without leaving {finished} of {games}; decisions made by a"
               " stand-in: {share}", percent=r.percent, finished=r.games - r.left,
               games=w.n_("{n} game", "{n} games", r.games), share=_percent(w, r.stood_in_share or 0.0))


def unknown_season(w: Words, season: str, known: Sequence[str]) -> str:
    return w._("This server has no season “{season}”. Its seasons: {known}.", season=season,
               known=", ".join(known) or "—")


def season_started(w: Words, season: str) -> str:
    return w._("Season {season} has started: the leaderboard shows its ratings from now on, beside the all-time"
               " table. Run this again to start the next one.", season=season)


def seasons_by(w: Words, mode: str) -> str:
    if mode == "month":
        return w._("Seasons now run by calendar month: each month's games make its own table.")
    if mode == "quarter":
        return w._("Seasons now run by calendar quarter: each quarter's games make its own table.")
    return w._("Seasons are off: the leaderboard shows the all-time table.")


def seasons_for_managers(w: Words) -> str:
    return w._("Only someone who can manage this server can change its seasons.")


def against_levels(w: Words, row: RatedRow, levels: Sequence[tuple[str, skill.Rating]]) -> str:
    """Where a person's rating stands among the computer levels' marks (each compared by its ordinal)."""
    above = [names.level(w, level) for level, r in levels if row.ordinal > r.ordinal]
    below = [names.level(w, level) for level, r in levels if row.ordinal <= r.ordinal]
    if not above:
        return w._("Below every computer level so far.")
    if not below:
        return w._("Above every computer level.")
    return w._("Above the computer levels {above}; below {below}.", above=", ".join(above), below=", ".join(below))
