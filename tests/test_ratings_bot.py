"""Ratings through the fake Discord (issue 46): the leaderboard ranks by rating in this server's season and all
time, a profile shows the rating here and everywhere with the computers' marks and reliability, a manager runs
the seasons; every answer private, notifying nobody, in the reader's language (English, German, Italian)."""

from __future__ import annotations

import pytest
from support.bot_support import ADA, BEN, CLEO, service
from support.fake_discord import FakeUser
from support.played import play_game

from bot.wording import records, words
from storage import RatedRow, skill

MOD = 1010  # may manage the server


def _private(result):
    answer = result.answer
    assert answer.ephemeral, answer
    mentions = answer.allowed_mentions
    assert mentions is not None and mentions.get("parse") == [] and not mentions.get("users"), mentions
    return answer


async def test_the_leaderboard_ranks_by_rating_in_the_season_and_all_time(harness):
    h = harness
    h.add_user(FakeUser(MOD, "Mo", admin=True))
    ratings = service(h).ratings
    ended = await play_game(service(h), h.guild_id, h.channel_id, [str(ADA), str(BEN)], 1, seed=3)
    board = _private(await h.slash(CLEO, "augsburg records leaderboard"))
    rows, total = await ratings.board(h.guild_id)
    # The standings show each person's rating here before and after the game (computers: none).
    h.bot.get_cog("Augsburg").presenter.refresh(ended)  # (played through the service: announced as a restart would)
    await h.settle()
    changes = await ratings.changes(ended.id)
    assert sorted(changes) == sorted([str(ADA), str(BEN)])
    for person, (old, new) in changes.items():
        now = await ratings.rating(person, h.guild_id)
        assert old == skill.NEW and now is not None and (new.mu, new.sigma) == (now.mu, now.sigma)
    final = [m for m in h.channel_messages.values() if "final standings" in m.content]
    fields = "\n".join(f["value"] for f in final[0].embeds[0]["fields"])
    for person in (ADA, BEN):
        assert records.rating_change(words("en"), *changes[str(person)]) in fields
    assert fields.count("Rating on this server: ") == 2 and "→" in fields
    assert total == 2 and "all time" in board.content and "μ − 3σ" in board.content
    lines = [line for line in board.content.splitlines() if line[:2] in ("1.", "2.")]
    assert [f"{r.place}. P{r.player}" for r in rows] == [line.split(" —")[0] for line in lines]
    assert f"({rows[0].mu:.1f} ± {rows[0].sigma:.1f}) · {rows[0].games} game" in lines[0]
    strong = f"{skill.mark('strong').ordinal:.1f}"
    assert f"Strong {strong}" in board.content and "Computer" not in "".join(lines)
    # Seasons are a manager's: refused to others, in one line.
    refused = _private(await h.slash(ADA, "augsburg records season", what="new"))
    assert refused.content == records.seasons_for_managers(words("en"))
    started = _private(await h.slash(MOD, "augsburg records season", what="new"))
    assert "Season S1 has started" in started.content
    await play_game(service(h), h.guild_id, h.channel_id, [str(CLEO), str(BEN)], 0, seed=4)
    season = _private(await h.slash(CLEO, "augsburg records leaderboard"))
    assert "season S1" in season.content and f"P{ADA}" not in season.content and f"P{CLEO}" in season.content
    every = await h.click(CLEO, season.message_id, label="All time")  # the all-time table a click away
    assert every.answer.kind == "update" and f"P{ADA}" in h.message(season.message_id).content
    assert "all time" in h.message(season.message_id).content
    offered = await h.autocomplete(CLEO, "augsburg records leaderboard", "season", "")
    assert [(c["name"], c["value"]) for c in offered] == [("All time", "all"), ("Season S1", "S1")]
    back = _private(await h.slash(CLEO, "augsburg records leaderboard", season="S1"))
    assert back.content == season.content
    unknown = _private(await h.slash(CLEO, "augsburg records leaderboard", season="S9"))
    assert "no season “S9”" in unknown.content and "S1" in unknown.content
    monthly = _private(await h.slash(MOD, "augsburg records season", what="month"))
    assert "calendar month" in monthly.content and await ratings.season_mode(h.guild_id) == "month"
    h.assert_all_answered()
    h.assert_no_errors()


