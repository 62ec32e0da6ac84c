"""The two backends' schemas (SQLite's migrations 1-7, PostgreSQL's own) hold the same tables and columns,
and PostgreSQL's types are wide enough for what is stored (issue 26)."""

from __future__ import annotations

from storage import Store
from storage.postgres.migrate import LATEST as PG_LATEST
from storage.sqlite.migrate import LATEST as SQLITE_LATEST


async def test_both_schemas_hold_the_same_tables_and_columns(tmp_path, postgres_url):
    lite, pg = await Store.open(tmp_path / "schema.sqlite3"), await Store.open(postgres_url)
    try:
        sqlite_columns, pg_columns = await lite.db.column_types(), await pg.db.column_types()
        assert set(sqlite_columns) == set(pg_columns)
        for table, columns in sqlite_columns.items():
            assert list(columns) == list(pg_columns[table]), table  # the same columns, in the same order
        assert (await pg.db.fetchone("SELECT version FROM schema_version"))["version"] == PG_LATEST
        assert (await lite.db.fetchone("SELECT version FROM schema_version"))["version"] == SQLITE_LATEST
        types = {(t, c): kind for t, columns in pg_columns.items() for c, kind in columns.items()}
    finally:
        await lite.close()
        await pg.close()
    snowflakes = [(t, c) for (t, c) in types
                  if c in ("guild_id", "channel_id", "parent_id") or (t, c) == ("games", "id")]
    assert snowflakes and all(types[k] == "bigint" for k in snowflakes)
    times = [k for k in types if k[1] in ("created_at", "updated_at", "finished_at", "at", "due_at", "taken_at",
                                          "heartbeat_at")]
    assert times and all(types[k] == "double precision" for k in times)
    assert types["actions", "hash"] == "bytea"
    assert types["deadlines", "payload"] == types["player_settings", "settings"] == "jsonb"  # queried by SQL
    assert types["actions", "events"] == types["games", "snapshot"] == "text"  # hashed over their exact text


def test_one_loader_reads_both_backends_migrations_in_order():
    from storage.migrations import Migrations
    from storage.postgres.migrate import MIGRATIONS as PG
    from storage.sqlite.migrate import MIGRATIONS as SQLITE

    for migrations, latest in ((SQLITE, SQLITE_LATEST), (PG, PG_LATEST)):
        assert isinstance(migrations, Migrations)
        assert [step.number for step in migrations.steps] == list(range(1, latest + 1))
        assert all(step.name.startswith(f"{step.number:04d}_") and step.sql.strip() for step in migrations.steps)
        assert migrations.due(latest) == [] and migrations.due(0, 2) == migrations.steps[:2]
        assert migrations.due(1) == migrations.steps[1:]


def test_a_gap_in_the_migrations_or_a_newer_database_is_refused(tmp_path, monkeypatch):
    import pytest

    from storage.migrations import Migrations

    package = tmp_path / "gappy"
    (package / "migrations").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name in ("0001_first.sql", "0003_third.sql", "notes.txt"):
        (package / "migrations" / name).write_text("SELECT 1;")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RuntimeError, match=r"without gaps, found \[1, 3\]"):
        Migrations("gappy")
    (package / "migrations" / "0002_second.sql").write_text("SELECT 2;")
    migrations = Migrations("gappy")
    assert [s.name for s in migrations.steps] == ["0001_first.sql", "0002_second.sql", "0003_third.sql"]
    with pytest.raises(RuntimeError, match="newer than this code knows"):
        migrations.due(4)
