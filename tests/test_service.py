"""The game service behind every button: lobby rules, stale decisions, serialised moves (issue 4)."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service import GameService, codes, decision_key
from bot.wording import ENGLISH, names
from engine import legal_actions, to_act
from engine.actions import BuyChoice, RevealChoice
from engine.randomplay import concrete
from storage import Seat, Store

CHANNEL, GUILD = 500, 1


@pytest.fixture
async def service(tmp_path):
    store = await Store.open(tmp_path / "bot.sqlite3")
    yield GameService(store)
    await store.close()


def seat(user: int, name: str = "") -> Seat:
    return Seat(id=str(user), name=name or f"P{user}")


def code(outcome) -> str | None:
    return outcome.notice.code if outcome.notice else None


async def started(service: GameService, players=(11, 22, 33)):
    host, *others = players
    table = (await service.lobby.open_table(GUILD, CHANNEL, seat(host, "Host"))).record
    for p in others:
        assert (await service.lobby.join(CHANNEL, table.id, seat(p))).ok
    out = await service.lobby.start(CHANNEL, table.id, host)
    assert out.ok and out.record.status == "active"
    return out.record


async def test_lobby_rules(service):
    table = (await service.lobby.open_table(GUILD, CHANNEL, seat(11, "Host"))).record
    assert code(await service.lobby.open_table(GUILD, CHANNEL, seat(22))) == "channel_busy"  # one game per channel
    assert (await service.lobby.join(CHANNEL, table.id, seat(22, "Bea"))).ok
    assert code(await service.lobby.join(CHANNEL, table.id, seat(22, "Bea"))) == "already_seated"
    assert code(await service.lobby.start(CHANNEL, table.id, 22)) == "host_only_start"
    assert code(await service.lobby.leave(CHANNEL, table.id, 11)) == "host_cannot_leave"
    assert code(await service.lobby.add_computer(CHANNEL, table.id, 22)) == "host_only_computers"
    assert (await service.lobby.leave(CHANNEL, table.id, 22)).ok
    lonely = await service.lobby.start(CHANNEL, table.id, 11)
    assert code(lonely) == "players_needed" and lonely.notice.params == {"least": 2, "most": 5}
    for p in (22, 33, 44, 55):
        assert (await service.lobby.join(CHANNEL, table.id, seat(p))).ok
    full = await service.lobby.join(CHANNEL, table.id, seat(66))
    assert code(full) == "table_full" and full.notice.params == {"most": 5}
    assert (await service.lobby.start(CHANNEL, table.id, 11)).ok
    assert code(await service.lobby.join(CHANNEL, table.id, seat(66))) == "already_started"


async def test_computer_seats_are_typed_and_named(service):
    table = (await service.lobby.open_table(GUILD, CHANNEL, seat(11, "Host"))).record
    for _ in range(2):
        table = (await service.lobby.add_computer(CHANNEL, table.id, 11)).record
    assert [s.kind for s in table.table.seats] == ["human", "computer", "computer"]
    assert [s.number for s in table.table.seats] == [None, 1, 2]
    assert [names.seat(ENGLISH, s) for s in table.table.seats] == ["Host", "Computer 1", "Computer 2"]
    record = (await service.lobby.start(CHANNEL, table.id, 11, seed=5)).record
    assert record.table.seed == 5 and record.table.humans() == ["11"]


async def test_locks_are_freed_when_nobody_holds_them(service):
    import gc

    async with service.core.lock(CHANNEL):
        assert CHANNEL in service.core._locks
    gc.collect()
    assert CHANNEL not in service.core._locks


async def test_strangers_stale_buttons_and_wrong_turns_change_nothing(service):
    record = await started(service)
    key = decision_key(record.state)
    stranger = await service.decisions.act(CHANNEL, record.id, 99, key, codes.decode("buy:"))
    assert code(stranger) == "not_seated"
    first = await service.decisions.act(CHANNEL, record.id, 11, key, codes.decode("buy:"))
    assert first.ok
    twice = await service.decisions.act(CHANNEL, record.id, 11, key, codes.decode("buy:"))
    assert code(twice) == "already_chosen"  # a second click in a choice made at once: not "not your turn"
    typed = await service.decisions.act(CHANNEL, record.id, 11, None, codes.decode("buy:"))
    assert code(typed) == "already_chosen"  # typed again after buying too (issue 27): not "not your turn"
    old_game = await service.decisions.act(CHANNEL, record.id + 1, 22, key, codes.decode("buy:"))
    assert code(old_game) == "game_gone"
    stale = await service.decisions.act(CHANNEL, record.id, 22, "41", codes.decode("buy:"))
    assert code(stale) == "stale_decision"
    current = await service.games.current(CHANNEL)
    assert current.state.moves == 1 and len(await service.core.store.log.action_log(record.id)) == 1


async def test_a_double_click_is_applied_once(service):
    record = await started(service, players=(11, 22))
    for p in (11, 22):
        assert (await service.decisions.act(CHANNEL, record.id, p, None, codes.decode("buy:"))).ok
    record = await service.games.current(CHANNEL)
    opener = int(to_act(record.state)[0])
    key = decision_key(record.state)
    results = await asyncio.gather(*(service.decisions.act(CHANNEL, record.id, opener, key, codes.decode("p"))
                                     for _ in range(2)))
    assert sorted(r.ok for r in results) == [False, True]
    assert (await service.games.current(CHANNEL)).state.moves == 3


async def test_a_whole_game_through_action_codes(service):
    """Every legal action survives the trip through a custom_id code; the game ends and is kept as history."""
    record = await started(service)
    rnd = random.Random(4)
    while record.status == "active":
        state = record.state
        player = rnd.choice(to_act(state))
        option = rnd.choice(legal_actions(state, player))
        action = concrete(option, rnd)
        if isinstance(option, (RevealChoice, BuyChoice)):
            me = state.players[[p.id for p in state.players].index(player)]
            source = list(me.hand if isinstance(option, RevealChoice) else me.offered)
            positions = []
            for card in action.cards:
                i = next(i for i, c in enumerate(source) if c == card and i not in positions)
                positions.append(i)
            code = codes.encode_positions("rev" if isinstance(option, RevealChoice) else "buy", positions)
        else:
            code = codes.encode(action)
            assert codes.decode(code) == action
        out = await service.decisions.act(CHANNEL, record.id, int(player), decision_key(state), codes.decode(code))
        assert out.ok, out.notice
        record = out.record
    assert record.status == "finished" and record.state.phase == "game_over"
    assert await service.games.current(CHANNEL) is None
    stats = await service.core.store.records.player_stats(record.state.winners[0])
    assert stats["wins"] == 1


async def test_deals_are_unpredictable_unless_a_test_fixes_the_deal_seed(tmp_path):
    """DEAL_SEED fixes every game's deal (the same game number deals the same cards again, other games
    others); without it, two games started the same way are dealt differently."""

    async def first_hand(deal_seed, path):
        async with await Store.open(path) as store:
            svc = GameService(store, deal_seed=deal_seed)
            record = await started(svc)
            return record.table.seed, record.state.players[0].hand + record.state.players[0].offered

    fixed = [await first_hand(7, tmp_path / f"fixed{i}.sqlite3") for i in range(2)]
    assert fixed[0] == fixed[1]
    other = await first_hand(8, tmp_path / "other.sqlite3")
    free = [await first_hand(None, tmp_path / f"free{i}.sqlite3") for i in range(2)]
    assert other[0] != fixed[0] and free[0][0] != free[1][0] and free[0][0] != fixed[0][0]


async def test_a_write_another_process_made_first_is_the_polite_raced_refusal_everywhere(store):
    """Every version-checked write of the service (lobby changes, the start, a cancel) answers a second
    writer's conflict with the "raced" refusal and drops its copy; nothing raises (issue 41)."""
    from storage import Seat

    service = GameService(store)
    record = (await service.lobby.open_table(1, 70, Seat(id="a", name="A"))).record
    other = GameService(store)  # another process on the same database
    assert (await other.lobby.join(70, record.id, Seat(id="b", name="B"))).ok
    joined = await service.lobby.join(70, record.id, Seat(id="c", name="C"))  # from its stale copy
    assert not joined.ok and joined.notice.code == "raced"
    assert (await service.lobby.join(70, record.id, Seat(id="c", name="C"))).ok  # read again: it goes through
    assert (await other.lobby.add_computer(70, record.id, "a")).notice.code == "raced"  # its copy is stale now
    assert (await other.lobby.add_computer(70, record.id, "a")).ok
    started = await service.lobby.start(70, record.id, "a", seed=1)
    assert not started.ok and started.notice.code == "raced"
    assert (await service.lobby.start(70, record.id, "a", seed=1)).ok
    assert (await other.lobby.cancel(70, "a", can_manage=False)).notice.code == "raced"
    assert (await service.lobby.cancel(70, "a", can_manage=False)).ok
    assert (await store.games.load_game(record.id)).status == "cancelled"


