"""A lost PostgreSQL (a restart, a network blip): retried with backoff; past the wait, nothing is stored and
the player is told so, never a ghost move (issue 26). The server is reached through a relay the test cuts."""

from __future__ import annotations

import asyncio
import random

import pytest
from support.bot_support import ADA, BEN, game, long_lived, make_bot, open_and_start, take_a_decision
from support.fake_discord import FakeUser, Harness
from support.pgproxy import Relay, relaying
from support.storage_helpers import new_stored_game, play_random

from engine import apply, to_act
from engine.randomplay import random_action
from storage import StorageUnavailable, Store

T0 = 1_800_000_000.0


@pytest.fixture
async def relay(postgres_url):
    relay = await Relay(postgres_url).start()
    yield relay
    await relay.close()


async def restore_after(relay: Relay, seconds: float) -> None:
    await asyncio.sleep(seconds)
    await relay.restore()


async def test_a_move_during_a_blip_is_stored_once_the_server_is_back(relay):
    store = await Store.open(relay.url, retry_seconds=10)
    try:
        record = await play_random(store, await new_stored_game(store, channel=1, seed=1), 5, random.Random(1))
        await relay.cut()
        back = asyncio.create_task(restore_after(relay, 0.5))
        record = await play_random(store, record, 1, random.Random(2))  # on connections that are gone
        await back
        assert record.version == 6
        loaded = await store.games.load_channel(1)
        assert loaded.state == record.state and await store.log.notes(record.id) == []  # chain whole
    finally:
        await store.close()


async def test_a_move_the_server_never_got_is_not_stored_and_can_be_made_again(relay, caplog):
    store = await Store.open(relay.url, retry_seconds=0.5)
    try:
        record = await play_random(store, await new_stored_game(store, channel=1, seed=3), 5, random.Random(3))
        player, action = random_action(record.state, random.Random(4))
        state = apply(record.state, player, action).state
        await relay.cut()
        with pytest.raises(StorageUnavailable):
            await store.games.commit_action(record.id, record.version, player, action.to_json_dict(), state)
        # The operator is told: the write could not reach the server, or (its connection lost under the move's
        # one statement, which may have landed) the read that would tell whether it did.
        assert "PostgreSQL out of reach for" in caplog.text
        await relay.restore()
        assert (await store.games.load_channel(1)).version == record.version  # nothing of it was stored
        again = await store.games.commit_action(record.id, record.version, player, action.to_json_dict(), state)
        assert again.version == record.version + 1 and (await store.games.load_channel(1)).state == state
    finally:
        await store.close()


@pytest.fixture
async def h(relay):
    bot = make_bot(relay.url, database_retry_seconds=0.5)
    harness = await Harness.create(bot, users=[FakeUser(ADA, "Ada"), FakeUser(BEN, "Ben")],
                                   ignore=(long_lived, relaying))
    harness.relay = relay
    yield harness
    await harness.close()


async def test_a_player_whose_move_could_not_be_stored_is_told_nothing_was_applied(h):
    table = await open_and_start(h, players=(ADA, BEN))
    record = game(h)
    player = int(to_act(record.state)[0])
    panel = (await h.click(player, table, label="My hand & actions")).answer
    await h.relay.cut()
    buttons = [b for b in panel.buttons() if b["custom_id"].startswith("aug:do:") and not b.get("disabled")]
    if buttons:
        answer = (await h.click(player, panel.message_id, buttons[0]["custom_id"])).answer
    else:
        menu = panel.selects()[0]
        picked = [o["value"] for o in menu["options"]][: menu.get("min_values", 1)]
        answer = (await h.select(player, panel.message_id, menu["custom_id"], picked)).answer
    assert answer.ephemeral and "nothing was applied" in answer.content and "Traceback" not in answer.content
    await h.relay.restore()
    stored = await h.bot.service.games.game(record.id)
    assert stored.version == record.version and stored.state == record.state  # no ghost move
    await take_a_decision(h, player, table, random.Random(1))  # once it is back, play goes on
    assert (await h.bot.service.games.game(record.id)).version == record.version + 1
    h.assert_all_answered()


@pytest.mark.parametrize("server_notices", [True, False], ids=["server restarted", "network dropped"])
async def test_the_lease_outlives_a_blip_and_is_taken_again_by_its_holder(relay, postgres_url, server_notices):
    """Its lock's connection is lost; renewals fail while the server is out of reach (the keeper serves on
    until its takeover time), and the first one after takes the lock again: at once if the server ended the
    lost session, and by ending that session if the server never noticed it gone (a dropped network: the
    relay keeps the server's side open, so this does not depend on how fast the server notices)."""
    store = await Store.open(relay.url, retry_seconds=0.3)
    other = await Store.open(postgres_url)
    try:
        await store.leases.take_lease("me", 1, "here", 30)
        lost_session = store.leases._con.get_server_pid()
        await relay.cut(server_notices=server_notices)
        for _ in range(2):
            with pytest.raises(Exception):  # noqa: B017 - out of reach: an error, not "taken over"
                await store.leases.renew_lease("me")
        if not server_notices:  # the lost session lives on, holding the lock: nobody else may take it
            assert (await other.leases.live_lease()).holder == "me"
        await relay.restore()
        assert await store.leases.renew_lease("me")
        assert (await store.leases.live_lease()).holder == "me"
        assert (await other.leases.live_lease()).holder == "me"
        assert store.leases._con.get_server_pid() != lost_session
    finally:
        await store.close()
        await other.close()


async def test_after_a_dropped_network_a_lock_another_process_took_is_not_taken_back(relay, postgres_url):
    """Only the holder's own lost session is ended: a lock held by anyone else means the lease is gone."""
    store = await Store.open(relay.url, retry_seconds=0.3)
    other = await Store.open(postgres_url)
    try:
        await store.leases.take_lease("me", 1, "here", 30, now=T0)
        await relay.cut(server_notices=False)
        # Stale past its takeover time: another process ends the lost session and takes the lease.
        await other.leases.take_lease("them", 2, "there", 30, now=T0 + 31)
        await relay.restore()
        assert not await store.leases.renew_lease("me")  # its own session is gone and the lock is theirs
        assert (await other.leases.live_lease()).holder == "them"
    finally:
        await store.close()
        await other.close()
