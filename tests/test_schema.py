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
