"""A person's games as a line each (issue 43): their `/augsburg me games` list and their daily word, a direct
message at the hour they chose listing the games where it is their move or soon will be (service/mine.py
decides which, and when the next one comes)."""

from __future__ import annotations

from collections.abc import Callable

import discord

from storage import GameRecord

from ..service import MyGame
from ..wording import Words, hours
from .heads_up import Announcer
from .people import people

LIST_CHARACTERS = 1900  # a list of games stays within one message (Discord's 2,000)
Place = Callable[[GameRecord], "tuple[str, str] | None"]  # a game's server and channel, as names


def places(client: discord.Client) -> Place:
    """Where a game is, by the names this process's Discord client knows (None: a server it does not see)."""
    def place(record: GameRecord) -> tuple[str, str] | None:
        guild = client.get_guild(record.guild_id)
        channel = guild.get_channel_or_thread(record.channel_id) if guild is not None else None
        return (guild.name, channel.name) if guild is not None and channel is not None else None
    return place


def game_line(presenter: Announcer, w: Words, game: MyGame, place: Place) -> str:
    """One game: where, whose move, until when (in the reader's own time), and the link to its table."""
    record = game.record
    link = presenter.table_link(record) if record.messages.table is not None \
        else f"https://discord.com/channels/{record.guild_id}/{record.channel_id}"
    named = people(w, record.table).plain()
    found = place(record)
    where = hours.where(w, *found) if found is not None else hours.unknown_place(w)
    return hours.game_line(w, where, link, [named.name(p) for p in game.due], game.mine, game.soon,
                           record.status == "lobby", game.deadline)


def games_list(heading: str, lines: list[str]) -> str:
    """The lines under their heading, as many as one message holds."""
    text = heading
    for line in lines:
        if len(text) + 1 + len(line) > LIST_CHARACTERS:
            return text + "\n…"
        text += "\n" + line
    return text


async def send_daily(presenter: Announcer, player: str, games: list[MyGame], place: Place) -> None:
    """The daily word: the games where it is `player`'s move or soon will be (service/mine.py)."""
    w = await presenter.reader(player)
    lines = [game_line(presenter, w, g, place) for g in games]
    await presenter.direct(player, games_list(hours.daily_dm(w), lines))