async def test_a_failed_dm_is_told_at_the_next_panel_though_panels_read_nobodys_notice_twice_a_minute(store):
    """A panel asks at every open whether to tell its player that a DM failed (issue 44: a read each time).
    Found owing nothing, a person is not asked again for FRESH_SECONDS; a failure noted by this process is
    told at the very next panel, one noted by another process within FRESH_SECONDS, and each once."""
    from support.clock import ManualClock

    from bot.service.settings import FRESH_SECONDS

    clock = ManualClock()
    service, other = GameService(store, clock=clock), GameService(store, clock=clock)  # two processes
    reads = []
    merge = store.settings.merge_player_settings

    async def counted(*args, **kwargs):
        reads.append(args[0])
        return await merge(*args, **kwargs)

    store.settings.merge_player_settings = counted
    assert [await service.settings.take_dm_notice("u") for _ in range(3)] == [False] * 3
    assert reads == ["u"]  # one read for three panels
    await service.settings.note_dm_failed("u")  # a DM failed here: told at the next panel, once
    assert [await service.settings.take_dm_notice("u") for _ in range(2)] == [True, False]
    await store.settings.merge_player_settings("u", {"dm_failed": False})  # they changed how they are told
    await other.settings.note_dm_failed("u")  # another process's DM failed
    assert await service.settings.take_dm_notice("u") is False  # not read again yet
    clock.advance(FRESH_SECONDS + 1)
    assert [await service.settings.take_dm_notice("u") for _ in range(2)] == [True, False]