def test_a_rating_is_placed_among_the_computer_levels():
    w, marks = words("en"), [("easy", skill.Rating(20.0, 1.0)), ("normal", skill.Rating(25.0, 1.0)),
                             ("strong", skill.Rating(30.0, 1.0))]
    row = RatedRow(1, "a", "A", 27.0 + 3 * 2.0, 2.0, 10)  # ordinal 27: above easy (17) and normal (22)
    assert records.against_levels(w, row, marks) == "Above the computer levels Easy, Normal; below Strong."
    assert records.against_levels(w, RatedRow(1, "a", "A", 25.0, 8.0, 1), marks) == \
        "Below every computer level so far."
    assert records.against_levels(w, RatedRow(1, "a", "A", 40.0, 1.0, 50), marks) == "Above every computer level."
    assert "Strong" not in records.against_levels(words("de"), row, marks)  # the levels in the reader's words


@pytest.mark.parametrize("lang", ["en", "de", "it"])
async def test_a_profile_shows_the_rating_here_and_everywhere_and_reliability(harness, lang):
    h = harness
    h.add_user(FakeUser(4040, "Lia", locale=lang))
    await play_game(service(h), h.guild_id, h.channel_id, ["4040", str(BEN)], 1, seed=5)
    w = words(lang)
    here = await service(h).ratings.rating("4040", h.guild_id)
    assert here is not None and here.games == 1
    stats = _private(await h.slash(4040, "augsburg records stats"))
    assert records.rating_block(w, records.rating_here(w), here, 2) in stats.content
    assert records.rating_block(w, records.rating_everywhere(w), await service(h).ratings.rating("4040"), 2) \
        in stats.content
    assert records.marks(w, service(h).ratings.marks()) in stats.content
    everywhere = await service(h).ratings.rating("4040")
    assert records.against_levels(w, everywhere, service(h).ratings.marks()) in stats.content
    assert records.reliability(w, await service(h).ratings.reliability("4040")) in stats.content
    assert (lang == "en") == ("Reliability: 100%" in stats.content)
    board = _private(await h.slash(4040, "augsburg records leaderboard"))
    assert records.rating_title(w, "", 1, 1) in board.content and records.rated_rule(w) in board.content
    h.assert_all_answered()
    h.assert_no_errors()


async def test_the_lobby_shows_reliability_and_a_host_can_ask_for_a_minimum(harness):
    h = harness
    store = service(h).core.store
    await play_game(service(h), h.guild_id, h.channel_id, [str(ADA), str(BEN)], 1, seed=6)
    # Ben let a stand-in make all of his decisions in that game (as if his time had run out each time).
    await store.db.transaction(lambda tx: tx.execute(
        "UPDATE player_results SET stood_in = own_decisions + stood_in, own_decisions = 0 WHERE player = ?",
        (str(BEN),)))
    assert (await service(h).ratings.reliability(str(BEN))).percent == 0
    assert (await service(h).ratings.reliability(str(ADA))).percent == 100
    table = (await h.slash(ADA, "augsburg new", min_reliability=50)).answer.message_id
    lobby = h.message(table).embeds[0]
    shown = "\n".join(f["value"] for f in lobby["fields"])
    assert "1. Ada (host) · reliability 100%" in shown and "at least 50%" in shown
    refused = await h.click(BEN, table, label="Join")
    assert refused.answer.ephemeral and "at least 50%; yours is 0%" in refused.answer.content
    assert len(service(h).games.cached(h.channel_id).table.seats) == 1
    joined = await h.click(CLEO, table, label="Join")  # no finished game yet: new people may join
    assert not joined.answer.ephemeral or "yours" not in (joined.answer.content or "")
    seats = service(h).games.cached(h.channel_id).table.seats
    assert [(s.id, s.reliability) for s in seats] == [(str(ADA), 100), (str(CLEO), None)]
    h.assert_all_answered()
    h.assert_no_errors()
