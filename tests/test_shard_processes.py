"""Two real `python -m bot` processes with SHARD_COUNT=2, one shard each, on one PostgreSQL (issue 28): games in
guilds of both shards are played to their final standings while one process is killed with -9 mid-game and
started again. Every move acknowledged to a player is in the database exactly once, no interaction reaches
(or is answered by) two processes, every turn's deadline fires once, and the surviving shard's game never
pauses. The fake Discord routes each guild's events to its shard's session only (support/gateway.py)."""

from __future__ import annotations

import asyncio
import random
import time

import asyncpg
from support.bot_processes import bots
from support.fake_discord import FakeDiscord, FakeUser, HarnessError

from storage.ownership import shard_of

# A guild of shard 0 and one of shard 1 (of 2), each with one text channel; every user is in both.
GUILD_0, GUILD_1 = (733_000 * 2) << 22, (733_000 * 2 + 1) << 22
CHANNEL_0, CHANNEL_1 = 733_000_000_000_000_010, 733_000_000_000_000_011
ALICE, BOB, CAROL = 733_000_000_000_000_101, 733_000_000_000_000_102, 733_000_000_000_000_103
HELD = 3
TURN, REMINDER = 4, 2  # seconds: Carol never clicks; her clock runs out twice, then a computer plays her seat


class Player:
    """One person clicking through one game, counting the decisions the bot acknowledged and stored."""

    def __init__(self, fake: FakeDiscord, db: asyncpg.Pool, user: int, channel: int, table: int, seed: int):
        self.fake, self.db, self.user, self.channel, self.table = fake, db, user, channel, table
        self.rnd = random.Random(seed)
        self.applied = 0  # decisions answered, and in the database when answered
        self.answered = 0  # decisions answered at all (a stale panel's is refused, changing nothing)

    async def stored(self) -> int:
        return await self.db.fetchval(
            "SELECT count(*) FROM actions a JOIN games g ON g.id = a.game_id WHERE g.channel_id = $1"
            " AND a.player = $2 AND a.actor = 'player'", self.channel, str(self.user))

    def over(self) -> bool:
        return any("final standings" in m.content for m in self.fake.messages_in(self.channel).values())

    async def decide(self) -> bool:
        """Open the private panel and take one of its decisions; False if none is due (or the game is over)."""
        try:
            panel = (await self.fake.click(self.user, self.table, label="My hand & actions")).answer
        except HarnessError:  # the game has just ended: the table has no button any more
            return False
        if panel is None or not panel.ephemeral:
            return False
        choices = [c for c in panel.buttons() + panel.selects()  # decisions now (not those settled ahead)
                   if c["custom_id"].startswith("aug:do:") and not c.get("disabled")]
        if not choices:
            return False
        before = await self.stored()
        choice = self.rnd.choice(choices)
        if choice.get("type") == 2:
            result = await self.fake.click(self.user, panel.message_id, choice["custom_id"])
        else:
            values = [o["value"] for o in choice["options"]]
            picked = self.rnd.sample(values, self.rnd.randint(choice.get("min_values", 1), choice.get("max_values", 1)))
            result = await self.fake.select(self.user, panel.message_id, choice["custom_id"], picked)
        if result.response is not None:
            self.answered += 1
            after = await self.stored()
            assert after in (before, before + 1)  # stored before it was answered, once (or refused: unchanged)
            self.applied += after - before
        return True

    async def play(self, decisions: int | None = None, deadline: float = 300) -> int:
        """Up to `decisions` decisions (None: to the end of the game); how many were taken."""
        taken, until = 0, time.monotonic() + deadline
        while not self.over() and (decisions is None or taken < decisions):
            assert time.monotonic() < until, f"the game in {self.channel} did not finish"
            if await self.decide():
                taken += 1
            else:
                await asyncio.sleep(0.3)  # Carol's turn: her clock runs out
        return taken


async def open_table(fake: FakeDiscord, host: int, channel: int) -> int:
    table = (await fake.slash(host, "augsburg new", channel_id=channel)).answer.message_id
    await fake.click(CAROL, table, label="Join")
    started = await fake.click(host, table, label="Start game")
    assert "round 1 of" in started.answer.embeds[0]["title"]
    return table


