"""SQLite's group commit (storage/sqlite/database.py): transactions asked for while another is being written
go together under one COMMIT, one synchronous write of the file for many moves, and each still stands or
falls alone: a caller hears of success only once its work is committed."""

from __future__ import annotations

import asyncio

import pytest

from storage.sqlite.database import SQLiteDatabase


class Refused(Exception):
    pass


@pytest.fixture
async def db(tmp_path):
    database = await SQLiteDatabase.open(tmp_path / "group.sqlite3")
    await database.transaction(lambda tx: tx.execute("CREATE TABLE moves (n INTEGER)"))
    yield database
    await database.close()


def counting_commits(db: SQLiteDatabase) -> list[str]:
    seen, execute = [], db._db.execute

    def spy(sql, *args):
        if sql == "COMMIT":
            seen.append(sql)
        return execute(sql, *args)

    db._db.execute = spy
    return seen


async def test_many_transactions_at_once_share_a_commit_and_each_stands_or_falls_alone(db):
    commits = counting_commits(db)

    def move(n):
        async def work(tx):
            await tx.execute("INSERT INTO moves VALUES (?)", (n,))
            if n == 7:
                raise Refused("an illegal move: nothing of it is kept")
            return n
        return work

    results = await asyncio.gather(*(db.transaction(move(n)) for n in range(30)), return_exceptions=True)
    assert isinstance(results[7], Refused)
    assert [r for i, r in enumerate(results) if i != 7] == [n for n in range(30) if n != 7]
    rows = await db.fetchall("SELECT n FROM moves ORDER BY n")
    assert [r["n"] for r in rows] == [n for n in range(30) if n != 7]
    assert len(commits) <= 3, f"{len(commits)} commits for 30 transactions asked for at once"


async def test_a_caller_hears_of_success_only_once_its_work_is_committed(db):
    """A second connection (another reader of the file) sees the row by the time the caller is told."""
    other = await SQLiteDatabase.open(db.path)
    try:
        async def work(tx):
            await tx.execute("INSERT INTO moves VALUES (1)")

        first = asyncio.ensure_future(db.transaction(work))
        second = asyncio.ensure_future(db.transaction(work))
        await first
        assert (await other.fetchone("SELECT COUNT(*) FROM moves"))[0] >= 1
        await second
        assert (await other.fetchone("SELECT COUNT(*) FROM moves"))[0] == 2
    finally:
        await other.close()


async def test_a_transaction_given_up_before_its_turn_is_not_written(db):
    started = asyncio.Event()

    async def slow(tx):
        started.set()
        await asyncio.sleep(0.05)
        await tx.execute("INSERT INTO moves VALUES (1)")

    async def late(tx):
        await tx.execute("INSERT INTO moves VALUES (2)")

    first = asyncio.ensure_future(db.transaction(slow))
    await started.wait()
    given_up = asyncio.ensure_future(db.transaction(late))
    await asyncio.sleep(0)
    given_up.cancel()
    await first
    await db.transaction(lambda tx: tx.execute("INSERT INTO moves VALUES (3)"))
    assert [r["n"] for r in await db.fetchall("SELECT n FROM moves ORDER BY n")] == [1, 3]
