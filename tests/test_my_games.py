"""Issue 43: `/augsburg me games` lists every game a person sits at, in every server, from any server and from a
direct message with the bot; `/augsburg me hours` and `/augsburg me daily` set a person's hours and daily word
(from a DM too); the other commands politely refuse in a DM; the daily word lists exactly the games due."""

from __future__ import annotations

import re

import pytest
from support.bot_support import ADA, BEN, CLEO, clocked_harness, hourly_bot, make_bot, pass_time, service

from bot.wording import LANGUAGES, hours, notices, words

GUILD_2, OTHER = 900_000_000_000_000_101, 900_000_000_000_000_102
DAY = 86400


async def two_guilds(tmp_path, make=hourly_bot):
    """Ada, Ben and Cleo; the first server has two channels, the second one."""
    return await clocked_harness(tmp_path / "bot.sqlite3", make, channels=2, more_guilds={GUILD_2: [OTHER]})


def no_clock(path, clock):
    return make_bot(path, clock=clock, turn_timeout_seconds=0)


async def start(h, channel: int, players) -> int:
    r = await h.slash(players[0], "augsburg new", channel_id=channel)
    table = r.answer.message_id
    for p in players[1:]:
        await h.click(p, table, label="Join")
    await h.click(players[0], table, label="Start game")
    return table


def links(text: str) -> list[str]:
    return re.findall(r"https://discord\.com/channels/\d+/\d+/\d+", text)


async def test_my_games_lists_every_game_in_every_server_from_a_server_and_a_dm(tmp_path):
    h = await two_guilds(tmp_path)
    try:
        first, second = h.channel_ids[0], h.channel_ids[1]
        await start(h, first, (ADA, BEN))
        await start(h, second, (BEN, CLEO))  # not Ada's
        await start(h, OTHER, (CLEO, ADA))
        dm = h.open_dm(h.user(ADA))
        listed = (await h.slash(ADA, "augsburg me games", channel_id=dm)).answer
        assert listed.ephemeral or listed.channel_id == dm
        text = listed.content
        games = service(h).core.store.games
        ada = await games.seated_games(str(ADA))
        assert [g.channel_id for g in ada] == [OTHER, first]  # newest first, Ben and Cleo's game left out
        assert links(text) == [f"https://discord.com/channels/{g.guild_id}/{g.channel_id}/{g.messages.table}"
                               for g in ada]
        assert text.count("\n•") == 2 and "#" in text
        assert all(str(ADA) in service(h).games.due(g).people for g in ada)  # the opening purchase: hers too
        assert text.count("**your move**") == 2
        assert re.search(r"<t:\d+:f>", text)
        in_server = (await h.slash(ADA, "augsburg me games", channel_id=OTHER)).answer
        assert in_server.ephemeral and links(in_server.content) == links(text)
        cleo = (await h.slash(CLEO, "augsburg me games", channel_id=h.open_dm(h.user(CLEO)))).answer
        assert len(links(cleo.content)) == 2
        stranger = (await h.slash(ADA, "augsburg me games", channel_id=second)).answer  # in a game's channel too
        assert links(stranger.content) == links(text)
        assert all(not m.mentions for m in h.dm_messages(ADA).values())
    finally:
        await h.close()


async def test_in_a_dm_only_me_commands_answer_and_the_others_refuse_in_one_line(tmp_path):
    h = await two_guilds(tmp_path)
    try:
        dm = h.open_dm(h.user(BEN))
        before = await service(h).games.open_channels()
        refused = (await h.slash(BEN, "augsburg new", channel_id=dm)).answer
        assert refused.content == notices.notice(words("en"), "server_only", {}, None)
        assert "\n" not in refused.content and await service(h).games.open_channels() == before
        shown = (await h.slash(BEN, "augsburg me hours", channel_id=dm)).answer
        assert "UTC" in shown.content and "any time" in shown.content
    finally:
        await h.close()