async def test_people_s_hours_kept_in_memory_leave_nothing_for_full_collections_to_walk(store):
    """Issue 44: a bot keeps the hours of everyone it pinged lately. Kept as plain values (and one `Hours` for
    all who keep the same), a thousand people leave no object per person that the garbage collector walks."""
    import gc

    from bot.service.hours import Hours

    service = GameService(store)
    await store.settings.merge_player_settings("rome", {"zone": "Europe/Rome", "hours": [9, 21]})
    people = [str(700 + n) for n in range(1000)]
    await service.settings.hours.of(people[0])  # (what a first read makes once: the zone's cache…)
    gc.collect()
    gc.collect()  # (a tuple of plain values is let go by the collection after the one that first saw it)
    before = {id(o) for o in gc.get_objects()}
    read = [await service.settings.hours.of(p) for p in people]
    gc.collect()
    gc.collect()
    new = [o for o in gc.get_objects() if id(o) not in before]
    # (the database's reads leave a few weak references behind: a fraction of one a person)
    assert len(new) < len(people) / 2, "an object per person for every full collection to walk"
    assert read[0] == Hours() and all(h is read[0] for h in read)  # the default, shared
    # Kept: read again within FRESH_SECONDS, the same hours without a database read; another's their own
    assert await service.settings.hours.of(people[5]) is read[0]
    assert await service.settings.hours.of("rome") == Hours("Europe/Rome", 9, 21)
    assert await service.settings.hours.of("rome") == Hours("Europe/Rome", 9, 21)