async def test_two_processes_one_shard_each_play_on_through_a_kill_minus_nine(tmp_path, postgres_url):
    assert (shard_of(GUILD_0, 2), shard_of(GUILD_1, 2)) == (0, 1)
    users = [FakeUser(ALICE, "Alice"), FakeUser(BOB, "Bob"), FakeUser(CAROL, "Carol")]
    async with FakeDiscord(guild_id=GUILD_0, channel_id=CHANNEL_0, more_guilds={GUILD_1: [CHANNEL_1]},
                           users=users) as fake, \
            bots(fake, tmp_path, DATABASE_URL=postgres_url, SHARD_COUNT="2", COMPUTER_DELAY="0",
                 TURN_TIMEOUT_SECONDS=str(TURN), REMINDER_SECONDS=str(REMINDER)) as start:
        first = await start("shard-0", SHARD_IDS="0")
        second = await start("shard-1", SHARD_IDS="1")
        await fake.wait_until(lambda: fake.gateway.serving(GUILD_0) and fake.gateway.serving(GUILD_1) and fake.commands,
                              timeout=60, what="both shards connected and the commands synced")
        assert list(fake.commands) == [None]  # synced once, globally, by shard 0's owner
        assert "slash commands" not in second.output()

        intruder = await start("intruder", SHARD_IDS="1")  # shard 1 is taken: refused before connecting
        assert await intruder.exited() == HELD
        (line,) = intruder.output().strip().splitlines()
        assert "shard 1 of 2 of postgresql://" in line and f"pid {second.proc.pid} on" in line

        db = await asyncpg.create_pool(postgres_url, min_size=1, max_size=2)
        try:
            alice = Player(fake, db, ALICE, CHANNEL_0, await open_table(fake, ALICE, CHANNEL_0), seed=1)
            bob = Player(fake, db, BOB, CHANNEL_1, await open_table(fake, BOB, CHANNEL_1), seed=2)
            await asyncio.gather(alice.play(2), bob.play(2))

            second.proc.kill()  # kill -9 mid-game: shard 1's guild is unserved until it is back
            await second.exited()
            lost = await fake.slash(BOB, "augsburg status", channel_id=CHANNEL_1, settle=False)
            during = alice.applied
            await alice.play(1)  # shard 0's game goes on meanwhile
            assert alice.applied >= during + 1
            assert lost.unanswered  # nobody else answers shard 1's guild: Discord says the interaction failed

            restarted_at = time.monotonic()
            second = await start("shard-1-again", SHARD_IDS="1")
            await fake.wait_until(lambda: fake.gateway.serving(GUILD_1), timeout=60, what="shard 1 again")
            back = time.monotonic() - restarted_at
            status = await fake.slash(BOB, "augsburg status", channel_id=CHANNEL_1)
            assert status.answer.ephemeral and "round" in status.answer.embeds[0]["title"]  # the game lives on
            print(f"shard 1 connected again {back:.1f} s after its restart")

            await asyncio.gather(alice.play(), bob.play())
            await fake.wait_until(lambda: alice.over() and bob.over(), timeout=30, what="both final standings")

            for player in (alice, bob):
                assert player.applied >= 4 and await player.stored() == player.applied  # none lost, none twice
                clock = await db.fetchval(
                    "SELECT count(*) FROM actions a JOIN games g ON g.id = a.game_id WHERE g.channel_id = $1"
                    " AND a.player = $2 AND a.actor = 'clock'", player.channel, str(CAROL))
                # Carol's: on a busy machine Alice or Bob may take over TURN - REMINDER seconds to click, and are
                # reminded too (rightly); each of Carol's two deadlines fired once.
                reminders = [m for m in fake.messages_in(player.channel).values()
                             if "⏰" in m.content and f"<@{CAROL}>" in m.content]
                assert clock == 2 and len(reminders) <= 2
                assert len({m.content for m in reminders}) == len(reminders)
                assert await db.fetchval("SELECT count(*) FROM deadlines d JOIN games g ON g.id = d.game_id"
                                         " WHERE g.channel_id = $1 AND d.kind != 'announce'", player.channel) == 0
        finally:
            await db.close()
        assert fake.gateway.shard_conflicts == [] and fake.gateway.delivered_twice == []  # no interaction twice
        # Nothing answered twice (40060), no refusals; but a ping's deletion the killed process made and could not
        # note is made again by its successor, and finds the message gone (404, Unknown Message): harmless.
        again = "DELETE /channels/{channel_id}/messages/{message_id} -> 404 10008 Unknown Message"
        assert [p for p in fake.problems if p != again] == [] and fake.unknown_requests == []
        assert [i.id for i in fake.unanswered] == [lost.interaction_id]
        assert "Traceback" not in first.output() + second.output()