async def test_hours_are_set_from_a_dm_with_autocomplete_and_bad_input_changes_nothing(tmp_path):
    h = await two_guilds(tmp_path)
    try:
        dm = h.open_dm(h.user(ADA))
        suggested = await h.autocomplete(ADA, "augsburg me hours", "zone", "berlin", channel_id=dm)
        assert [c["value"] for c in suggested] == ["Europe/Berlin"]
        many = await h.autocomplete(ADA, "augsburg me hours", "zone", "a", channel_id=dm)
        assert len(many) == 25 and all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in many)
        said = (await h.slash(ADA, "augsburg me hours", channel_id=dm, zone="Europe/Berlin", start=18, end=23)).answer
        assert "Europe/Berlin" in said.content and "18:00–23:00" in said.content
        settings = service(h).settings
        assert (await settings.of(ADA))["hours"] == [18, 23]
        for bad, code in (({"zone": "Mars/Olympus"}, "unknown_zone"), ({"start": 5, "end": 5}, "empty_hours"),
                          ({"start": 5}, "hours_both")):
            answer = (await h.slash(ADA, "augsburg me hours", channel_id=dm, **bad)).answer
            assert answer.content.count("\n") == 0 and answer.content == notices.notice(
                words("en"), code, {"zone": bad.get("zone", "")}, None)
        assert (await settings.hours.of(ADA)).start == 18 and (await settings.of(ADA))["zone"] == "Europe/Berlin"
        cleared = (await h.slash(ADA, "augsburg me hours", channel_id=dm, any_time=True)).answer
        assert "any time" in cleared.content and (await settings.hours.of(ADA)).any_time
    finally:
        await h.close()


async def test_the_daily_word_lists_exactly_the_games_due_and_replaces_the_pings(tmp_path):
    h = await two_guilds(tmp_path, no_clock)  # nothing moves while the clock runs on to the word
    try:
        first, second = h.channel_ids[0], h.channel_ids[1]
        dm = h.open_dm(h.user(BEN))
        await h.slash(BEN, "augsburg me hours", channel_id=dm, zone="America/New_York")
        said = (await h.slash(BEN, "augsburg me daily", channel_id=dm, at=9)).answer
        assert "09:00" in said.content
        pings_before = len([m for m in h.posted_in().values() if str(BEN) in m.content])
        await start(h, first, (ADA, BEN))
        await start(h, second, (CLEO, BEN))
        await start(h, OTHER, (BEN, CLEO))
        # Ben is never mentioned: his daily word lists the games instead.
        assert len([m for m in h.posted_in().values() if f"<@{BEN}>" in m.content]) == pings_before
        mine = await service(h).mine.games(BEN)
        due = [g for g in mine if g.mine or g.soon]
        assert due, "Ben has a decision somewhere (the opening purchase)"
        row = [d for d in await service(h).deadlines.deadlines() if d.kind == "daily"]
        assert len(row) == 1 and row[0].player == str(BEN)
        await pass_time(h, row[0].due_at - h.clock.now() + 1)
        (word,) = h.dm_messages(BEN).values()
        assert links(word.content) == [f"https://discord.com/channels/{g.record.guild_id}/{g.record.channel_id}/"
                                       f"{g.record.messages.table}" for g in due]
        again = [d for d in await service(h).deadlines.deadlines() if d.kind == "daily"]
        assert again[0].due_at == pytest.approx(row[0].due_at + DAY, abs=3600)  # tomorrow (summer time aside)
        off = (await h.slash(BEN, "augsburg me daily", channel_id=dm, off=True)).answer
        assert "No daily word" in off.content
        assert not [d for d in await service(h).deadlines.deadlines() if d.kind == "daily"]
    finally:
        await h.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hours_words_in_every_language(lang):
    w = words(lang)
    assert "<t:1800000000:t>" in hours.back_line(w, "Ada", 1_800_000_000)
    assert "18:00" in hours.hours_now(w, "Europe/Berlin", 18, 23, 9)
    assert hours.daily_now(w, None) != hours.daily_now(w, 9)
    line = hours.game_line(w, "S › #c", "https://x", ["Ada"], False, True, False, 1_800_000_000.0)
    assert "Ada" in line and "<t:1800000000:f>" in line



@pytest.mark.parametrize("lang", LANGUAGES)
async def test_me_commands_answer_in_the_readers_language_from_a_dm(tmp_path, lang):
    h = await two_guilds(tmp_path)
    try:
        h.user(ADA).locale = lang
        w = words(lang)
        await start(h, h.channel_ids[0], (ADA, BEN))
        dm = h.open_dm(h.user(ADA))
        listed = (await h.slash(ADA, "augsburg me games", channel_id=dm)).answer.content
        assert listed.startswith(hours.my_games_heading(w)) and len(links(listed)) == 1
        said = (await h.slash(ADA, "augsburg me hours", channel_id=dm, zone="Europe/Rome", start=20, end=1)).answer
        assert said.content == hours.hours_now(w, "Europe/Rome", 20, 1, None) and "20:00–01:00" in said.content
        refused = (await h.slash(ADA, "augsburg status", channel_id=dm)).answer.content
        assert refused == notices.notice(w, "server_only", {}, None)
    finally:
        await h.close()
